import Foundation
import TextFormats

/// Everything a person keeps, section by section: what a recovery snapshot
/// holds and what a restore puts back.
public struct SnapshotContent: Sendable, Equatable {
    /// The parts, by section name.
    public private(set) var parts: [String: any SnapshotPart]

    public init(parts: [String: any SnapshotPart]) {
        self.parts = parts
    }

    /// Puts `part` in place of a section's rows.
    public mutating func set(_ part: any SnapshotPart, for section: String) {
        parts[section] = part
    }

    /// Two contents are equal when their canonical texts are: what a snapshot would hash.
    public static func == (lhs: SnapshotContent, rhs: SnapshotContent) -> Bool {
        lhs.canonical() == rhs.canonical()
    }

    /// The rows a section holds (0 when the content has no such section).
    public func rowCount(of section: String) -> Int {
        parts[section]?.rowCount ?? 0
    }

    /// The first and last moment recorded in a section (weigh-ins), if any.
    public func dateSpan(of section: String) -> ClosedRange<Date>? {
        parts[section]?.dateSpan
    }

    /// A section's part, typed by its owner.
    public func part<Part: SnapshotPart>(_ section: String, as type: Part.Type) -> Part? {
        parts[section] as? Part
    }

    /// The canonical text of the whole content: every section's members in key order.
    public func canonical() -> Data {
        Data(canonicalBytes())
    }

    /// The same as bytes, made without a second copy of them: each member is
    /// let go once it is written (a million weigh-ins are one member).
    public func canonicalBytes() -> [UInt8] {
        var members = parts.values.flatMap { $0.canonicalMembers() }.sorted { $0.key < $1.key }
        var out = CanonicalJSON(reservingCapacity: members.reduce(16) { $0 + $1.value.bytes.count + $1.key.utf8.count + 4 })
        out.raw("{")
        for index in members.indices {
            if index > 0 { out.raw(",") }
            out.string(members[index].key)
            out.raw(":")
            out.append(members[index].value)
            members[index].value = CanonicalJSON()
        }
        out.raw("}")
        return out.bytes
    }
}

/// The sections a snapshot covers, in the order they are written back.
/// `AppModel.assemble(_:)` lists them, one per table owner; Backup works
/// through this type and never names a feature's rows.
public struct SnapshotSchema: Sendable {
    public let sections: [any SnapshotSection]

    public init(_ sections: [any SnapshotSection]) {
        self.sections = sections
    }

    /// The key under which `Decoder.userInfo` carries the schema to `SnapshotContent`'s decoding.
    public static let userInfoKey = CodingUserInfoKey(rawValue: "trend.snapshotSchema")!

    /// Every section's rows, inside the caller's transaction.
    public func read(in connection: SQLiteConnection) throws -> SnapshotContent {
        var parts: [String: any SnapshotPart] = [:]
        for section in sections {
            parts[section.name] = try Self.read(section, in: connection)
        }
        return SnapshotContent(parts: parts)
    }

    /// Writes the canonical text of every section's rows to `stream`, inside
    /// the caller's read transaction: the bytes `read(in:).canonicalBytes()`
    /// would make, without holding them. With `checkingRows`, throws
    /// `SnapshotValueError` at the first row a restore would refuse.
    /// Returns each section's row count as written (`SnapshotStream.rowCounts`).
    @discardableResult
    public func stream(in connection: SQLiteConnection, checkingRows: Bool = true, to stream: SnapshotStream) throws -> [String: Int] {
        var members: [SnapshotMember] = []
        for section in sections {
            members += try section.members(in: connection, checkingRows: checkingRows)
        }
        members.sort { $0.key < $1.key }
        try stream.write { $0.raw("{") }
        for (index, member) in members.enumerated() {
            try stream.write { out in
                if index > 0 { out.raw(",") }
                out.string(member.key)
                out.raw(":")
            }
            try member.write(stream)
        }
        try stream.write { $0.raw("}") }
        try stream.flush()
        return stream.rowCounts
    }

    /// Whether any of the sections named in `names` holds a row, found without counting them all.
    public func holdsRows(in names: Set<String>, in connection: SQLiteConnection) throws -> Bool {
        for section in sections where names.contains(section.name) {
            if try section.hasRows(in: connection) { return true }
        }
        return false
    }

