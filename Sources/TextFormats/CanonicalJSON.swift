import Foundation

/// The canonical text a recovery snapshot's content is hashed over: object
/// keys in sorted order, no spaces, numbers in Swift's shortest round-trip
/// form (`80.0`, `20458`), absent values left out.
///
/// Each table owner writes its own rows with it (see `SnapshotSection`), so
/// a table's snapshot form lives beside its SQL. Bytes are appended in place:
/// a million weigh-ins are one pass.
///
/// - Important: Writers must emit an object's keys in sorted order; the
///   format of every shipped snapshot version depends on it, and the
///   fixtures in `Tests/Fixtures` pin it byte for byte.
public struct CanonicalJSON: Sendable, Equatable {
    public private(set) var bytes: [UInt8] = []

    public init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Punctuation or a key the caller knows needs no escaping: `{"id":`.
    public mutating func raw(_ text: String) {
        appendUTF8(of: text)
    }

    /// Bytes the caller knows need no escaping, made once (a key with its punctuation).
    public mutating func raw(bytes other: [UInt8]) {
        bytes.append(contentsOf: other)
    }

    /// A string's bytes as one copy (a string's `utf8` view appends byte by byte).
    private mutating func appendUTF8(of text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    public mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { appendQuoted($0) }
    }

    /// A string given as the bytes a database column holds, written as `string(_:)` writes the `String`
    /// made from them: bytes that are all ASCII are copied as they are; any other goes through `String`,
    /// which repairs what is not UTF-8, so the text is the same either way.
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        if utf8.allSatisfy({ $0 < 0x80 }) {
            appendQuoted(utf8)
        } else {
            string(String(decoding: utf8, as: UTF8.self))
        }
    }

    /// One punctuation byte (`,` between rows).
    public mutating func raw(byte: UInt8) {
        bytes.append(byte)
    }

    private mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        bytes.append(0x22)
        // Runs that need no escape (nearly every id and note) are copied whole.
        var start = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            escape(byte)
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        bytes.append(0x22)
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x22: bytes += [0x5C, 0x22]
        case 0x5C: bytes += [0x5C, 0x5C]
        case 0x0A: bytes += [0x5C, 0x6E]
        case 0x0D: bytes += [0x5C, 0x72]
        case 0x09: bytes += [0x5C, 0x74]
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }

    public mutating func number(_ value: Double) {
        if !appendShortDecimal(value) { appendUTF8(of: value.description) }
    }

    public mutating func integer(_ value: Int) {
        appendUTF8(of: String(value))
    }

    /// Writes `value.description` digit by digit when `value` is a decimal of
    /// at most two places below 10^13 (whole seconds, weights, percentages:
    /// nearly every number a snapshot holds); false, writing nothing, otherwise.
    ///
    /// Why it is the same text: `n / 10^k`, with `n` a whole number below 2^53,
    /// is the double nearest to that decimal, as parsing it gives. The fewest
    /// places `k` for which it equals `value` give the shortest text that reads
    /// back as `value`, and no other text of that length does (the spacing of
    /// doubles there is below 10^-k): Swift's shortest round-trip form, without
    /// an exponent in that range, and with `.0` on whole numbers.
    private mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        guard magnitude < 1e13 else { return false }
        for places in 0...2 {
            let scale: Double = places == 0 ? 1 : places == 1 ? 10 : 100
            let scaled = (magnitude * scale).rounded()
            guard scaled / scale == magnitude else { continue }
            // Written backwards into 24 bytes (13 digits, a point, two places, a sign), then appended at once.
            var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &text) { buffer in
                var at = buffer.count
                func put(_ byte: UInt8) {
                    at -= 1
                    buffer[at] = byte
                }
                var digits = UInt64(scaled)
                if places == 0 { put(0x30) }
                for _ in 0..<places {
                    put(0x30 + UInt8(digits % 10))
                    digits /= 10
                }
                put(0x2E)
                repeat {
                    put(0x30 + UInt8(digits % 10))
                    digits /= 10
                } while digits > 0
                if value.sign == .minus { put(0x2D) }
                bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
            }
            return true
        }
        return false
    }

    public mutating func bool(_ value: Bool) {
        raw(value ? "true" : "false")
    }

    /// A value of an object's member.
    public enum Value {
        case string(String)
        case number(Double)
        case integer(Int)
        case bool(Bool)
        /// Left out of the object altogether (an absent optional).
        case absent

        public static func optional(_ text: String?) -> Value { text.map(Value.string) ?? .absent }
        public static func optional(_ number: Double?) -> Value { number.map(Value.number) ?? .absent }
    }

    /// An object of these members, keys in sorted order whatever order they
    /// are given in, absent values left out. Keys are the owner's own field
    /// names and are written as they are.
    public mutating func object(_ members: KeyValuePairs<String, Value>) {
        var inOrder = true
        for index in members.indices.dropFirst() where members[index - 1].key >= members[index].key {
            inOrder = false
            break
        }
        if inOrder {
            writeObject(members)
        } else {
            writeObject(members.sorted { $0.key < $1.key })
        }
    }

    /// An object whose members are known only at run time (some written only when present), in sorted order.
    public mutating func object(_ members: [String: Value]) {
        writeObject(members.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
    }

    private mutating func writeObject(_ members: some Sequence<(key: String, value: Value)>) {
        var first = true
        bytes.append(0x7B)
        for (key, value) in members {
            if case .absent = value { continue }
            if !first { bytes.append(0x2C) }
            first = false
            string(key)
            bytes.append(0x3A)
            switch value {
            case .absent: break
            case let .string(text): string(text)
            case let .number(number): self.number(number)
            case let .integer(integer): self.integer(integer)
            case let .bool(flag): bool(flag)
            }
        }
        bytes.append(0x7D)
    }

    /// An array with one element per row, each written by `element`.
    public mutating func array<Row>(_ rows: some Collection<Row>, _ element: (inout CanonicalJSON, Row) -> Void) {
        bytes.append(0x5B)
        for (index, row) in rows.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            element(&self, row)
        }
        bytes.append(0x5D)
    }

    /// Forgets the text written so far, keeping the room it took (a stream's buffer, once handed on).
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends another writer's text as it is.
    public mutating func append(_ other: CanonicalJSON) {
        bytes.append(contentsOf: other.bytes)
    }
}
