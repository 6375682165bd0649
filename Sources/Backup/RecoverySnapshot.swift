import Cryptography
import Foundation
import Storage
import TextFormats

/// Why a snapshot file was refused; nothing was changed.
public enum SnapshotError: Error, Equatable, CustomStringConvertible, Sendable {
    case unreadable(String, reason: String)
    case notASnapshot(String)
    case newerFormat(String, version: Int)
    case hashMismatch(String)
    case invalidValue(String, detail: String)

    public var description: String {
        switch self {
        case let .unreadable(name, reason): "cannot read \(name): \(reason)"
        case let .notASnapshot(name): "\(name) is not a Trend recovery snapshot (truncated, or another kind of file)"
        case let .newerFormat(name, version): "\(name) was written by a newer Trend (format \(version), this one reads up to \(RecoverySnapshot.formatVersion)); update Trend to restore it"
        case let .hashMismatch(name): "\(name) has been changed since it was written (its content hash does not match); it was not used"
        case let .invalidValue(name, detail): "\(name) holds a value Trend cannot accept: \(detail); nothing was changed"
        }
    }
}

/// What a merge added.
public struct MergeCounts: Sendable, Equatable {
    public var weights = 0
    public var duplicateWeights = 0
    public var habits = 0
    public var habitDays = 0

    public init(weights: Int = 0, duplicateWeights: Int = 0, habits: Int = 0, habitDays: Int = 0) {
        self.weights = weights
        self.duplicateWeights = duplicateWeights
        self.habits = habits
        self.habitDays = habitDays
    }

    /// The counts of a merge, from what each section reported.
    init(_ sections: [String: SnapshotMergeCount]) {
        weights = sections["weights"]?.added ?? 0
        duplicateWeights = sections["weights"]?.duplicates ?? 0
        habits = sections["habits"]?.added ?? 0
        habitDays = sections["habits"]?.addedChildren ?? 0
    }
}

/// A versioned, hashed copy of everything: weights, habits with their
/// history, settings and the tip deck, each section written by its table's
/// owner (`SnapshotSchema`). The hash covers the canonical text of the
/// content (sorted keys, no spaces), which the file embeds as it is.
///
/// Saved data outlives code: a snapshot is checked against the hash of the
/// content's bytes as they stand in the file, so a file written by an older
/// Trend still restores after the encoder has moved on. A re-indented file
/// is checked against the content re-encoded. `Tests/Fixtures` keeps a file
/// of every `formatVersion` shipped.
public struct RecoverySnapshot: Sendable {
    /// 1: weights, habits, habitRecords, settings, tipDeck (Trend 0.1.0).
    /// 2: a habit's `schedule` is its storage code (`week:3`), not its words (`3/week`).
    /// 3: a weigh-in may carry `bodyFatPercent` (an older Trend would drop it, so it refuses the file instead).
    /// 4: a weigh-in may carry `typedUnit`, the unit it was typed in.
    /// 5: `measurements`, the tape measures (waist, hips …), and the settings `measureUnit` and `sex`.
    public static let formatVersion = SnapshotFormat.newest

    public var formatVersion: Int
    public var appVersion: String
    public var createdAt: Date
    public var installationID: String
    public private(set) var contentHash: String
    public private(set) var content: SnapshotContent
    /// Rows of the file left out by a `skip-invalid` read, each with why.
    public private(set) var dropped: [String] = []

    public init(content: SnapshotContent, createdAt: Date, installationID: String, appVersion: String) throws {
        let hash = try content.canonicalBytes().withUnsafeBytes { try ContentHash.sha256($0) }
        self.init(content: content, contentHash: hash, createdAt: createdAt, installationID: installationID, appVersion: appVersion)
    }

    /// A snapshot whose hash is already known (read from a file and checked).
    private init(content: SnapshotContent, contentHash: String, formatVersion: Int = formatVersion, createdAt: Date,
                 installationID: String, appVersion: String) {
        self.formatVersion = formatVersion
        self.appVersion = appVersion
        self.createdAt = createdAt
        self.installationID = installationID
        self.content = content
        self.contentHash = contentHash
    }

    /// The entries (weigh-ins) it holds.
    public var weighIns: Int { content.rowCount(of: "weights") }
    /// The habits it holds.
    public var habits: Int { content.rowCount(of: "habits") }

    /// The content member; the members around it are read by `SnapshotSummary`.
    private struct File: Decodable {
        var content: SnapshotContentBox
    }

    /// The file's bytes: JSON, keys sorted, the content in its canonical form.
    public func encoded() -> Data {
        let canonical = content.canonicalBytes()
        let head = Self.head(appVersion: appVersion)
        let tail = Self.tail(contentHash: contentHash, createdAt: createdAt, formatVersion: formatVersion, installationID: installationID)
        var file = Data(capacity: head.bytes.count + canonical.count + tail.bytes.count)
        file.append(contentsOf: head.bytes)
        file.append(contentsOf: canonical)
        file.append(contentsOf: tail.bytes)
        return file
    }

    /// What a snapshot file holds before its content: `{"appVersion":"…","content":`.
    static func head(appVersion: String) -> CanonicalJSON {
        var head = CanonicalJSON()
        head.raw("{\"appVersion\":")
        head.string(appVersion)
        head.raw(",\"content\":")
        return head
    }

