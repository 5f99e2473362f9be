import Foundation
import Synchronization
import Testing
import WebImageCoders
import WebImageCore
import WebImageTestSupport

/// Every animated encoder reads `ImageEncodeOptions.cancellation` between frames: raised
/// during an encode, the encode stops at the next frame; raised by a cancelled task, it
/// starts none.
struct AnimatedEncodeCancellationTests {
    /// The formats the built-in coders write animations in, in this build.
    static let formats: [ImageFormat] = [.gif, .png, .webp, .avif, .jxl, .tiff].filter {
        ImageCodersManager.shared.canEncode(to: $0)
    }

    /// Four frames of 24×16, each a colour of its own.
    static let animation = Image(
        frames: (0..<4).map { index in
            ImageFrame(bitmap: Bitmap.solid(24, 16, RGBA8(red: UInt8(60 * index), green: 120, blue: 200)), duration: 0.1)
        },
        loopCount: 0)

    @Test(arguments: formats)
    func anEncodeStopsAtTheFrameAfterItsCancellation(_ format: ImageFormat) throws {
        // Raised from the second reading on: the first frame is written, the second is not,
        // and nothing is read after the stop.
        let readings = Readings()
        var options = ImageEncodeOptions()
        options.cancellation = ImageWorkCancellation { readings.next() >= 2 }
        let error = #expect(throws: ImageError.self) {
            try ImageCodersManager.shared.encode(Self.animation, as: format, options: options)
        }
        #expect(error?.code == .cancelled)
        #expect(readings.count == 2, "one reading a frame, and none after the stop")
    }

    @Test(arguments: formats)
    func aCancelledTaskStartsNoFrame(_ format: ImageFormat) async throws {
        let task = Task { () -> Result<Data, ImageError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await ImageWorkCancellation.following { cancellation -> Result<Data, ImageError> in
                var options = ImageEncodeOptions()
                options.cancellation = cancellation
                do throws(ImageError) {
                    return .success(try ImageCodersManager.shared.encode(Self.animation, as: format, options: options))
                } catch {
                    return .failure(error)
                }
            }
        }
        guard case .failure(let error) = await task.value else {
            Issue.record("the encode of a cancelled task ran")
            return
        }
        #expect(error.code == .cancelled)
    }

    @Test(arguments: formats)
    func anEncodeNotCancelledWritesEveryFrame(_ format: ImageFormat) throws {
        var options = ImageEncodeOptions()
        options.cancellation = ImageWorkCancellation()
        let data = try ImageCodersManager.shared.encode(Self.animation, as: format, options: options)
        #expect(try ImageCodersManager.shared.decode(data).frames.count == 4)
    }

    @Test func aSizeLimitedEncodeStopsBetweenItsTries() throws {
        let readings = Readings()
        var options = ImageEncodeOptions(maxFileSize: 200)
        options.cancellation = ImageWorkCancellation { readings.next() >= 2 }
        let image = Image(bitmap: Bitmap.solid(64, 64, RGBA8(red: 10, green: 20, blue: 30)))
        let error = #expect(throws: ImageError.self) {
            try ImageCodersManager.shared.encode(image, as: .jpeg, options: options)
        }
        #expect(error?.code == .cancelled)
        #expect(readings.count == 2)
    }

    /// Counts the readings of a cancellation's condition.
    final class Readings: Sendable {
        private let counted = Atomic(0)

        /// The readings so far.
        var count: Int { counted.load(ordering: .relaxed) }

        /// Counts one more reading, and returns the count.
        func next() -> Int {
            counted.add(1, ordering: .relaxed).newValue
        }
    }
}
