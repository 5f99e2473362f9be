import FuzzSupport

/// libFuzzer's entry point: one input for PNGCoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    CoderFuzzing.exercise(PNGCoder(), bytes: bytes, count: count)
    return 0
}
