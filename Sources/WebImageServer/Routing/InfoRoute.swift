import Foundation
import Hummingbird
import WebImage

/// The info route, `/info/<signature>/<source>`: the source's metadata as JSON. The
/// signature covers `/info/<source>`, so that no image URL's signature stands for an info
/// URL's; the source is fetched under the same rules as an image's. Answers are kept and
/// shared by ``InfoAnswers``: replaying an info URL reads the source once.
struct InfoRoute: Sendable {
    let signatures: URLSignatures
    let policy: SourceAddressPolicy
    let fetches: SourceFetches
    let sources: CachedSources
    let memory: MemoryAdmission
    let slots: TransformSlots
    let deadline: RequestDeadline
    /// The seconds a client may keep an answer.
    let maxAge: Int
    /// The answers kept, and those being made.
    let answers = InfoAnswers()

    /// The answer to an info request, whose path starts `/info/`.
    func respond(to request: Request) async throws(ImageServerError) -> Response {
        let parts = request.uri.path.dropFirst("/info/".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw ImageServerError(.badRequest, "the path must be /info/<signature>/<source>")
        }
        let source = try ImageServerRequest.source(from: String(parts[1]))
        try signatures.check(String(parts[0]), signs: "/info/\(parts[1])")
        try policy.checkHost(of: source)
        let (fetches, sources, memory, slots, answers) = (self.fetches, self.sources, self.memory, self.slots, self.answers)
        let limits = sources.limited(ImageDecodeOptions())
        // Each request waits on its own deadline; the work is shared by every request for
        // the source, and cancelled only when all of them have left.
        let json = try await deadline.run { () throws(ImageServerError) -> String in
            try await answers.answer(for: source) { () throws(ImageServerError) -> String in
                try await fetches.fetch(source)
                return try await slots.withSlot { () throws(ImageServerError) -> String in
                    let (data, header) = try await sources.header(of: source, options: limits)
                    // The reduced decode may still read the whole picture (a PNG's rows).
                    return try await memory.holding(header.decodeBytes) { () throws(ImageServerError) -> String in
                        let coders = sources.coders
                        if sources.workers.reads(data, coders: coders) {
                            return try await sources.workers.info(of: data, options: limits, plannedBytes: header.decodeBytes)
                        }
                        do throws(ImageError) {
                            return try await DecodingWorkers.run { () throws(ImageError) -> String in
                                try ImageInfoResponse(data: data, coders: coders, options: limits).json
                            }
                        } catch {
                            throw ImageServerError(source: error)
                        }
                    }
                }
            }
        }
        var response = Response.text(json, contentType: "application/json")
        response.headers[.cacheControl] = "public, max-age=\(maxAge)"
        if request.method == .head { response.body = ResponseBody() }
        return response
    }
}
