/// An object's attribute values by slot, with an array's value semantics: a copy shares the
/// values, and the first write to a shared copy copies them.
///
/// The values live in a buffer that may hold many rows: a fetch writes its rows one after another
/// into shared buffers (`AttributeValues.Writer`), and each object's values are its row there until
/// the object first changes one. So a fetch allocates once per many rows, not once per object, as
/// Core Data's row cache does.
///
/// Sendable as `Array` is: a buffer is written in place only through its one reference, and a
/// writer appends only past the rows it handed out.
struct AttributeValues: @unchecked Sendable {
    /// `nil` without slots, so that the values of a fault cost no reference counting.
    private var buffer: Buffer?
    private var start: Int32
    private var slots: Int32

    /// No values: the state of a fault.
    init() {
        buffer = nil
        start = 0
        slots = 0
    }

    /// A buffer of its own holding `values`.
    init(_ values: [AttributeValue]) {
        self.init(count: values.count) { values[$0] }
    }

    /// A buffer of its own holding `value(slot)` for each of `count` slots.
    init(count: Int, _ value: (Int) -> AttributeValue) {
        var writer = Writer(valuesPerBuffer: count)
        self = writer.row(count: count, value)
    }

    /// The `count` values from `start` in `buffer` (none without a buffer).
    init(buffer: Buffer?, start: Int, count: Int) {
        self.buffer = buffer
        self.start = buffer == nil ? 0 : Int32(start)
        slots = buffer == nil ? 0 : Int32(count)
    }

    /// The buffer holding the values, and where they start in it: what an object keeps.
    var parts: (buffer: Buffer?, start: Int) { (buffer, Int(start)) }

    /// The number of slots.
    var count: Int { Int(slots) }
    var isEmpty: Bool { slots == 0 }
    var indices: Range<Int> { 0..<count }

    /// Calls `body` with the values, which stay valid during the call.
    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<AttributeValue>) throws -> Result) rethrows -> Result {
        guard let buffer else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try buffer.withUnsafeMutablePointerToElements {
            try body(UnsafeBufferPointer(start: $0 + Int(start), count: count))
        }
    }

    /// Calls `body` with the values to change in place, in a buffer of their own first if shared.
    mutating func withUnsafeMutableBufferPointer<Result>(_ body: (UnsafeMutableBufferPointer<AttributeValue>) throws -> Result) rethrows -> Result {
        guard buffer != nil else { return try body(UnsafeMutableBufferPointer(start: nil, count: 0)) }
        makeUnique()
        return try buffer.unsafelyUnwrapped.withUnsafeMutablePointerToElements {
            try body(UnsafeMutableBufferPointer(start: $0 + Int(start), count: count))
        }
    }

    subscript(slot: Int) -> AttributeValue {
        get {
            precondition(slot >= 0 && slot < count, "slot out of range")
            return buffer.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[Int(start) + slot] }
        }
        set {
            precondition(slot >= 0 && slot < count, "slot out of range")
            makeUnique()
            buffer.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[Int(start) + slot] = newValue }
        }
    }

    /// Calls `body` with the values to change in place, in the buffer they share: only for a row
    /// just written, which nothing else reads yet.
    fileprivate func withUnsafeSlotsInPlace(_ body: (UnsafeMutableBufferPointer<AttributeValue>) -> Void) {
        guard let buffer else { return }
        buffer.withUnsafeMutablePointerToElements { body(UnsafeMutableBufferPointer(start: $0 + Int(start), count: count)) }
    }

    /// Copies the values into a buffer of their own when the buffer is shared.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&buffer) {
            let shared = self
            self = AttributeValues(count: count) { shared[$0] }
        }
    }

    /// Writes rows of values one after another into shared buffers, starting a new buffer when one
    /// is full. An object keeps its row's buffer alive, so a buffer holds a bounded number of values.
    struct Writer {
        private let valuesPerBuffer: Int
        private var buffer: Buffer?

        init(valuesPerBuffer: Int) {
            self.valuesPerBuffer = valuesPerBuffer
        }

        /// A row of `count` slots holding `value(slot)` each.
        mutating func row(count: Int, _ value: (Int) -> AttributeValue) -> AttributeValues {
            guard count > 0 else { return AttributeValues() }
            if buffer?.free ?? 0 < count { buffer = Buffer.create(capacity: max(count, valuesPerBuffer)) }
            let buffer = buffer.unsafelyUnwrapped
            let start = buffer.withUnsafeMutablePointers { header, elements in
                let start = header.pointee.used
                for slot in 0..<count {
                    (elements + start + slot).initialize(to: value(slot))
                    // Counted one by one: the buffer must know what to free if `value` traps.
                    header.pointee.used += 1
                }
                return start
            }
            return AttributeValues(buffer: buffer, start: start, count: count)
        }

        /// A row of `count` slots, null until `fill` writes them in place.
        mutating func row(count: Int, filling fill: (UnsafeMutableBufferPointer<AttributeValue>) -> Void) -> AttributeValues {
            let row = row(count: count) { _ in .null }
            // The writer's buffer is shared with the rows before; these slots are this row's alone.
            row.withUnsafeSlotsInPlace(fill)
            return row
        }
    }

    /// Values of one or more rows, written from the start.
    final class Buffer: ManagedBuffer<Buffer.Header, AttributeValue> {
        struct Header {
            /// The number of values written.
            var used: Int
            let capacity: Int
        }

        /// The number of values that can still be written.
        var free: Int {
            withUnsafeMutablePointerToHeader { $0.pointee.capacity - $0.pointee.used }
        }

        static func create(capacity: Int) -> Buffer {
            let buffer = create(minimumCapacity: capacity) { _ in Header(used: 0, capacity: capacity) }
            return unsafeDowncast(buffer, to: Buffer.self)
        }

        deinit {
            // One value at a time, each moved out and dropped: the compiler destroys a value of
            // known type inline, where `deinitialize(count:)` asks the runtime for each one.
            withUnsafeMutablePointers { header, elements in
                for index in 0..<header.pointee.used { _ = (elements + index).move() }
            }
        }
    }
}
