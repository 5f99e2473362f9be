import FuzzSupport

/// libFuzzer's entry point: one input for WebPCoder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    CoderFuzzing.exercise(WebPCoder(), bytes: bytes, count: count)
    return 0
}