    /// What a restore's confirmation shows of what is stored now, without
    /// reading every row: each section's row count, each one's date span
    /// (weigh-ins), and the parts of the sections named in `reading` whole.
    public func summary(reading: Set<String>, in connection: SQLiteConnection) throws -> SnapshotSummaryOfStore {
        var summary = SnapshotSummaryOfStore()
        for section in sections {
            summary.counts[section.name] = try section.rowCount(in: connection)
            summary.spans[section.name] = try section.dateSpan(in: connection)
            if reading.contains(section.name) { summary.parts[section.name] = try Self.read(section, in: connection) }
        }
        return summary
    }

    /// The key under which `Decoder.userInfo` carries the members left in their file (`[String: StreamedMember]`).
    public static let streamedMembersKey = CodingUserInfoKey(rawValue: "trend.streamedMembers")!

    /// The members a large snapshot may leave in its file, one per streaming section.
    public var streamedMembers: Set<String> {
        Set(sections.compactMap { ($0 as? any StreamingSnapshotSection)?.streamedMember })
    }

    /// Reads a snapshot file's `content` object. A member found in `userInfo`'s
    /// streamed members is read from its file by its section instead.
    public func decode(from decoder: any Decoder) throws -> SnapshotContent {
        let container = try decoder.container(keyedBy: SnapshotKey.self)
        let streamed = decoder.userInfo[Self.streamedMembersKey] as? [String: StreamedMember] ?? [:]
        var parts: [String: any SnapshotPart] = [:]
        for section in sections {
            if let streaming = section as? any StreamingSnapshotSection, let member = streamed[streaming.streamedMember] {
                parts[section.name] = try Self.part(streaming, member)
            } else {
                parts[section.name] = try section.decode(from: container)
            }
        }
        return SnapshotContent(parts: parts)
    }

    private static func part<Section: StreamingSnapshotSection>(_ section: Section, _ member: StreamedMember) throws -> any SnapshotPart {
        try section.part(streaming: member)
    }

    /// Checks every value; throws the first `SnapshotValueError`.
    public func validate(_ content: SnapshotContent) throws {
        if let first = try keepingValid(content).dropped.first { throw SnapshotValueError(first) }
    }

    /// The content without its rows that are out of range, and why each was left out.
    public func keepingValid(_ content: SnapshotContent) throws -> (valid: SnapshotContent, dropped: [String]) {
        var valid = content
        var dropped: [String] = []
        for section in sections {
            let (part, reasons) = try Self.keepingValid(section, content.parts[section.name])
            valid.set(part, for: section.name)
            dropped += reasons
        }
        return (valid, dropped)
    }

    /// Replaces every section's rows with `content`'s, inside the caller's transaction.
    public func replace(with content: SnapshotContent, in connection: SQLiteConnection) throws {
        for section in sections {
            try Self.replace(section, with: content.parts[section.name], in: connection)
        }
    }

    /// Adds what `content` holds that the database lacks; returns what each section added, by name.
    public func merge(_ content: SnapshotContent, in connection: SQLiteConnection) throws -> [String: SnapshotMergeCount] {
        var counts: [String: SnapshotMergeCount] = [:]
        for section in sections {
            counts[section.name] = try Self.merge(section, content.parts[section.name], in: connection)
        }
        return counts
    }

    /// Content with no rows in any section: what `delete-all-data` restores.
    public func emptyContent() throws -> SnapshotContent {
        let empty = Data("{}".utf8)
        let decoder = JSONDecoder()
        decoder.userInfo[Self.userInfoKey] = self
        return try decoder.decode(SnapshotContentBox.self, from: empty).content
    }

    // The sections are existentials; these open each one to reach its typed part.

    private static func read<Section: SnapshotSection>(_ section: Section, in connection: SQLiteConnection) throws -> any SnapshotPart {
        try section.read(in: connection)
    }

    private static func keepingValid<Section: SnapshotSection>(_ section: Section, _ part: (any SnapshotPart)?) throws
        -> (any SnapshotPart, [String]) {
        let (valid, dropped) = section.keepingValid(try typed(part, for: section))
        return (valid, dropped)
    }

