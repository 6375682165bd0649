import Cryptography
import Foundation
import TextFormats

/// What a snapshot file says of itself, found in one pass over its bytes
/// without decoding its rows: the members around the content, the SHA-256
/// of the content as written, and how many elements each of the content's
/// arrays holds. `backup list` reads a million-weigh-in snapshot this way
/// in a fraction of a second and a few megabytes; a restore decodes it whole.
struct SnapshotSummary: Sendable, Equatable {
    var formatVersion: Int
    var appVersion: String
    var createdAt: Date
    var installationID: String
    /// The hash the file records.
    var contentHash: String
    /// The hash of the content member's bytes as they stand in the file.
    var contentHashAsWritten: String
    /// The number of elements of each array member of the content (`weights`, `habits` …).
    var counts: [String: Int]
    /// Where each member's value of the content stands in the file.
    var contentMembers: [String: Range<Int>] = [:]
}

/// A streaming walk over JSON text that keeps only what `SnapshotSummary`
/// needs: the top-level members' raw values (except the content, which is
/// hashed as written), and the element counts of the content's arrays.
/// Strings and nesting are followed exactly, so a `,` or `]` inside a note
/// never counts. Anything after the top-level object but white space fails it.
struct SnapshotScanner {
    /// Bytes a top-level member other than the content may take; a snapshot's are a few dozen.
    static let memberLimit = 4_096
    private static let contentName = Array("content".utf8)

    /// The text is not one JSON object, or a member around the content is oversized.
    private(set) var failed = false
    /// The top-level object has closed.
    private(set) var finished = false
    /// The top-level members other than the content, each with its raw JSON value.
    private(set) var members: [(key: String, raw: [UInt8])] = []
    /// The element count of each array member of the content.
    private(set) var counts: [String: Int] = [:]
    /// Where each member's value of the content stands in the text (from its first byte to its last).
    private(set) var contentMembers: [String: Range<Int>] = [:]
    /// The position in the whole text of the chunk being walked.
    private var offset = 0
    private var awaitingValue = false
    private var valueStart: Int?
    private var lastOfValue = 0

    private var depth = 0
    private var inString = false, escaped = false
    /// The last string read at depth 1 or 2 (the keys there), escapes as written.
    private var lastString: [UInt8] = []
    private var topKey: [UInt8]?
    private var contentKey: [UInt8]?
    /// The raw value of the top-level member being read, unless it is the content.
    private var raw: [UInt8]?
    private var hashingContent = false, contentHashed = false
    private var counting: (key: [UInt8], commas: Int, nonEmpty: Bool)?
    private let content: ContentHash

    init() throws {
        content = try ContentHash()
    }

    /// The content's SHA-256 as written, once the whole text was walked; nil when it had no content object.
    func contentHash() throws -> String? {
        guard contentHashed, finished, !failed else { return nil }
        return try content.finish()
    }

