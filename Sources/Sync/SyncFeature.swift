import Foundation
import Observation
import Storage

/// Several devices, one history (DESIGN §8): with a sync folder set, each
/// installation writes its changes there and reads the others' as it runs,
/// at launch, on becoming active, and before a command that reads shared
/// data. `onChange` refreshes every Feature when changes came in (wired in `AppModel`).
@MainActor
@Observable
public final class SyncFeature {
    @ObservationIgnored private let worker: SyncWorker
    @ObservationIgnored private let folder: @MainActor () async -> String?
    @ObservationIgnored private let deviceName: @MainActor () -> String
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    @ObservationIgnored private let onChange: @MainActor () async -> Void
    /// This device moved into a private folder: what it left there in plain elsewhere (the snapshot mirror) goes.
    @ObservationIgnored private let movedIn: @MainActor () async -> Void
    /// What the last sync did; nil before the first.
    public private(set) var last: SyncReport?
    /// Why the last automatic sync could not run, if it could not.
    public private(set) var failure: String?
    @ObservationIgnored private var warned: String?

    public init(storage: LocalDataStore, folder: @escaping @MainActor () async -> String?, deviceName: @escaping @MainActor () -> String,
                currentDate: @escaping @MainActor () -> Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
                movedIn: @escaping @MainActor () async -> Void = {}, onChange: @escaping @MainActor () async -> Void) {
        self.movedIn = movedIn
        worker = SyncWorker(store: storage, timeZone: timeZone)
        self.folder = folder
        self.deviceName = deviceName
        self.currentDate = currentDate
        self.onChange = onChange
    }


    /// Syncs now, as a person asked (`sync now`): this device's changes out, the others' in. Throws when the folder
    /// cannot be used. The report holds what the automatic syncs before it did too, not shown until now.
    @discardableResult
    public func syncNow() async throws -> SyncReport {
        let report = try await run()
        return try await worker.takeUnshown().map { $0.adding(report) } ?? report
    }

    /// What the automatic syncs did since it was last shown (`sync`), nil for nothing; shown, it is forgotten.
    public func takeUnshown() async throws -> SyncReport? {
        try await worker.takeUnshown()
    }

    private func run() async throws -> SyncReport {
        guard let folder = await folder() else { throw SyncError.noFolder }
        let report = try await worker.run(folder: URL(fileURLWithPath: folder), device: deviceName(), now: currentDate())
        if last != report { last = report }  // Observed: an unchanged report (nothing new) notifies no one.
        if failure != nil { failure = nil }
        warned = nil
        if report.received > 0 { await onChange() }
        return report
    }

    /// An automatic sync: what it did is kept until a person is shown it.
    private func runKeeping() async throws {
        let report = try await run()
        if report.hasNews { try await worker.keepUnshown(report) }
    }

    /// The automatic sync: does nothing without a sync folder, and never throws (`failure` says what went wrong).
    public func syncIfOn() async {
        guard await folder() != nil else { return }
        do {
            try await runKeeping()
        } catch {
            failure = "\(error)"
        }
    }

    /// The automatic sync at exit: only when this run has something of this device's to send (a command that
    /// changed nothing reads nothing more: the next launch reads the others' changes).
    public func sendIfChanged() async {
        guard await folder() != nil else { return }
        do {
            guard try await worker.hasChangesToSend() else { return }
            try await runKeeping()
        } catch {
            failure = "\(error)"
        }
    }

    /// Why the automatic sync failed, once for each new reason (the next command's warning); nil when it works.
    public func pendingWarning() -> String? {
        guard let failure, failure != warned else { return nil }
        warned = failure
        return failure
    }

    /// Leaves the sync, for `delete-all-data` on this device alone: the others are told in the folder (their data
    /// stays as it is), and this installation forgets the sync and takes a new id. The caller turns the folder off.
    public func leave() async throws {
        try await worker.leave(folder: await folder().map { URL(fileURLWithPath: $0) }, device: deviceName(), now: currentDate())
        last = nil
        failure = nil
    }

    /// Tells the others, with the sync that sends the deletes, that this device deleted all data everywhere.
    public func announceDeletedEverywhere() async throws {
        try await worker.announceDeletedAll(now: currentDate())
    }

    // MARK: Private sync (DESIGN §11)

    /// `set sync-folder`: a folder empty of other devices' files becomes private, with this device its first member;
    /// says what the folder is to this device.
    public func folderWasSet() async throws -> SyncFolderState {
        let state = try await worker.adopt(folder: try folderURL(), device: deviceName())
        rosterChanged()
        if state == .madePrivate { await movedIn() }
        return state
    }

    /// `sync private`: a plain folder becomes private; the code the next device joins with.
    public func makePrivate() async throws -> String {
        let code = try await worker.makePrivate(folder: try folderURL(), device: deviceName())
        await movedIn()
        _ = try await run()
        return code.text
    }

    /// `sync invite`: a code that lets one more device join.
    public func invite() async throws -> String {
        try await worker.invite(folder: try folderURL()).text
    }

