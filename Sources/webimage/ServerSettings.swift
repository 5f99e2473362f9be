#if Server
import ArgumentParser
import Configuration
import Foundation

/// The effective settings of `webimage serve`, each read from the first of its sources
/// that gives it: the command line, then the environment (`WEBIMAGE_*`), then the
/// `--config` file, then the setting's default. A list comes whole from one source; sources
/// are not merged.
///
/// Every value a source gives is checked, even one a higher source overrides: a value that
/// does not read as its setting's kind stops the command, naming the setting as that source
/// spells it.
struct ServerSettings: Sendable {
    /// A setting's value and where it came from.
    struct Entry: Sendable {
        /// The value; `nil` for a setting no source gives and that has no default.
        let value: ServerSettingValue?
        /// Where it came from.
        let source: ServerSettingSource
    }

    /// Every setting's entry.
    private let entries: [ServerSetting: Entry]

    /// Reads every setting from `flags` (the texts given on the command line, by setting),
    /// `environment` and `file`, in that order.
    ///
    /// - Throws: `ValidationError` naming the first value that does not read.
    init(flags: [ServerSetting: [String]], environment: [String: String], file: ServerConfigurationFile?) throws {
        let given = flags.map { setting, texts in
            let content: ConfigContent = setting.kind == .list || texts.count != 1 ? .stringArray(texts) : .string(texts[0])
            return (AbsoluteConfigKey([setting.name]), ConfigValue(content, isSecret: setting.isSecret))
        }
        var layers: [(ServerSettingSource, any ConfigSnapshot, prefix: [String])] = [
            (.flags, InMemoryProvider(name: "flags", values: Dictionary(uniqueKeysWithValues: given)).snapshot(), []),
            (
                .environment,
                EnvironmentVariablesProvider(
                    environmentVariables: environment, secretsSpecifier: .specific(Set([ServerSetting.key, .salt].map(\.environmentVariable))),
                    arraySeparator: ServerSetting.environmentSeparator
                ).snapshot(),
                [ServerSetting.environmentPrefix.lowercased()]
            ),
        ]
        if let file { layers.append((.file(file.path), file.snapshot, [])) }
        var entries: [ServerSetting: Entry] = [:]
        for setting in ServerSetting.all {
            for (source, snapshot, prefix) in layers {
                let texts: [String]?
                do {
                    texts = try Self.texts(of: setting, in: snapshot, key: AbsoluteConfigKey(prefix + [setting.name]))
                } catch {
                    throw ValidationError("\(source.label(of: setting)) \(error.complaint)")
                }
                guard let texts else { continue }
                let value = try Self.value(of: setting, texts: texts, source: source)
                if entries[setting] == nil { entries[setting] = Entry(value: value, source: source) }
            }
            if entries[setting] == nil {
                let value = try setting.defaultText.map { try Self.value(of: setting, texts: [$0], source: .defaults) }
                entries[setting] = Entry(value: value, source: .defaults)
            }
        }
        self.entries = entries
    }

    /// `texts` read as `setting`'s value, or a `ValidationError` naming it as `source` gives it.
    private static func value(of setting: ServerSetting, texts: [String], source: ServerSettingSource) throws -> ServerSettingValue {
        do {
            return try ServerSettingValue(kind: setting.kind, texts: texts)
        } catch {
            throw ValidationError("\(source.label(of: setting)) \(error.complaint)")
        }
    }

    /// The texts `snapshot` gives for `setting` under `key`: one for a scalar (a number or a
    /// boolean of a JSON file as text), any number for a list; `nil` when it gives none.
    private static func texts(
        of setting: ServerSetting, in snapshot: any ConfigSnapshot, key: AbsoluteConfigKey
    ) throws(ServerSettingValue.Problem) -> [String]? {
        let types: [ConfigType]
        switch setting.kind {
        case .list: types = [.stringArray, .string]
        case .text: types = [.string]
        case .integer, .size: types = [.string, .int]
        case .seconds: types = [.string, .double]
        case .flag: types = [.string, .bool]
        }
        for type in types {
            guard let result = try? snapshot.value(forKey: key, type: type) else { continue }
            switch result.value?.content {
            case nil: return nil
            case .string(let text): return [text]
            case .stringArray(let items): return items
            case .int(let integer): return [String(integer)]
            case .double(let number): return [String(number)]
            case .bool(let flag): return [String(flag)]
            default: continue
            }
        }
        throw ServerSettingValue.Problem(setting.kind.complaint)
    }

    /// The entry of `setting`.
    func entry(_ setting: ServerSetting) -> Entry {
        entries[setting] ?? Entry(value: nil, source: .defaults)
    }

    /// How messages name `setting` as its value was given: `--port`, `WEBIMAGE_PORT`, ….
    func label(of setting: ServerSetting) -> String {
        entry(setting).source.label(of: setting)
    }

    /// The text of a text setting, if set.
    func text(_ setting: ServerSetting) -> String? {
        guard case .text(let text) = entry(setting).value else { return nil }
        return text
    }

    /// The number of an integer setting, if set.
    func integer(_ setting: ServerSetting) -> Int? {
        guard case .integer(let integer) = entry(setting).value else { return nil }
        return integer
    }

    /// The seconds of a seconds setting, if set.
    func seconds(_ setting: ServerSetting) -> Double? {
        guard case .seconds(let seconds) = entry(setting).value else { return nil }
        return seconds
    }

    /// The bytes of a size setting, if set.
    func size(_ setting: ServerSetting) -> Int? {
        guard case .size(let bytes) = entry(setting).value else { return nil }
        return bytes
    }

    /// Whether a flag setting is on.
    func flag(_ setting: ServerSetting) -> Bool {
        guard case .flag(let flag) = entry(setting).value else { return false }
        return flag
    }

    /// The items of a list setting; empty when unset.
    func list(_ setting: ServerSetting) -> [String] {
        guard case .list(let items) = entry(setting).value else { return [] }
        return items
    }

    /// One line per setting, `NAME = VALUE  (SOURCE)`, secrets masked, for `--print-config`.
    var lines: [String] {
        let width = ServerSetting.all.map(\.name.count).max() ?? 0
        return ServerSetting.all.map { setting in
            let entry = entry(setting)
            let value = entry.value?.shown(secret: setting.isSecret) ?? "none"
            return setting.name.padding(toLength: width, withPad: " ", startingAt: 0) + " = \(value)  (\(entry.source.shown(for: setting)))"
        }
    }
}
#endif
