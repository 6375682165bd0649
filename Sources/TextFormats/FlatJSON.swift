import Foundation

/// Reads JSON arrays of flat objects — members of strings, numbers, `null`
/// and booleans, nothing nested — for the rows Trend reads by the million (a
/// JSON export's entries, a snapshot's weigh-ins), several times quicker than
/// `JSONDecoder`. Anything else — a nested value, a malformed string or number,
/// a member its reader refuses — gives nil, and the caller hands the same
/// bytes to `JSONDecoder`, which decides what they are.
public enum FlatJSON {
    /// A member's value.
    public enum Value: Equatable {
        case string(String), number(Double), bool(Bool), null
    }

    /// The objects of `bytes`: an array (`[{…},{…}]`), or its elements without
    /// the brackets. Each object starts as `make()` and takes each member
    /// through `set`, which returns false to refuse it (a value of the wrong type).
    public static func objects<Object>(_ bytes: UnsafeRawBufferPointer, make: () -> Object,
                                       set: (inout Object, String, Value) -> Bool) -> [Object]? {
        var cursor = Cursor(bytes: bytes)
        var objects: [Object] = []
        cursor.skipSpace()
        let bracketed = cursor.take(0x5B)
        cursor.skipSpace()
        if bracketed, cursor.take(0x5D) {
            cursor.skipSpace()
            return cursor.atEnd ? [] : nil
        }
        while !cursor.atEnd {
            guard let object = cursor.object(make, set) else { return nil }
            objects.append(object)
            cursor.skipSpace()
            if bracketed, cursor.take(0x5D) {
                cursor.skipSpace()
                return cursor.atEnd ? objects : nil
            }
            if cursor.atEnd { break }
            guard cursor.take(0x2C) else { return nil }
            cursor.skipSpace()
            if cursor.atEnd { return nil }  // A trailing comma.
        }
        return bracketed ? nil : objects  // An array must close.
    }

    /// One object alone (`{…}`, or `[{…}]`, space around it allowed), each member handed to `set`, which
    /// returns false to refuse it; false when `bytes` is not one flat object or a member is refused. What
    /// `objects` gives for one object, without being generic: a caller reading a line at a time (sync's
    /// change lines, a hundred thousand of them) pays no generic dispatch per line.
    public static func object(_ bytes: UnsafeRawBufferPointer, set: (String, Value) -> Bool) -> Bool {
        var cursor = Cursor(bytes: bytes)
        cursor.skipSpace()
        let bracketed = cursor.take(0x5B)
        cursor.skipSpace()
        guard cursor.object({ () }, { _, key, value in set(key, value) }) != nil else { return false }
        cursor.skipSpace()
        if bracketed {
            guard cursor.take(0x5D) else { return false }
            cursor.skipSpace()
        }
        return cursor.atEnd
    }

    /// A reader of one flat object whose members come in an order the caller knows (a sync change line as
    /// Trend writes it, a hundred thousand of them): it takes each member's name and punctuation as the
    /// exact bytes expected, so no name becomes a `String`, and it hands a string value's bytes to the
    /// caller, who may already hold that text. Values read as `objects` reads them; a caller that finds
    /// anything other than what it expects reads the bytes again with `object`.
    public struct Scanner {
        private var cursor: Cursor

        public init(_ bytes: UnsafeRawBufferPointer) { cursor = Cursor(bytes: bytes) }

        /// Takes exactly `text` (a member's quoted name with its colon, a brace, a comma); takes nothing when the bytes differ.
        public mutating func take(_ text: StaticString) -> Bool { cursor.literal(text) }

        /// The next byte, not taken.
        public var next: UInt8? { cursor.atEnd ? nil : cursor.bytes[cursor.index] }

        public var atEnd: Bool { cursor.atEnd }

        /// A value (a string, a number, `null`, `true` or `false`); nil when none is there.
        public mutating func value() -> Value? { cursor.value() }

        /// A string value: `known` itself when its bytes are known's (no escape in them), else the string read.
        public mutating func string(reusing known: String) -> String? {
            guard next == 0x22 else { return nil }
            let start = cursor.index + 1
            var end = start
            let bytes = cursor.bytes
            while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C { end += 1 }
            if end < bytes.count, bytes[end] == 0x22, Self.same(known, UnsafeRawBufferPointer(rebasing: bytes[start..<end])) {
                cursor.index = end + 1
                return known
            }
            return cursor.string()
        }

        /// Whether `text` is these bytes (compared as two buffers, lengths first: a UTF-8 view compared a byte at a
        /// time took most of a line's time, and the buffers a byte at a time a tenth of it).
        private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
            guard text.utf8.count == bytes.count else { return false }
            guard let other = bytes.baseAddress else { return true }
            var text = text
            return text.withUTF8 { utf8 in utf8.baseAddress.map { memcmp($0, other, bytes.count) == 0 } ?? false }
        }

