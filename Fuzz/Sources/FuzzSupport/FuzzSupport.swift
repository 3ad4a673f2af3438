#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver (linked in by `-sanitize=fuzzer`): parses libFuzzer's command line and calls `callback`
/// with each input. SwiftPM gives every executable a Swift `main`, so the targets start the driver themselves
/// instead of using libFuzzer's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The test of the running fuzz target. Set once, before the driver starts, and only read after.
nonisolated(unsafe) private var currentTest: ([UInt8]) -> Void = { _ in }

/// Runs libFuzzer with `test` as the target: `test` gets each input's bytes, and a crash in it (a trap, a failed
/// precondition, an AddressSanitizer report) is what the fuzzer looks for. Never returns.
public func fuzz(_ test: @escaping ([UInt8]) -> Void) -> Never {
    currentTest = test
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(runDriver(&argc, &argv) { start, count in
        currentTest(start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [])
        return 0
    })
}
