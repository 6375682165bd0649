import Foundation
import Storage
import TextFormats

/// One change to one row, as a segment line carries it: the table, the row's
/// key, the clock, and what became of the row: the row as its writer held it,
/// each column with its own clock (cr-sqlite's per-column versions), so
/// edits of different columns made on two devices both survive the merge.
public struct SyncChange: Sendable, Equatable {
    /// What became of the row.
    public enum Operation: Sendable, Equatable {
        /// The row's whole image, by column: the columns this change set carry its clock, the others theirs (`older`).
        case set(RowImage)
        /// A tombstone, with the row as it stood when deleted (empty when unknown), each column at its clock in `older`.
        case delete(RowImage)
        /// `amount` added to the table's additive column; `image` is the row as it stood then, its other columns
        /// versions as a set's are.
        case add(Double, RowImage)
    }

    public let table: String
    public let key: [SQLValue]
    public let clock: SyncClock
    public let operation: Operation
    /// The clocks of the image's columns that this change did not set (older than `clock`), and the row's
    /// tombstone older than it (under `ColumnClocks.tombstone`); empty for a change that set every column.
    let older: ColumnClocks

    public init(table: String, key: [SQLValue], clock: SyncClock, operation: Operation) {
        self.init(table: table, key: key, clock: clock, operation: operation, older: ColumnClocks())
    }

    init(table: String, key: [SQLValue], clock: SyncClock, operation: Operation, older: ColumnClocks) {
        self.table = table
        self.key = key
        self.clock = clock
        self.operation = operation
        self.older = older
    }

    /// The image the change carries: a set's or an addition's row, a tombstone's last image.
    var image: RowImage {
        switch operation {
        case let .set(image), let .delete(image), let .add(_, image): image
        }
    }

    /// Whether the change is a tombstone.
    var isDelete: Bool {
        if case .delete = operation { true } else { false }
    }

