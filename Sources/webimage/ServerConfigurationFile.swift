#if Server
import ArgumentParser
import Configuration
import Foundation

/// The `--config` file of `webimage serve`: a JSON object whose keys are the names of
/// ``ServerSetting``s, each with a string, a number, a boolean or (for a list) an array of
/// strings. A key that names no setting is an error, so that a misspelled setting is not
/// silently left at its default.
struct ServerConfigurationFile: Sendable {
    /// The path the file was read from, as given.
    let path: String
    /// Its values, read by swift-configuration.
    let snapshot: JSONSnapshot

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: `ValidationError` naming the file and what is wrong with it.
    init(path: String) throws {
        self.path = path
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("--config \(path) cannot be read: \(error.localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("--config \(path) is not a JSON object")
        }
        let names = ServerSetting.all.map(\.name)
        for key in object.keys.sorted() {
            guard names.contains(key) else {
                let suggestion = Self.nearest(to: key, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw ValidationError("--config \(path) has an unknown setting \"\(key)\"\(suggestion)")
            }
            if object[key] is [String: Any] {
                throw ValidationError("\(key) in \(path) is an object, not a value")
            }
        }
        do {
            snapshot = try JSONSnapshot(data: data.bytes, providerName: path, parsingOptions: .default)
        } catch {
            throw ValidationError("--config \(path) cannot be read: \(error)")
        }
    }

    /// The name closest to `key`, when at most two edits away or different only in case and separators.
    private static func nearest(to key: String, among names: [String]) -> String? {
        let folded = key.lowercased().filter(\.isLetter)
        if let same = names.first(where: { $0.filter(\.isLetter) == folded }) { return same }
        let scored = names.map { ($0, editDistance(Array(key), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// The Levenshtein distance between `first` and `second`.
    private static func editDistance(_ first: [Character], _ second: [Character]) -> Int {
        var previous = Array(0...second.count)
        for (row, character) in first.enumerated() {
            var current = [row + 1]
            for (column, other) in second.enumerated() {
                current.append(min(previous[column + 1] + 1, current[column] + 1, previous[column] + (character == other ? 0 : 1)))
            }
            previous = current
        }
        return previous[second.count]
    }
}
#endif
