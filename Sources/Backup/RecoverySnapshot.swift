import Foundation
import Settings
import Storage

/// Why a snapshot file was refused; nothing was changed.
public enum SnapshotError: Error, Equatable, CustomStringConvertible, Sendable {
    case unreadable(String, reason: String)
    case notASnapshot(String)
    case newerFormat(String, version: Int)
    case hashMismatch(String)
    case invalidValue(String, detail: String)

    public var description: String {
        switch self {
        case let .unreadable(name, reason):
            return "cannot read \(name): \(reason)"
        case let .notASnapshot(name):
            return "\(name) is not a Trend recovery snapshot (truncated, or another kind of file)"
        case let .newerFormat(name, version):
            return "\(name) was written by a newer Trend (format \(version), this one reads up to \(RecoverySnapshot.formatVersion)); update Trend to restore it"
        case let .hashMismatch(name):
            return "\(name) has been changed since it was written (its content hash does not match); it was not used"
        case let .invalidValue(name, detail):
            return "\(name) holds a value Trend cannot accept: \(detail)"
        }
    }
}

/// A versioned, hashed copy of everything: weights, habits with their
/// history, settings and the tip deck. The hash covers a canonical encoding
/// of the payload (sorted keys, no spaces), so any change to the content is
/// caught, while re-indenting the file is not mistaken for one.
public struct RecoverySnapshot: Sendable, Equatable {
    public static let formatVersion = 1

    public var formatVersion: Int
    public var appVersion: String
    public var createdAt: Date
    public var installationID: String
    public private(set) var contentHash: String
    public private(set) var content: StoredContent
    /// The canonical text of `content`, made once: hashed, then embedded in the file.
    private var canonical: Data

    public init(content: StoredContent, createdAt: Date, installationID: String, appVersion: String) {
        self.formatVersion = Self.formatVersion
        self.appVersion = appVersion
        self.createdAt = createdAt
        self.installationID = installationID
        self.content = content
        canonical = CanonicalJSON.encode(content)
        contentHash = ContentHash.sha256(canonical)
    }

    /// The hash of the canonical encoding of `content`.
    public static func hash(of content: StoredContent) -> String {
        ContentHash.sha256(CanonicalJSON.encode(content))
    }

    private struct File: Decodable {
        var formatVersion: Int
        var appVersion: String
        var createdAt: String
        var installationID: String
        var contentHash: String
        var content: StoredContent
    }

    private struct Header: Decodable {
        var formatVersion: Int?
    }

    /// The file's bytes: JSON, keys sorted, the content in its canonical form.
    public func encoded() -> Data {
        var head = "{\"appVersion\":"
        CanonicalJSON.string(appVersion, into: &head)
        head += ",\"content\":"
        var tail = ",\"contentHash\":"
        CanonicalJSON.string(contentHash, into: &tail)
        tail += ",\"createdAt\":"
        CanonicalJSON.string(Self.timestamp(createdAt), into: &tail)
        tail += ",\"formatVersion\":\(formatVersion),\"installationID\":"
        CanonicalJSON.string(installationID, into: &tail)
        tail += "}\n"
        var file = Data(capacity: head.utf8.count + canonical.count + tail.utf8.count)
        file.append(contentsOf: head.utf8)
        file.append(canonical)
        file.append(contentsOf: tail.utf8)
        return file
    }

    /// Reads and checks a snapshot: its version, its hash and every value.
    /// `name` is how messages refer to it.
    public static func decode(_ data: Data, name: String) throws -> RecoverySnapshot {
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: data), let version = header.formatVersion else {
            throw SnapshotError.notASnapshot(name)
        }
        guard version <= formatVersion else { throw SnapshotError.newerFormat(name, version: version) }
        guard version >= 1, let file = try? decoder.decode(File.self, from: data),
              let createdAt = date(from: file.createdAt) else {
            throw SnapshotError.notASnapshot(name)
        }
        var snapshot = RecoverySnapshot(content: file.content, createdAt: createdAt,
                                        installationID: file.installationID, appVersion: file.appVersion)
        guard snapshot.contentHash == file.contentHash else { throw SnapshotError.hashMismatch(name) }
        try validate(file.content, name: name)
        snapshot.formatVersion = version
        return snapshot
    }

    /// Every value in range: weights, instants, habits, their days, and known settings.
    static func validate(_ content: StoredContent, name: String) throws {
        func refuse(_ detail: String) -> SnapshotError { .invalidValue(name, detail: detail) }
        var weightIDs = Set<String>()
        for (index, weight) in content.weights.enumerated() {
            guard !weight.id.isEmpty, weight.id.count <= 64, weightIDs.insert(weight.id).inserted else {
                throw refuse("weight \(index + 1) has an empty, overlong or repeated id")
            }
            guard weight.kilograms.isFinite, WeightUnit.acceptedKilograms.contains(weight.kilograms) else {
                throw refuse("weight \(index + 1) is \(weight.kilograms) kg, outside 20–500 kg")
            }
            guard weight.instant.isFinite, (-2_208_988_800...7_258_118_400).contains(weight.instant) else {
                throw refuse("weight \(index + 1) has a date outside 1900–2200")
            }
            guard (weight.note?.count ?? 0) <= 10_000 else { throw refuse("weight \(index + 1) has an overlong note") }
        }
        var habitIDs = Set<String>(), habitNames = Set<String>()
        for habit in content.habits {
            guard !habit.id.isEmpty, habitIDs.insert(habit.id).inserted else { throw refuse("a habit id is empty or repeated") }
            let name = habit.name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.count <= 60, habitNames.insert(name.lowercased()).inserted else {
                throw refuse("the habit name '\(habit.name.prefix(60))' is empty, too long or repeated")
            }
            guard !habit.schedule.isEmpty, habit.schedule.count <= 60 else { throw refuse("habit '\(name)' has no schedule") }
            switch habit.kind {
            case "yesno": break
            case "atLeast", "atMost":
                guard let target = habit.target, target.isFinite, target >= 0 else { throw refuse("habit '\(name)' has no valid target") }
            default: throw refuse("habit '\(name)' is of an unknown kind '\(habit.kind.prefix(20))'")
            }
            guard abs(habit.createdDay) < 200_000 else { throw refuse("habit '\(name)' starts on an impossible day") }
        }
        for record in content.habitRecords {
            guard habitIDs.contains(record.habitID) else { throw refuse("a habit day belongs to no habit") }
            guard ["done", "skipped", "value"].contains(record.status), abs(record.day) < 200_000 else {
                throw refuse("a habit day has an unknown status or an impossible date")
            }
            if record.status == "value" {
                guard let value = record.value, value.isFinite, (0...1_000_000).contains(value) else {
                    throw refuse("a habit day holds a value outside 0–1000000")
                }
            }
        }
        for setting in content.settings {
            switch setting.key {
            case "unit":
                guard WeightUnit(rawValue: setting.value) != nil else { throw refuse("the unit '\(setting.value.prefix(20))' is unknown") }
            case "goalKilograms":
                guard let goal = Double(setting.value), WeightUnit.acceptedKilograms.contains(goal) else {
                    throw refuse("the goal '\(setting.value.prefix(20))' is outside 20–500 kg")
                }
            default:
                guard setting.key.count <= 64, setting.value.count <= 4_096 else { throw refuse("a setting is overlong") }
            }
        }
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
