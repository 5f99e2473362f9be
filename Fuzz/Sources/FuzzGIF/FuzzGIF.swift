import FuzzSupport

/// libFuzzer's entry point: one input for GIFCoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    CoderFuzzing.exercise(GIFCoder(), bytes: bytes, count: count)
    return 0
}