    private static func replace<Section: SnapshotSection>(_ section: Section, with part: (any SnapshotPart)?,
                                                          in connection: SQLiteConnection) throws {
        let typed = try typed(part, for: section)
        try section.replace(with: typed, in: connection)
        let rows = try section.replacedRows(typed, in: connection)
        guard rows.expected == rows.found else {
            throw StorageError.notAsWritten(path: connection.path, section: section.name, wrote: rows.expected, found: rows.found)
        }
    }

    private static func merge<Section: SnapshotSection>(_ section: Section, _ part: (any SnapshotPart)?,
                                                        in connection: SQLiteConnection) throws -> SnapshotMergeCount {
        try section.merge(try typed(part, for: section), in: connection)
    }

    private static func typed<Section: SnapshotSection>(_ part: (any SnapshotPart)?, for section: Section) throws -> Section.Part {
        guard let typed = part as? Section.Part else {
            throw SnapshotValueError("the \(section.name) section is missing")
        }
        return typed
    }
}

/// Row counts, date spans and a few small sections of what is stored: see `SnapshotSchema.summary(reading:in:)`.
public struct SnapshotSummaryOfStore: Sendable {
    public var counts: [String: Int] = [:]
    public var spans: [String: ClosedRange<Date>] = [:]
    public var parts: [String: any SnapshotPart] = [:]
}

/// Decodes a `SnapshotContent` with the schema found in the decoder's `userInfo`.
public struct SnapshotContentBox: Decodable, Sendable {
    public let content: SnapshotContent

    public init(from decoder: any Decoder) throws {
        guard let schema = decoder.userInfo[SnapshotSchema.userInfoKey] as? SnapshotSchema else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "no snapshot schema was given to the decoder"))
        }
        content = try schema.decode(from: decoder)
    }
}

extension LocalDataStore {
    /// A consistent copy of everything the schema covers (one read transaction).
    public func readContent(_ schema: SnapshotSchema) throws -> SnapshotContent {
        try readConsistently { try schema.read(in: $0) }
    }

    /// Replaces everything with `content` in one transaction: all of it, or nothing.
    /// With a `journal` entry, `undo` can return to what was there before.
    /// With `keepingSynced` (a restore on a device that syncs), a row the other devices have (one sync knows and
    /// has not seen deleted) stays when the snapshot does not hold it: the restore sets what its snapshot holds and
    /// deletes, on no device, a row this one did not have when the snapshot was taken, nor one added since (DESIGN §8).
    public func replaceContent(with content: SnapshotContent, schema: SnapshotSchema, journal: JournalEntry? = nil,
                               keepingSynced: Bool = false) throws {
        try write(journal: journal) { connection in
            let kept = keepingSynced ? try self.schema.rowsOtherDevicesHave(in: connection) : []
            try schema.replace(with: content, in: connection)
            guard !kept.isEmpty else { return }
            // A row the snapshot holds under the same key, or whose unique name it took, is the snapshot's.
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            for (table, rows) in kept {
                let columns = table.columns
                let insert = """
                    INSERT OR IGNORE INTO \(table.name)(\(columns.joined(separator: ", "))) VALUES(\(columns.map { _ in "?" }.joined(separator: ", ")))
                    """
                for row in rows { try connection.run(insert, row) }
            }
        }
    }

    /// This installation's id, created on first use and kept in the database.
    public func installationID() throws -> String {
        // Read first: most calls find it, and a read never writes (a damaged file is never written to).
        if let id = try read({ try $0.storedInstallationID() }) {
            return id
        }
        return try write(notifying: false) { connection in
            if let id = try connection.storedInstallationID() {
                return id
            }
            let id = UUID().uuidString.lowercased()
            try connection.run("INSERT INTO meta(key, value) VALUES('installationID', ?)", [.text(id)])
            return id
        }
    }
}

extension SQLiteConnection {
    /// This installation's id as the database keeps it; nil before its first use (`LocalDataStore.installationID`).
    public func storedInstallationID() throws -> String? {
        try query("SELECT value FROM meta WHERE key = 'installationID'", row: { $0.text(0) }).first
    }
}
