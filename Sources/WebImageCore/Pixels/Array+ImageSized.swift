extension Array {
    /// An image-sized array: `value` repeated for the product of `factors` (a width, a
    /// height, the bytes of a pixel…) elements.
    ///
    /// A Swift array the allocator cannot back traps the whole process, so pixels and
    /// per-image scratch on a request's path are asked for here: the size is checked
    /// first, with the rule ``FloatPixelMemory`` follows, and a size no memory can hold
    /// throws ``ImageError/Code/imageTooLarge`` before anything is allocated (see
    /// ``imageSizedCount(_:)``).
    package init(repeating value: Element, imageSized factors: Int...) throws(ImageError) {
        self.init(repeating: value, count: try Self.imageSizedCount(factors))
    }

    /// An image-sized array of the product of `factors` elements, filled by `body` as
    /// `init(unsafeUninitializedCapacity:initializingWith:)` fills one, after the same
    /// check as ``init(repeating:imageSized:)``.
    ///
    /// An error `body` throws is rethrown once the array's initialised elements are
    /// released.
    package init(
        unsafeUninitializedImageSized factors: Int...,
        initializingWith body: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws(ImageError) -> Void
    ) throws(ImageError) {
        let count = try Self.imageSizedCount(factors)
        var failure: ImageError?
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(ImageError) {
                try body(&buffer, &initialized)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The product of `factors`, the element count of an image-sized array, checked:
    /// throws ``ImageError/Code/imageTooLarge`` when a factor is negative, the product or
    /// its bytes overflow, or the bytes pass ``FloatPixelMemory/largestBuffer`` (the
    /// machine's physical memory; Linux would overcommit such a request and a sanitizer's
    /// allocator aborts on it).
    package static func imageSizedCount(_ factors: [Int]) throws(ImageError) -> Int {
        var count = 1
        var overflow = false
        for factor in factors {
            guard factor >= 0 else { throw ImageError(.imageTooLarge, "a negative image size (\(factors))") }
            (count, overflow) = count.multipliedReportingOverflow(by: factor)
            if overflow { break }
        }
        let (bytes, bytesOverflow) = count.multipliedReportingOverflow(by: MemoryLayout<Element>.stride)
        guard !overflow, !bytesOverflow, bytes <= FloatPixelMemory.largestBuffer else {
            let size = factors.map(String.init).joined(separator: " × ")
            throw ImageError(.imageTooLarge, "\(size) image values would take more than the machine's memory")
        }
        return count
    }
}
