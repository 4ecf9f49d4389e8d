/// Turns byte offsets into 1-based line and column numbers, moving forward through a document.
///
/// Offsets arrive in increasing order while parsing, so the cursor only ever scans each byte once;
/// an earlier offset restarts it from the top.
struct LineCursor {
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    mutating func position(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        if target < offset { self = LineCursor() }
        let end = min(target, bytes.count)
        while offset < end {
            if bytes[offset] == UInt8(ascii: "\n") {
                line += 1
                lineStart = offset + 1
            }
            offset += 1
        }
        return (line, end - lineStart + 1)
    }
}
