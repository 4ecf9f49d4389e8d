import CZlib

/// Raw DEFLATE (RFC 1951, no zlib or gzip header): how Core Data compresses the model a store
/// carries (`Z_MODELCACHE.Z_CONTENT`).
enum RawDeflate {
    /// Why a stream did not inflate.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The bytes `compressed` inflates to; a stream that is damaged, cut short, or followed by
    /// other bytes is a `Failure`. Output stops at `limit` bytes, so a hostile stream cannot take
    /// all memory.
    static func inflate(_ compressed: [UInt8], limit: Int = 256 << 20) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(description: "zlib could not start inflating")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = compressed
        let status: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            var status = Z_OK
            while status == Z_OK {
                status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output += chunk[0..<produced]
                if output.count > limit { return Z_MEM_ERROR }
                // Output space was given: a buffer error with input left and nothing produced is no progress.
                if status == Z_BUF_ERROR && stream.avail_in > 0 && produced > 0 { status = Z_OK }
            }
            return status
        }
        guard status == Z_STREAM_END else {
            throw Failure(description: status == Z_MEM_ERROR ? "the stream inflates past \(limit) bytes" : "the stream is damaged or cut short (zlib \(status))")
        }
        guard stream.avail_in == 0 else { throw Failure(description: "\(stream.avail_in) bytes follow the end of the stream") }
        return output
    }
}