    /// The clock of one of the image's columns, as the change carries it.
    func clock(of column: String) -> SyncClock {
        older[column] ?? clock
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
        case let .delete(image):
            out.raw(",\"op\":\"del\"")
            Self.write(image, to: &out)
        case let .add(amount, image):
            out.raw(",\"op\":\"add\",\"amount\":")
            Self.write(.double(amount), to: &out)
            Self.write(image, to: &out)
        }
        if !older.isEmpty {
            out.raw(",\"v\":")
            out.string(older.text)
        }
        out.raw("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// An image's columns, by name (as `canonical` reads them fastest).
    private static func write(_ image: RowImage, to out: inout CanonicalJSON) {
        let columns = image.columns
        for place in columns.indices.sorted(by: { columns[$0] < columns[$1] }) {
            out.raw(",")
            out.string("c." + columns[place])
            out.raw(":")
            write(image.values[place], to: &out)
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
        var seen = Seen()
        return parse(line, seen: &seen)
    }

    /// A line read back, taking the texts it shares with the lines read before it (`seen`) from them.
    static func parse(_ line: some Collection<UInt8>, seen: inout Seen) -> SyncChange? {
        func read(_ bytes: UnsafeRawBufferPointer) -> SyncChange? { canonical(bytes, seen: &seen) ?? byMembers(bytes) }
        // A segment's line is a slice of the file's bytes: read in place, not copied first.
        return line.withContiguousStorageIfAvailable { read(UnsafeRawBufferPointer($0)) } ?? Array(line).withUnsafeBytes(read)
    }

    /// A line read member by member, in any order and layout FlatJSON reads.
    static func byMembers(_ bytes: UnsafeRawBufferPointer) -> SyncChange? {
        var fields = Fields()
        return FlatJSON.object(bytes) { name, value in fields.take(name, value) } ? fields.change() : nil
    }

    /// The texts the last line read held, which the next line most likely holds too: the table, the origin, the columns.
    struct Seen {
        var table = "", origin = ""
        var columns: [String] = []
    }

    /// A line laid out as `line()` writes it, read without making a `String` of any member's name, and with
    /// the table, the origin and the column names taken from the line before where they are the same: the same
    /// members handed to `Fields` in the same order as `parse` hands them. Nil for any other layout (spaces,
    /// another order, an escaped name) or a line that is not a change, which `parse` then reads member by member.
    private static func canonical(_ bytes: UnsafeRawBufferPointer, seen: inout Seen) -> SyncChange? {
        var scan = FlatJSON.Scanner(bytes)
        var fields = Fields()
        guard scan.take(#"{"t":"#), let table = scan.string(reusing: seen.table), scan.take(#","k0":"#), let k0 = scan.value() else { return nil }
        fields.table = table
        fields.k0 = Fields.sql(k0)
        if scan.take(#","k1":"#) {
            guard let k1 = scan.value() else { return nil }
            fields.k1 = Fields.sql(k1)
        }
        guard scan.take(#","ms":"#), case let .number(ms)? = scan.value(), scan.take(#","n":"#), case let .number(counter)? = scan.value(),
              scan.take(#","o":"#), let origin = scan.string(reusing: seen.origin), scan.take(#","op":"#), case let .string(op)? = scan.value()
        else { return nil }
        (fields.ms, fields.counter, fields.origin, fields.op) = (Fields.integer(ms), Fields.integer(counter), origin, op)
        if scan.take(#","amount":"#) {
            guard case let .number(amount)? = scan.value() else { return nil }
            fields.amount = amount
        }
        // The key's text is most often a column's value too (a weigh-in's id).
        var keyText = ""
        if case let .text(text)? = fields.k0 { keyText = text }
        var named: [String]?  // Made only when this line's columns differ from the last line's.
        var values: [SQLValue] = []
        values.reserveCapacity(seen.columns.count)
        var clocks: String?
        while scan.take(",") {
            if scan.take(#""v":"#) {
                guard case let .string(text)? = scan.value() else { return nil }
                clocks = text
                break
            }
            let place = values.count
            guard place < Fields.columnLimit else { return nil }
            let known = place < seen.columns.count ? seen.columns[place] : nil
            guard let column = scan.name(after: "c.", reusing: known) else { return nil }
            let value = scan.next == 0x22 ? scan.string(reusing: keyText).map(FlatJSON.Value.string) : scan.value()
            guard let value, let sql = Fields.sql(value) else { return nil }
            values.append(sql)
            if named == nil, column != known { named = Array(seen.columns.prefix(place)) }
            named?.append(column)
        }
        let columns = named ?? (values.count == seen.columns.count ? seen.columns : Array(seen.columns.prefix(values.count)))
        // Named as `line()` writes them, each once and by name; a line in any other order is read member by member.
        if named != nil, zip(columns, columns.dropFirst()).contains(where: { $0 >= $1 }) { return nil }
        fields.image = RowImage(columns: columns, values: values)
        fields.clocks = clocks
        guard scan.take("}"), scan.atEnd, let change = fields.change() else { return nil }
        (seen.table, seen.origin, seen.columns) = (table, origin, columns)
        return change
    }

    /// The members of one line as they are read.
    struct Fields {
        var table: String?, k0: SQLValue?, k1: SQLValue?, ms: Int?, counter: Int?, origin: String?, op: String?
        var amount: Double?
        var image = RowImage()
        var clocks: String?

        /// The most columns a change's row may name (a table of Trend's has a dozen at most): a line naming more is not a change.
        static let columnLimit = 64

        mutating func take(_ name: String, _ value: FlatJSON.Value) -> Bool {
            // Most of a line's members are the image's columns (`c.<column>`): they are told apart first.
            var utf8 = name.utf8.makeIterator()
            if utf8.next() == 0x63, utf8.next() == 0x2E {
                guard let sql = Self.sql(value), let column = String(name.utf8.dropFirst(2)) else { return false }
                image[column] = sql
                return image.columns.count <= Self.columnLimit
            }
            switch (name, value) {
            case let ("t", .string(text)): table = text
            case ("k0", _): k0 = Self.sql(value)
            case ("k1", _): k1 = Self.sql(value)
            case let ("ms", .number(number)): ms = Self.integer(number)
            case let ("n", .number(number)): counter = Self.integer(number)
            case let ("o", .string(text)): origin = text
            case let ("op", .string(text)): op = text
            case let ("amount", .number(number)): amount = number
            case let ("v", .string(text)): clocks = text
            default: return false
            }
            return true
        }

        /// The change the members make, nil when they are not one: a clock out of bounds, an unknown op, a
        /// column clock that is not older than the change's, or names no column of the image.
        func change() -> SyncChange? {
            guard let table, let k0, k0 != .null, let ms, ms >= 0, let counter, counter >= 0, let origin, let op else { return nil }
            let key = k1.map { [k0, $0] } ?? [k0]
            let clock = SyncClock(ms: ms, counter: counter, origin: origin)
            var older = ColumnClocks()
            if let clocks {
                guard let read = ColumnClocks(text: clocks) else { return nil }
                for (column, columnClock) in read.byColumn {
                    guard columnClock < clock, column == ColumnClocks.tombstone || image[column] != nil else { return nil }
                }
                older = read
            }
            switch op {
            case "set": return SyncChange(table: table, key: key, clock: clock, operation: .set(image), older: older)
            case "del":
                guard older[ColumnClocks.tombstone] == nil else { return nil }
                return SyncChange(table: table, key: key, clock: clock, operation: .delete(image), older: older)
            case "add":
                guard let amount, amount.isFinite else { return nil }
                return SyncChange(table: table, key: key, clock: clock, operation: .add(amount, image), older: older)
            default: return nil
            }
        }

        static func integer(_ number: Double) -> Int? {
            number.rounded() == number && abs(number) < Double(SyncClock.acceptedLimit) ? Int(number) : nil
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
