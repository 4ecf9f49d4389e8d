import DataModel
import DataModelParser

/// One fuzz input: parse it as a model's `contents`, then validate and dump whatever parsed.
/// Any crash, trap or sanitizer report is a bug; thrown `ModelLoadingError`s are the expected outcome.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let parsed = try? ModelParser.parse(bytes, path: "fuzz/contents") else { return 0 }
    let diagnostics = ModelValidator().validate(parsed.model)
    precondition(diagnostics.allSatisfy { $0.location.file == "fuzz/contents" })
    _ = try? ModelJSON.data(from: parsed.model)
    _ = ModelSummary.text(of: parsed.model)
    return 0
}

// SwiftPM links an executable target's entry point as `<Target>_main`; hand control to libFuzzer's
// driver from there, which then calls `LLVMFuzzerTestOneInput` for every input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

@_cdecl("ParserFuzzer_main")
public func fuzzerMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
