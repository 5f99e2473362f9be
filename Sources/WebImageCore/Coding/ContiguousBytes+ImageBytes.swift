import Foundation

extension ContiguousBytes {
    /// Runs `body` over these bytes and keeps `body`'s typed error, which
    /// `withUnsafeBytes` (a `rethrows` method) would widen to `any Error`: the coders read
    /// their input through it.
    package func withImageBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(ImageError) -> Result
    ) throws(ImageError) -> Result {
        let outcome = withUnsafeBytes { bytes in
            Swift.Result { () throws(ImageError) in try body(bytes) }
        }
        return try outcome.get()
    }
}