        /// A member name's text after `prefix` (`c.` of `"c.kilograms"`), with its closing quote and colon taken:
        /// `known` when the name is known's; nil, taking nothing, when the name is escaped or the member is not there.
        public mutating func name(after prefix: StaticString, reusing known: String?) -> String? {
            let bytes = cursor.bytes, count = prefix.utf8CodeUnitCount
            var start = cursor.index
            guard start < bytes.count, bytes[start] == 0x22, start + 1 + count <= bytes.count else { return nil }
            for offset in 0..<count where bytes[start + 1 + offset] != prefix.utf8Start[offset] { return nil }
            start += 1 + count
            var end = start
            while end < bytes.count, bytes[end] != 0x22, bytes[end] != 0x5C, bytes[end] >= 0x20 { end += 1 }
            guard end + 1 < bytes.count, bytes[end] == 0x22, bytes[end + 1] == 0x3A else { return nil }
            let run = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            let name: String
            if let known, Self.same(known, run) {
                name = known
            } else {
                guard let read = run.allSatisfy({ $0 < 0x80 }) ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
                else { return nil }
                name = read
            }
            cursor.index = end + 2
            return name
        }
    }

    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        var atEnd: Bool { index >= bytes.count }

        mutating func skipSpace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// One object, each member handed to `set`; nil when it is not a flat object or `set` refuses a member.
        mutating func object<Object>(_ make: () -> Object, _ set: (inout Object, String, Value) -> Bool) -> Object? {
            guard take(0x7B) else { return nil }
            var object = make()
            skipSpace()
            if take(0x7D) { return object }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }
                skipSpace()
                guard let value = value(), set(&object, key, value) else { return nil }
                skipSpace()
                if take(0x7D) { return object }
                guard take(0x2C) else { return nil }
            }
        }

        fileprivate mutating func value() -> Value? {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case 0x22: return string().map(Value.string)
            case 0x6E: return literal("null") ? .null : nil
            case 0x74: return literal("true") ? .bool(true) : nil
            case 0x66: return literal("false") ? .bool(false) : nil
            case 0x2D, 0x30...0x39: return number().map(Value.number)
            default: return nil  // A nested object or array: not this shape.
            }
        }

        fileprivate mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        private mutating func number() -> Double? {
            let start = index
            let negative = take(0x2D)
            let integer = index
            let count = digits()
            guard count > 0, count == 1 || bytes[integer] != 0x30 else { return nil }
            var fraction = 0
            if take(0x2E) {
                fraction = digits()
                if fraction == 0 { return nil }
            }
            if take(0x65) || take(0x45) {
                if !take(0x2B) { _ = take(0x2D) }
                guard digits() > 0 else { return nil }
            } else if count + fraction <= 15 {
                // Fifteen digits or fewer, no exponent (a clock, an instant, a weight): the digits as an integer are
                // exact in a Double, and so is a power of ten up to 10^22, so one division rounds correctly.
                var significand = 0
                for place in integer..<index where bytes[place] != 0x2E { significand = significand * 10 + Int(bytes[place] - 0x30) }
                let value = fraction == 0 ? Double(significand) : Double(significand) / Self.powersOfTen[fraction]
                return negative ? -value : value
            }
            return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        private static let powersOfTen: [Double] = (0...15).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

        private mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index - start
        }

        /// A JSON string, escapes decoded; nil for a control character, a bad escape or invalid UTF-8.
        fileprivate mutating func string() -> String? {
            guard take(0x22) else { return nil }
            let start = index
            // The common case: no escape, read in place.
            while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x5C, bytes[index] >= 0x20 { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == 0x22 {
                defer { index += 1 }
                let run = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                // ASCII needs no validating (the generic validation asks the runtime for metadata each time).
                return run.allSatisfy { $0 < 0x80 } ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
            }
            guard bytes[index] == 0x5C else { return nil }
            var text = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x22: return String(validating: text, as: UTF8.self)
                case 0..<0x20: return nil
                case 0x5C:
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x22, 0x5C, 0x2F: text.append(escape)
                    case 0x62: text.append(0x08)
                    case 0x66: text.append(0x0C)
                    case 0x6E: text.append(0x0A)
                    case 0x72: text.append(0x0D)
                    case 0x74: text.append(0x09)
                    case 0x75:
                        guard let scalar = unicodeEscape() else { return nil }
                        text += Array(String(Character(scalar)).utf8)
                    default: return nil
                    }
                default: text.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `XXXX` after `\u` (a surrogate pair takes the `\uXXXX` after it too).
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(high) {
                guard take(0x5C), take(0x75), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        private mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: return nil
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
