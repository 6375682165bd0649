import Foundation
import TextFormats

/// One table owner's share of everything a person keeps, as a recovery
/// snapshot holds it.
///
/// Each feature target that owns tables provides one section beside its
/// repository: the rows it reads for a snapshot, their canonical JSON, how a
/// snapshot file's members decode and are checked, and how a restore or a
/// merge writes them back. Backup sees only `SnapshotSchema`, so adding a
/// column touches a migration, its owner and the snapshot `formatVersion`.
public protocol SnapshotSection: Sendable {
    associatedtype Part: SnapshotPart

    /// The section's name: the first of its members in a snapshot's content.
    var name: String { get }
    /// The rows as they are now, inside the caller's transaction.
    func read(in connection: SQLiteConnection) throws -> Part
    /// The section's members of a snapshot file's `content`; a missing member means no rows.
    func decode(from content: KeyedDecodingContainer<SnapshotKey>) throws -> Part
    /// The rows whose values are all in range, and a sentence for each row
    /// left out ("weight 3 has a date outside 1900–2200"). A strict restore
    /// refuses a snapshot with any row left out; `skip-invalid` keeps the rest.
    func keepingValid(_ part: Part) -> (valid: Part, dropped: [String])
    /// Deletes the owner's rows and inserts `part`'s, inside the caller's transaction.
    func replace(with part: Part, in connection: SQLiteConnection) throws
    /// Adds what `part` holds that the database lacks, inside the caller's transaction; changes nothing local.
    func merge(_ part: Part, in connection: SQLiteConnection) throws -> SnapshotMergeCount
    /// The section's members as a snapshot writes them, each written from the
    /// database inside the caller's read transaction, the same bytes as
    /// `read(in:)` then `canonicalMembers()`. With `checkingRows`, a row a
    /// restore would refuse throws `SnapshotValueError`: a snapshot is never
    /// written with one (a copy kept before a restore takes the rows as they are).
    /// The default reads the part whole; an owner of many rows streams them.
    func members(in connection: SQLiteConnection, checkingRows: Bool) throws -> [SnapshotMember]
    /// `read(in:).rowCount`, counted in the database.
    func rowCount(in connection: SQLiteConnection) throws -> Int
    /// Whether `rowCount(in:)` is above zero, found without counting every row.
    func hasRows(in connection: SQLiteConnection) throws -> Bool
    /// `read(in:).dateSpan`, found in the database (the default: none).
    func dateSpan(in connection: SQLiteConnection) throws -> ClosedRange<Date>?
    /// After `replace(with:in:)`, inside its transaction: how many rows the
    /// section was to hold and holds, so a restore never reports what it did
    /// not do (a trigger planted in the file may delete behind the insert).
    /// The default: every row of the part, and `rowCount(in:)`.
    func replacedRows(_ part: Part, in connection: SQLiteConnection) throws -> (expected: Int, found: Int)
}

extension SnapshotSection {
    public func members(in connection: SQLiteConnection, checkingRows: Bool) throws -> [SnapshotMember] {
        let part = try read(in: connection)
        if checkingRows, let first = keepingValid(part).dropped.first { throw SnapshotValueError(first) }
        let name = name
        return part.canonicalMembers().enumerated().map { index, member in
            SnapshotMember(key: member.key) { stream in
                if index == 0 { stream.counted(part.rowCount, of: name) }
                try stream.append(member.value)
            }
        }
    }

    public func rowCount(in connection: SQLiteConnection) throws -> Int {
        try read(in: connection).rowCount
    }

    public func hasRows(in connection: SQLiteConnection) throws -> Bool {
        try rowCount(in: connection) > 0
    }

    public func replacedRows(_ part: Part, in connection: SQLiteConnection) throws -> (expected: Int, found: Int) {
        (part.rowCount, try rowCount(in: connection))
    }

    /// None: a section whose rows record moments (weigh-ins) finds its span in the database.
    public func dateSpan(in connection: SQLiteConnection) throws -> ClosedRange<Date>? {
        nil
    }
}

/// A section one of whose members may hold a lifetime of rows (weigh-ins):
/// in a large snapshot file that member is left in the file
/// (`StreamedMember`) and read a batch at a time, never whole. Its part
/// must still answer every `SnapshotPart` and `SnapshotSection` question,
/// reading the file again where it must (restoring, merging).
public protocol StreamingSnapshotSection: SnapshotSection {
    /// The member read that way (`weights`).
    var streamedMember: String { get }
    /// The part whose `streamedMember` rows stay in the file: one pass over
    /// them now learns what `rowCount`, `dateSpan` and `keepingValid` say.
    func part(streaming member: StreamedMember) throws -> Part
}

/// One section's rows, read from the database or a snapshot file.
public protocol SnapshotPart: Sendable {
    /// The members this part adds to a snapshot's content, each with its canonical JSON value.
    func canonicalMembers() -> [(key: String, value: CanonicalJSON)]
    /// How many rows it holds (weigh-ins, habits, settings …).
    var rowCount: Int { get }
    /// The first and last moment its rows record, where they record moments (weigh-ins).
    var dateSpan: ClosedRange<Date>? { get }
}

extension SnapshotPart {
    public var dateSpan: ClosedRange<Date>? { nil }
}

/// A member name in a snapshot's `content` object.
public struct SnapshotKey: CodingKey, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}

/// What merging one section added.
public struct SnapshotMergeCount: Sendable, Equatable {
    /// Rows added (weigh-ins, habits).
    public var added: Int
    /// Rows left out because the database already had them.
    public var duplicates: Int
    /// Rows of a child table added with them (habit days).
    public var addedChildren: Int

    public init(added: Int = 0, duplicates: Int = 0, addedChildren: Int = 0) {
        self.added = added
        self.duplicates = duplicates
        self.addedChildren = addedChildren
    }
}

/// A value in a snapshot that Trend cannot accept; `detail` names it.
public struct SnapshotValueError: Error, Equatable, Sendable {
    public let detail: String

    public init(_ detail: String) {
        self.detail = detail
    }
}

/// The newest snapshot `formatVersion` this Trend writes and reads (its history is on `RecoverySnapshot`):
/// a restore and an import of a snapshot both refuse a newer one, naming it.
public enum SnapshotFormat {
    public static let newest = 5
}
