/// A row's values by column, as a change to a synced table carries them (DESIGN §8): read and written by
/// column name, as a dictionary would be, but held as two arrays in the order the columns came. The lines of
/// a segment name the same columns, so reading one shares the list of names read before it and makes no hash
/// table; putting the row in its table's column order, or checking it, compares a few short names.
public struct RowImage: Sendable, Equatable {
    /// The columns, each once, in the order they came.
    public private(set) var columns: [String]
    /// Each column's value, by place in `columns`.
    public private(set) var values: [SQLValue]

    public init() {
        columns = []
        values = []
    }

    /// An image of `columns` (each once) holding `values`, by place.
    public init(columns: [String], values: [SQLValue]) {
        precondition(columns.count == values.count, "an image has one value per column")
        assert(Set(columns).count == columns.count, "an image names each column once")
        self.columns = columns
        self.values = values
    }

    /// An image of a dictionary's columns, in the columns' order by name.
    public init(_ dictionary: [String: SQLValue]) {
        columns = dictionary.keys.sorted()
        values = columns.map { dictionary[$0] ?? .null }
    }

    public var isEmpty: Bool { columns.isEmpty }

    /// A column's value (nil when the image does not name it); set to nil to leave the column out.
    public subscript(column: String) -> SQLValue? {
        get { columns.firstIndex(of: column).map { values[$0] } }
        set {
            switch (columns.firstIndex(of: column), newValue) {
            case let (place?, value?): values[place] = value
            case let (place?, nil):
                columns.remove(at: place)
                values.remove(at: place)
            case let (nil, value?):
                columns.append(column)
                values.append(value)
            case (nil, nil): break
            }
        }
    }

    /// The image restricted to `order`'s columns and in that order, a column it lacks at `missing(place)`.
    public func values(in order: [String], missing: (Int) throws -> SQLValue) rethrows -> [SQLValue] {
        // The common case is an image already in that order.
        if columns == order { return values }
        var out: [SQLValue] = []
        out.reserveCapacity(order.count)
        for (place, column) in order.enumerated() { out.append(try self[column] ?? missing(place)) }
        return out
    }

    /// The same columns holding the same values, in whatever order.
    public static func == (lhs: RowImage, rhs: RowImage) -> Bool {
        guard lhs.columns.count == rhs.columns.count else { return false }
        if lhs.columns == rhs.columns { return lhs.values == rhs.values }
        for (column, value) in zip(lhs.columns, lhs.values) where rhs[column] != value { return false }
        return true
    }
}
