import Foundation
import Storage
import Vocabulary

/// One device seen in the sync folder, as `sync` shows it.
public struct SyncDevice: Sendable, Equatable, Codable {
    public let installation: String
    public let name: String
    /// When it last changed something (its clock).
    public let lastChange: Date?
    /// Its changes applied here.
    public let applied: Int
    /// Its changes written but not applied here yet (a segment not delivered whole, or refused).
    public let behind: Int
    /// Rows its changes wrote here, in all.
    public let received: Int
    /// What stops its changes from being read, if anything.
    public let problem: String?
}

/// What one sync did, and what the sync folder holds.
public struct SyncReport: Sendable, Equatable, Codable {
    /// This installation's changes written out as segments.
    public var sent = 0
    /// Rows the other devices' changes wrote here.
    public var received = 0
    /// The devices that sent them, by name.
    public var from: [String] = []
    public var devices: [SyncDevice] = []
    /// Segments passed over (retried at the next sync), and changes left out, each in a sentence.
    public var problems: [String] = []
    /// Changes left out (each named among `problems`): a row or a setting that fails the check a restore makes.
    public var leftOut = 0
    /// What the merge decided that a person should know (an edit of a deleted row).
    public var notes: [String] = []

    public init() {}

    /// This report and a later one, as one: what both did, the later's devices.
    public func adding(_ later: SyncReport) -> SyncReport {
        var sum = later
        sum.sent += sent
        sum.received += received
        sum.leftOut += leftOut
        sum.from = from + later.from.filter { !from.contains($0) }
        sum.problems = Array((problems + later.problems.filter { !problems.contains($0) }).suffix(50))
        sum.notes = Array((notes + later.notes).suffix(50))
        return sum
    }

    /// The most devices a sentence names; past it, it counts them ("from 2000 devices"), so a note or a `history`
    /// entry stays a line however many devices write to the folder.
    public static let devicesNamed = 3

    /// The devices `names` as a sentence says where changes came from: "laptop and desktop", or "2000 devices".
    public static func sentence(from names: [String]) -> String {
        names.count > devicesNamed ? counted(names.count, "device") : names.joined(separator: " and ")
    }

    /// Whether the report says anything a person has not been told: rows came, went out, or were left out, or a note or problem.
    public var hasNews: Bool { sent > 0 || received > 0 || leftOut > 0 || !problems.isEmpty || !notes.isEmpty }
}

/// What one device's folder holds past what was applied here: its files by range, to be read in order, a
/// file that cannot be read passed over for another that covers the same changes (`SyncWorker.read`).
struct PeerPlan {
    let peer: String
    let folder: SafeFolder
    /// How its files open (sealed in a private folder).
    let files: FolderFiles
    /// The device's changes applied here.
    let applied: Int
    /// The key pinned for the device, if any.
    let pinned: [UInt8]?
    /// Its segments, by first change (then longest first), and its checkpoints, latest first: those past `applied`.
    var segments: [SyncFile] = []
    var checkpoints: [SyncFile] = []
    /// How many changes the files hold past what was applied here, at most (a checkpoint's count is a bound).
    var changes = 0
    /// The last change the files name.
    var available = 0
}

/// A segment or checkpoint in a device's folder, by its name's range.
struct SyncFile: Equatable {
    let name: String
    let first: Int
    let last: Int
    let checkpoint: Bool

    /// How far a device's changes reach from `applied` through `files` that follow on without a gap (a checkpoint
    /// starts at 1): what `sync` counts as "not read yet". A file past a gap waits for changes its folder may never
    /// hold (a bogus name, a file lost), so it is not counted as waiting.
    static func reach(from applied: Int, through files: [SyncFile]) -> Int {
        var reach = applied
        for file in files.sorted(by: { $0.first < $1.first }) where file.first <= reach + 1 {
            reach = max(reach, file.last)
        }
        return reach
    }
}
