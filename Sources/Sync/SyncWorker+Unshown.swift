import Foundation

/// What the automatic syncs did, kept until a person is shown it (DESIGN §8, When).
extension SyncWorker {
    /// Where what the automatic syncs did waits to be shown (in the database: a `-c` run syncs, the next shows it).
    static let unshownMark = "sync.unshown"

    /// Adds an automatic sync's report to what waits to be shown.
    func keepUnshown(_ report: SyncReport) throws {
        try store.write(notifying: false) { connection in
            let held = try SyncLedger.meta(Self.unshownMark, in: connection).flatMap { try? JSONDecoder().decode(SyncReport.self, from: Data($0.utf8)) }
            var sum = held.map { $0.adding(report) } ?? report
            sum.devices = []
            try SyncLedger.setMeta(Self.unshownMark, String(decoding: try JSONEncoder().encode(sum), as: UTF8.self), in: connection)
        }
    }

    /// What the automatic syncs did since it was last shown, forgotten as it is taken; nil for nothing.
    func takeUnshown() throws -> SyncReport? {
        guard try store.read({ try SyncLedger.meta(Self.unshownMark, in: $0) }) != nil else { return nil }
        return try store.write(notifying: false) { connection in
            // Unreadable (written by another Trend): nothing to show, and it goes.
            let held = try SyncLedger.meta(Self.unshownMark, in: connection).flatMap { try? JSONDecoder().decode(SyncReport.self, from: Data($0.utf8)) }
            try connection.run("DELETE FROM meta WHERE key = ?", [.text(Self.unshownMark)])
            return held
        }
    }

    /// Whether a sync has anything of this device's to send: changes to stamp, or lines not yet in a segment.
    func hasChangesToSend() throws -> Bool {
        try store.read { try Self.outgoing(in: $0) }.hasChanges
    }
}
