import Foundation

/// A row's columns as a reader of rows sees them: the statement's current row
/// (`SQLiteStatement`), or one copied out of it (`CopiedRows.Row`) to be read
/// on another thread after the statement has stepped on.
public protocol SQLRow {
    func isNull(_ column: Int32) -> Bool
    func double(_ column: Int32) -> Double
    /// The column's text as the bytes `text(_:)` makes its `String` from, without making one.
    func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
}

extension SQLRow {
    /// The column's text; the bytes' repair where they are not UTF-8, as `String(cString:)` repairs them.
    public func text(_ column: Int32) -> String {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }
}

extension SQLiteStatement: SQLRow {}

/// Rows copied out of a statement as it steps, a batch at a time, so that one
/// thread can step the statement while another reads the rows it has passed
/// (a snapshot's weigh-ins: SQLite on one core, their text on the other).
/// Each column is copied as its reader will read it, a number or text, as
/// `SQLiteStatement` gives it (SQLite converting where the stored value is of
/// the other kind); NULL stays NULL.
public struct CopiedRows: Sendable {
    /// How a column is read.
    public enum Cell: Sendable { case number, text }

    public let columns: [Cell]
    public private(set) var count = 0
    private var nulls: [Bool] = []
    /// A number column's value; 0 for a text column's cell.
    private var doubles: [Double] = []
    /// Each text cell's end in `bytes` (its start is the cell before's end); unchanged for a number's cell.
    private var textEnd: [Int32] = []
    private var bytes: [UInt8] = []

    public init(columns: [Cell], reservingRows rows: Int) {
        self.columns = columns
        let cells = columns.count * rows
        nulls.reserveCapacity(cells)
        doubles.reserveCapacity(cells)
        textEnd.reserveCapacity(cells)
        bytes.reserveCapacity(rows * 64)
    }

    /// Copies the statement's current row.
    public mutating func append(_ row: SQLiteStatement) {
        for (column, cell) in columns.enumerated() {
            let index = Int32(column)
            let isNull = row.isNull(index)
            nulls.append(isNull)
            switch cell {
            case .number: doubles.append(isNull ? 0 : row.double(index))
            case .text:
                doubles.append(0)
                if !isNull { row.withText(index) { bytes.append(contentsOf: $0) } }
            }
            textEnd.append(Int32(bytes.count))
        }
        count += 1
    }

    /// Each row, in the order they were copied. A `Row` is valid only inside `body`.
    public func forEach(_ body: (Row) throws -> Void) rethrows {
        try nulls.withUnsafeBufferPointer { nulls in
            try doubles.withUnsafeBufferPointer { doubles in
                try textEnd.withUnsafeBufferPointer { textEnd in
                    try bytes.withUnsafeBufferPointer { bytes in
                        for index in 0..<count {
                            try body(Row(nulls: nulls, doubles: doubles, textEnd: textEnd, bytes: bytes, first: index * columns.count))
                        }
                    }
                }
            }
        }
    }

    /// One copied row, read as it was copied: `double` of a text column is 0, `withText` of a number column
    /// empty. It points into its `CopiedRows`, and is valid only inside `forEach`'s body.
    public struct Row: SQLRow {
        fileprivate let nulls: UnsafeBufferPointer<Bool>
        fileprivate let doubles: UnsafeBufferPointer<Double>
        fileprivate let textEnd: UnsafeBufferPointer<Int32>
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let first: Int

        public func isNull(_ column: Int32) -> Bool { nulls[first + Int(column)] }
        public func double(_ column: Int32) -> Double { doubles[first + Int(column)] }
        public func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let cell = first + Int(column)
            let start = cell == 0 ? 0 : Int(textEnd[cell - 1])
            return body(UnsafeBufferPointer(rebasing: bytes[start..<Int(textEnd[cell])]))
        }
    }
}
