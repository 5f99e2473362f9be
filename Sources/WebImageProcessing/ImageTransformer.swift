import WebImageCore

/// Changes an image after it is decoded and before it is cached: resizing, cropping, or
/// any effect of your own.
///
/// The manager runs the transformer off the caller's thread and caches the result under
/// the original cache key combined with ``key``, so a transformed image and its original
/// never stand in for each other.
public protocol ImageTransformer: Sendable {
    /// Identifies the transformation and its parameters (for example `"resize-200x200"`);
    /// it becomes part of the cache key.
    var key: String { get }

    /// The transformed image, or `nil` to keep the image as it was.
    func transform(_ image: Image) -> Image?
}

extension ImageTransformer {
    /// `key` with this transformer's ``key`` inserted before the path extension, as
    /// SDWebImage names transformed entries: `https://x/a.png` → `https://x/a-resize-200x200.png`.
    /// A key without an extension, or ending with a dot, gets `-` and the transformer's key
    /// appended: `a.` → `a.-resize-200x200`.
    public func transformedKey(for key: String) -> String {
        let queryStart = key.firstIndex { $0 == "?" || $0 == "#" } ?? key.endIndex
        let path = key[..<queryStart]
        let lastComponentStart = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        guard let dot = path[lastComponentStart...].lastIndex(of: "."), dot > lastComponentStart,
            path.index(after: dot) < path.endIndex
        else {
            return "\(path)-\(self.key)\(key[queryStart...])"
        }
        return "\(path[..<dot])-\(self.key)\(path[dot...])\(key[queryStart...])"
    }
}
