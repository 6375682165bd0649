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
    /// What the last sync did; nil before the first.
    public private(set) var last: SyncReport?
    /// Why the last automatic sync could not run, if it could not.
    public private(set) var failure: String?
    @ObservationIgnored private var warned: String?

    public init(storage: LocalDataStore, folder: @escaping @MainActor () async -> String?, deviceName: @escaping @MainActor () -> String,
                currentDate: @escaping @MainActor () -> Date, timeZone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
                onChange: @escaping @MainActor () async -> Void) {
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

    public var description: String {
        switch self {
        case .noFolder: "no sync folder is set"
        }
    }
}
