#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns byte offsets into 1-based line and column numbers, moving forward through a document.
///
/// Offsets arrive in increasing order while parsing, so the cursor only ever scans each byte once
/// (with `memchr`, line to line); an earlier offset restarts it from the top.
struct LineCursor {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    mutating func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        if target < offset { self = LineCursor() }
        let end = min(target, bytes.count)
        guard let base = bytes.baseAddress else { return (line, 1) }
        while offset < end {
            guard let newline = memchr(base + offset, Int32(UInt8(ascii: "\n")), end - offset) else {
                offset = end
                break
            }
            let index = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
            line += 1
            lineStart = index + 1
            offset = index + 1
        }
        return (line, end - lineStart + 1)
    }
}