    /// Walks the next bytes of the text.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) throws {
        var hashFrom: Int? = hashingContent ? 0 : nil
        for index in bytes.indices {
            if failed { return }
            let byte = bytes[index]
            if finished {
                if !Self.isSpace(byte) { failed = true }
                continue
            }
            let position = offset + index
            if awaitingValue, !Self.isSpace(byte) {
                valueStart = position
                awaitingValue = false
            }
            // A byte of a content member's value: all but the spaces around it and the `,` or `}` after it.
            let separator = !inString && depth == 2 && (byte == 0x2C || byte == 0x7D)
            if valueStart != nil, !separator, inString || !Self.isSpace(byte) { lastOfValue = position }
            if separator, let start = valueStart, let key = contentKey {
                contentMembers[String(decoding: key, as: UTF8.self)] = start..<(lastOfValue + 1)
                valueStart = nil
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
                if inString, depth <= 2, lastString.count < 256 { lastString.append(byte) }
                capture(byte)
                continue
            }
            if depth >= 3, counting != nil, !Self.isSpace(byte), !(depth == 3 && (byte == 0x2C || byte == 0x5D)) {
                counting?.nonEmpty = true
            }
            switch byte {
            case 0x22:
                inString = true
                lastString.removeAll(keepingCapacity: true)
                capture(byte)
            case 0x3A where depth == 1:
                topKey = lastString
                if lastString == Self.contentName {
                    if contentHashed || hashingContent { failed = true }
                } else {
                    raw = []
                }
            case 0x3A where depth == 2:
                if topKey == Self.contentName {
                    contentKey = lastString
                    awaitingValue = true
                }
                capture(byte)
            case 0x7B, 0x5B:
                if depth == 0, byte == 0x5B { failed = true }
                if depth == 1, topKey == Self.contentName, byte == 0x7B {
                    hashingContent = true
                    hashFrom = index
                }
                capture(byte)
                depth += 1
                if depth == 3, byte == 0x5B, topKey == Self.contentName, let key = contentKey { counting = (key, 0, false) }
            case 0x7D, 0x5D:
                guard depth > 0 else { failed = true; return }
                if depth == 1 {
                    endMember()
                    depth = 0
                    finished = true
                    continue
                }
                if depth == 3, let current = counting {
                    counts[String(decoding: current.key, as: UTF8.self)] = current.nonEmpty ? current.commas + 1 : 0
                    counting = nil
                }
                capture(byte)
                depth -= 1
                if depth == 1, hashingContent {
                    try content.update(UnsafeRawBufferPointer(rebasing: bytes[(hashFrom ?? 0)...index]))
                    hashingContent = false
                    contentHashed = true
                    hashFrom = nil
                }
            case 0x2C where depth == 1:
                endMember()
            case 0x2C where depth == 3:
                counting?.commas += 1
                capture(byte)
            default:
                if depth == 0, !Self.isSpace(byte) { failed = true }
                capture(byte)
            }
        }
        if hashingContent, let hashFrom {
            try content.update(UnsafeRawBufferPointer(rebasing: bytes[hashFrom...]))
        }
        offset += bytes.count
    }

    /// A byte of the top-level member being read, when it is not the content.
    private mutating func capture(_ byte: UInt8) {
        guard depth >= 1, raw != nil else { return }
        if raw!.isEmpty, Self.isSpace(byte) { return }
        raw!.append(byte)
        if raw!.count > Self.memberLimit { failed = true }
    }

    private mutating func endMember() {
        if let key = topKey, var value = raw {
            while let last = value.last, Self.isSpace(last) { value.removeLast() }
            members.append((String(decoding: key, as: UTF8.self), value))
        }
        raw = nil
        topKey = nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

extension SnapshotSummary {
    /// The members around the content, as a JSON object of their raw values.
    private struct Header: Decodable {
        var formatVersion: Int
        var appVersion: String
        var createdAt: String
        var installationID: String
        var contentHash: String
    }

    /// Reads `file` a megabyte at a time; `name` is how messages refer to it.
    /// Throws `SnapshotError.notASnapshot` for anything that is not one JSON
    /// object with a content object and the members every format has.
    static func read(_ file: SnapshotFile, name: String) throws -> SnapshotSummary {
        var scanner = try SnapshotScanner()
        do {
            try file.forEachChunk { try scanner.scan($0) }
        } catch let error as BackupFileError {
            throw SnapshotError.unreadable(name, reason: "\(error)")
        }
        return try SnapshotSummary(scanner, name: name)
    }

    /// The summary of a snapshot's bytes in memory.
    static func of(_ data: Data, name: String) throws -> SnapshotSummary {
        var scanner = try SnapshotScanner()
        try data.withUnsafeBytes { try scanner.scan($0) }
        return try SnapshotSummary(scanner, name: name)
    }

    private struct Version: Decodable {
        var formatVersion: Int
    }

    /// What a scanner that walked a whole file found. A newer format is named
    /// before anything else is required of the file.
    init(_ scanner: SnapshotScanner, name: String) throws {
        guard !scanner.failed, let asWritten = try scanner.contentHash() else { throw SnapshotError.notASnapshot(name) }
        var object: [UInt8] = Array("{".utf8)
        for (index, member) in scanner.members.enumerated() {
            if index > 0 { object.append(0x2C) }
            var key = CanonicalJSON()
            key.string(member.key)
            object += key.bytes + [0x3A] + member.raw
        }
        object.append(0x7D)
        let decoder = JSONDecoder()
        guard let version = try? decoder.decode(Version.self, from: Data(object)).formatVersion,  // None: not a snapshot.
              version >= 1 else { throw SnapshotError.notASnapshot(name) }
        guard version <= RecoverySnapshot.formatVersion else { throw SnapshotError.newerFormat(name, version: version) }
        guard let header = try? decoder.decode(Header.self, from: Data(object)),  // Not decodable: not a snapshot.
              let createdAt = RecoverySnapshot.date(from: header.createdAt) else { throw SnapshotError.notASnapshot(name) }
        self.init(formatVersion: version, appVersion: header.appVersion, createdAt: createdAt,
                  installationID: header.installationID, contentHash: header.contentHash,
                  contentHashAsWritten: asWritten, counts: scanner.counts, contentMembers: scanner.contentMembers)
    }
}