    /// What follows the content, the members after it in key order, and the closing line.
    static func tail(contentHash: String, createdAt: Date, formatVersion: Int = formatVersion, installationID: String) -> CanonicalJSON {
        var tail = CanonicalJSON()
        tail.raw(",\"contentHash\":")
        tail.string(contentHash)
        tail.raw(",\"createdAt\":")
        tail.string(timestamp(createdAt))
        tail.raw(",\"formatVersion\":")
        tail.integer(formatVersion)
        tail.raw(",\"installationID\":")
        tail.string(installationID)
        tail.raw("}\n")
        return tail
    }

    /// Reads and checks a snapshot: its version, its hash and every value.
    /// `name` is how messages refer to it.
    /// With `skippingInvalid`, rows out of range are left out (and listed in
    /// `dropped`) instead of refusing the file; its hash must still match.
    public static func decode(_ data: Data, name: String, schema: SnapshotSchema,
                              skippingInvalid: Bool = false) throws -> RecoverySnapshot {
        // One pass for the members around the content and its hash as written; then the rows are decoded.
        let summary = try SnapshotSummary.of(data, name: name)
        let decoder = JSONDecoder()
        decoder.userInfo[SnapshotSchema.userInfoKey] = schema
        let content: SnapshotContent
        do {
            content = try decoder.decode(File.self, from: data).content.content
        } catch {
            throw SnapshotError.notASnapshot(name)
        }
        // A file re-indented by hand is checked against its content re-encoded.
        guard try summary.contentHashAsWritten == summary.contentHash
            || content.canonicalBytes().withUnsafeBytes({ try ContentHash.sha256($0) }) == summary.contentHash else {
            throw SnapshotError.hashMismatch(name)
        }
        return try checked(content, summary, name: name, schema: schema, skippingInvalid: skippingInvalid)
    }

    /// Members of at least this many bytes, of a section that streams (the
    /// weigh-ins, about 12,000 of them), are left in their file when it is read.
    static let streamingThreshold = 1 << 20

    /// Reads and checks a snapshot file as `decode(_:name:schema:skippingInvalid:)`
    /// does, without holding it: one pass checks its hash, then the members are
    /// decoded, except a large one of a streaming section (a lifetime of
    /// weigh-ins), which stays in the file, checked a batch at a time, and is
    /// read again only to be restored (`StreamedMember`). A small file, or one
    /// whose content was re-indented (its hash is checked on the content
    /// re-encoded), is read whole.
    static func read(_ file: SnapshotFile, name: String, schema: SnapshotSchema, skippingInvalid: Bool,
                     streamingFrom threshold: Int = streamingThreshold) throws -> RecoverySnapshot {
        let summary = try SnapshotSummary.read(file, name: name)
        let streamed = summary.contentMembers.filter { schema.streamedMembers.contains($0.key) && $0.value.count >= threshold }
        guard summary.contentHashAsWritten == summary.contentHash, !streamed.isEmpty else {
            let data: Data
            do {
                data = try file.read()
            } catch {
                throw SnapshotError.unreadable(name, reason: "\(error)")
            }
            return try decode(data, name: name, schema: schema, skippingInvalid: skippingInvalid)
        }
        let content: SnapshotContent
        do {
            // Every other member, read again from where it stands, as one object.
            var object: [UInt8] = [0x7B]
            for (key, range) in summary.contentMembers.sorted(by: { $0.value.lowerBound < $1.value.lowerBound }) where streamed[key] == nil {
                var member = CanonicalJSON()
                member.raw(object.count > 1 ? "," : "")
                member.string(key)
                member.raw(":")
                object += member.bytes
                try file.forEachChunk(in: range) { object += $0 }
            }
            object.append(0x7D)
            let decoder = JSONDecoder()
            decoder.userInfo[SnapshotSchema.userInfoKey] = schema
            decoder.userInfo[SnapshotSchema.streamedMembersKey] = streamed.mapValues { StreamedMember(source: file, range: $0) }
            content = try decoder.decode(SnapshotContentBox.self, from: Data(object)).content
        } catch let error as BackupFileError {
            throw SnapshotError.unreadable(name, reason: "\(error)")
        } catch {
            throw SnapshotError.notASnapshot(name)
        }
        return try checked(content, summary, name: name, schema: schema, skippingInvalid: skippingInvalid)
    }

    /// The snapshot of content whose hash was checked: every value checked too.
    private static func checked(_ content: SnapshotContent, _ summary: SnapshotSummary, name: String, schema: SnapshotSchema,
                                skippingInvalid: Bool) throws -> RecoverySnapshot {
        let (valid, dropped) = try schema.keepingValid(content)
        if let first = dropped.first, !skippingInvalid { throw SnapshotError.invalidValue(name, detail: first) }
        var snapshot = RecoverySnapshot(content: dropped.isEmpty ? content : valid, contentHash: summary.contentHash,
                                        formatVersion: summary.formatVersion, createdAt: summary.createdAt,
                                        installationID: summary.installationID, appVersion: summary.appVersion)
        snapshot.dropped = dropped
        return snapshot
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
