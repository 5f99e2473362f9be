#if Server
/// Where the value of a ``ServerSetting`` came from.
enum ServerSettingSource: Equatable, Sendable {
    /// The command line.
    case flags
    /// The process's environment.
    case environment
    /// The `--config` file at a path.
    case file(String)
    /// The setting's default.
    case defaults

    /// How a message names `setting` as this source gives it: `--port`, `WEBIMAGE_PORT`,
    /// `port in /etc/webimage.json`.
    func label(of setting: ServerSetting) -> String {
        switch self {
        case .flags: setting.flag
        case .environment: setting.environmentVariable
        case .file(let path): "\(setting.name) in \(path)"
        case .defaults: "the default of \(setting.flag)"
        }
    }

    /// How `--print-config` names this source for `setting`.
    func shown(for setting: ServerSetting) -> String {
        switch self {
        case .flags: "flag \(setting.flag)"
        case .environment: "environment \(setting.environmentVariable)"
        case .file(let path): "file \(path)"
        case .defaults: "default"
        }
    }
}
#endif
