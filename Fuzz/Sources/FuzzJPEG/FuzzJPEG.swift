import FuzzSupport

/// libFuzzer's entry point: one input for JPEGCoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    CoderFuzzing.exercise(JPEGCoder(), bytes: bytes, count: count)
    return 0
}
