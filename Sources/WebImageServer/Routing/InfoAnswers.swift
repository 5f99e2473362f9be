import Foundation
import WebImage

/// The answers of `/info` kept and shared: identical info requests in flight wait on one
/// fetch and one read of the source (``SharedWork``), and the answers of the most recent
/// sources are kept in memory, bounded by their bytes, so that replaying one signed info
/// URL costs a lookup, not a decode.
///
/// An answer describes the source's bytes as they were first fetched, as a result does:
/// the source cache and the result cache keep their entries the same way.
struct InfoAnswers: Sendable {
    /// The bytes of JSON kept at most: 4 MiB (some thousands of answers).
    static let memoryLimit = 4 << 20

    private let kept = MemoryCache<String, String>(costLimit: Self.memoryLimit)
    private let work = SharedWork<String, String, ImageServerError>()

    /// The answer (its JSON) for `source`: kept, or made by `make` once for every request
    /// asking now.
    func answer(for source: URL, make: @escaping @Sendable () async throws(ImageServerError) -> String) async throws(ImageServerError) -> String {
        let key = source.absoluteString
        if let answer = kept.value(forKey: key) { return answer }
        let kept = self.kept
        return try await work.run(key) { () throws(ImageServerError) -> String in
            if let answer = kept.value(forKey: key) { return answer }
            let answer = try await make()
            kept.setValue(answer, forKey: key, cost: answer.utf8.count)
            return answer
        }
    }
}
