import Foundation
import Storage

/// One change to one row, as a segment line carries it: the table, the row's
/// key, the clock, and what became of the row.
public struct SyncChange: Sendable, Equatable {
    /// What became of the row.
    public enum Operation: Sendable, Equatable {
        /// The row's whole new image, by column.
        case set([String: SQLValue])
        /// A tombstone: the row was deleted.
        case delete
        /// `amount` added to the table's additive column; `image` is the row as it stood then, for a device that lacks it.
        case add(Double, [String: SQLValue])
    }

    public let table: String
    public let key: [SQLValue]
    public let clock: SyncClock
    public let operation: Operation

    public init(table: String, key: [SQLValue], clock: SyncClock, operation: Operation) {
        self.table = table
        self.key = key
        self.clock = clock
        self.operation = operation
    }

    /// The change as one line of flat JSON (FlatJSON reads it back): key `k0`/`k1`,
    /// clock `ms`/`n`/`o`, `op`, the image's columns as `c.<column>`, `amount`.
    func line() -> String {
        var out = CanonicalJSON()
        out.raw("{\"t\":")
        out.string(table)
        for (index, value) in key.enumerated() {
            out.raw(",\"k\(index)\":")
            Self.write(value, to: &out)
        }
        out.raw(",\"ms\":\(clock.ms),\"n\":\(clock.counter),\"o\":")
        out.string(clock.origin)
        switch operation {
        case let .set(image):
            out.raw(",\"op\":\"set\"")
            Self.write(image, to: &out)
        case .delete:
            out.raw(",\"op\":\"del\"")
        case let .add(amount, image):
            out.raw(",\"op\":\"add\",\"amount\":")
            Self.write(.double(amount), to: &out)
            Self.write(image, to: &out)
        }
        out.raw("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func write(_ image: [String: SQLValue], to out: inout CanonicalJSON) {
        for column in image.keys.sorted() {
            out.raw(",")
            out.string("c." + column)
            out.raw(":")
            write(image[column] ?? .null, to: &out)
        }
    }

    static func write(_ value: SQLValue, to out: inout CanonicalJSON) {
        switch value {
        case .null, .doubles: out.raw("null")
        case let .int(number): out.raw(String(number))
        case let .double(number): out.raw(number.isFinite ? String(number) : "null")
        case let .text(text): out.string(text)
        }
    }

    /// A line read back; nil when it is not a change (a member of the wrong type, a missing clock, an unknown op).
    static func parse(_ line: some Collection<UInt8>) -> SyncChange? {
        var fields = Fields()
        func read(_ bytes: UnsafeRawBufferPointer) -> Bool { FlatJSON.object(bytes) { name, value in fields.take(name, value) } }
        // A segment's line is a slice of the file's bytes: read in place, not copied first.
        let parsed = line.withContiguousStorageIfAvailable { read(UnsafeRawBufferPointer($0)) } ?? Array(line).withUnsafeBytes(read)
        return parsed ? fields.change() : nil
    }

    /// The members of one line as they are read.
    struct Fields {
        var table: String?, k0: SQLValue?, k1: SQLValue?, ms: Int?, counter: Int?, origin: String?, op: String?
        var amount: Double?
        var image: [String: SQLValue] = [:]

        mutating func take(_ name: String, _ value: FlatJSON.Value) -> Bool {
            switch (name, value) {
            case let ("t", .string(text)): table = text
            case ("k0", _): k0 = Self.sql(value)
            case ("k1", _): k1 = Self.sql(value)
            case let ("ms", .number(number)): ms = Self.integer(number)
            case let ("n", .number(number)): counter = Self.integer(number)
            case let ("o", .string(text)): origin = text
            case let ("op", .string(text)): op = text
            case let ("amount", .number(number)): amount = number
            default:
                guard name.hasPrefix("c."), let sql = Self.sql(value) else { return false }
                image[String(name.dropFirst(2))] = sql
            }
            return true
        }

        func change() -> SyncChange? {
            guard let table, let k0, k0 != .null, let ms, let counter, counter >= 0, let origin, let op else { return nil }
            let key = k1.map { [k0, $0] } ?? [k0]
            let clock = SyncClock(ms: ms, counter: counter, origin: origin)
            switch op {
            case "set": return SyncChange(table: table, key: key, clock: clock, operation: .set(image))
            case "del": return image.isEmpty ? SyncChange(table: table, key: key, clock: clock, operation: .delete) : nil
            case "add":
                guard let amount, amount.isFinite else { return nil }
                return SyncChange(table: table, key: key, clock: clock, operation: .add(amount, image))
            default: return nil
            }
        }

        static func integer(_ number: Double) -> Int? {
            number.rounded() == number && abs(number) < 9e15 ? Int(number) : nil
        }

        static func sql(_ value: FlatJSON.Value) -> SQLValue? {
            switch value {
            case let .string(text): .text(text)
            case let .number(number): integer(number).map(SQLValue.int) ?? .double(number)
            case .null: .null
            case .bool: nil
            }
        }
    }
}