    /// `sync join CODE`: this device becomes a member, then syncs.
    @discardableResult
    public func join(code text: String) async throws -> SyncReport {
        guard let code = InviteCode(text: text) else { throw SyncError.badCode }
        try await worker.join(folder: try folderURL(), code: code, device: deviceName())
        rosterChanged()
        await movedIn()
        return try await syncNow()
    }

    /// `sync devices`: the members of the private folder.
    public func members() async throws -> [SyncMember] {
        let (installation, members) = try await worker.members(folder: try folderURL(), device: deviceName())
        return members.map { SyncMember(installation: $0.installation, name: $0.name, isThisDevice: $0.installation == installation) }
    }

    /// `sync remove NAME`: the member goes; a new folder key is sealed to the others only.
    public func remove(member name: String) async throws -> SyncMember {
        let removed = try await worker.remove(folder: try folderURL(), member: name, device: deviceName())
        _ = try await run()
        return SyncMember(installation: removed.installation, name: removed.name, isThisDevice: false)
    }

    private func folderURL() async throws -> URL {
        guard let folder = await folder() else { throw SyncError.noFolder }
        return URL(fileURLWithPath: folder)
    }

    /// A command changed who belongs: the automatic sync's failure (not a member yet) is said again if it lasts.
    private func rosterChanged() {
        failure = nil
        warned = nil
    }

    /// What `sync` shows: the devices seen, what the merge decided, and what waits to be written. The devices
    /// as the last sync left them, which knows how far behind each is of the files its folder holds (a command
    /// syncs first); without one, as this device keeps them.
    public func status() async throws -> SyncStatus {
        let devices: [SyncDevice]
        if failure == nil, let last { devices = last.devices } else { devices = try await worker.devices() }
        return SyncStatus(folder: await folder(), device: deviceName(), devices: devices, notes: try await worker.notes(limit: 10),
                          unsent: try await worker.unsent(), last: last, failure: failure)
    }
}

/// A member of a private folder, as `sync devices` lists it.
public struct SyncMember: Sendable, Equatable {
    public let installation: String
    public let name: String
    public let isThisDevice: Bool
}

/// What `set sync-folder` found the folder to be for this device.
public enum SyncFolderState: Equatable, Sendable {
    /// Empty of other devices' files: made private, with this device its first member.
    case madePrivate
    /// Private, with this device a member.
    case member
    /// Private, and this device is not a member: it joins with a code.
    case privateNotMember
    /// Written by Trend 0.3 or earlier, in plain: it syncs as before until `sync private`.
    case plain
}

/// What `sync` shows.
public struct SyncStatus: Sendable, Equatable {
    public let folder: String?
    public let device: String
    public let devices: [SyncDevice]
    public let notes: [String]
    public let unsent: Int
    public let last: SyncReport?
    public let failure: String?
}

/// Why a sync was refused.
public enum SyncError: Error, Equatable, CustomStringConvertible, Sendable {
    case noFolder
    /// The folder is private and this device is not a member of it.
    case notMember
    /// The folder is plain (Trend 0.3), so there is nothing to invite to or remove from.
    case notPrivate
    case alreadyPrivate
    case alreadyMember
    /// This device's statements admit it to nothing the others' say (it was removed, or its join is not seen yet).
    case notAdmitted(unreadable: Int)
    case removed
    /// A code that is not one, that opens no invite in the folder, or one another device used.
    case badCode
    case noInvite
    case codeUsed
    case noSuchMember(String)
    case ambiguousMember(String)
    case cannotRemoveSelf

    public var description: String {
        switch self {
        case .noFolder: "no sync folder is set"
        case .notMember:
            "the sync folder is private, and this device is not a member of it: run 'sync invite' on a device that syncs there, "
                + "then 'sync join CODE' here; until then nothing is read from it or written to it"
        case .notPrivate: "the sync folder is not private (it was written by Trend 0.3 or earlier): 'sync private' seals it"
        case .alreadyPrivate: "the sync folder is private already"
        case .alreadyMember: "this device is a member of the sync folder already"
        case let .notAdmitted(unreadable):
            "this device is not a member of the private sync folder as the others' files say"
                + (unreadable > 0 ? " (\(unreadable) of them are sealed under a key it does not hold: it was removed, or a member has not synced since it joined)" : "")
                + "; its data stays here. To sync again, join with a new code: 'sync join CODE'"
        case .removed: "this device was removed from the private sync folder; its data stays here. To sync again, join with a new code: 'sync join CODE'"
        case .badCode: "that is not an invite code: a code reads 'trend-' and 32 letters and digits, as 'sync invite' prints it"
        case .noInvite:
            "no invite in the sync folder opens with that code: check it, wait for the folder to finish syncing, or make a new one with 'sync invite'"
        case .codeUsed: "that code was already used by another device: make a new one with 'sync invite' (a code lets one device join)"
        case let .noSuchMember(name): "no member of the sync folder is called '\(name)': 'sync devices' lists them"
        case let .ambiguousMember(name): "more than one member is called '\(name)': name it by the start of its id, as 'sync devices' shows"
        case .cannotRemoveSelf: "this device cannot remove itself: 'delete-all-data' leaves the sync"
        }
    }
}
