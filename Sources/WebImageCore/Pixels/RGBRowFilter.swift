/// One operation of a conversion that streams a picture from its decoder to its encoder:
/// it takes rows of opaque 8-bit RGB pixels (three bytes a pixel, rows back to back) from
/// the top down, and passes on rows of the same width as soon as it has finished them,
/// holding at most the window of rows its kernel reaches.
///
/// A filter is made for one picture (its size is known beforehand) and used from one
/// thread at a time.
package protocol RGBRowFilter: AnyObject {
    /// Takes the next `count` rows of `rows`, passing every row it can finish to `emit`
    /// (which may be called any number of times, with the rows in order).
    func consume(
        _ rows: UnsafeRawBufferPointer, count: Int,
        emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void
    ) throws(ImageError)

    /// Every row was given: passes on the rows still held.
    ///
    /// - Throws: `ImageError.Code.badImageData` when fewer rows came than the picture has.
    func finish(emit: (_ rows: UnsafeRawBufferPointer, _ count: Int) throws(ImageError) -> Void) throws(ImageError)
}
