/// Shared helpers for the test targets: isolated graphs on real SQLite,
/// a clock the test moves, temporary directories, and the built binary.
import Foundation

/// A clock a test sets and moves; Features read it through `currentDate`.
@MainActor
public final class TestClock {
    public var now: Date

    public init(_ now: Date) {
        self.now = now
    }

    public func advance(by interval: TimeInterval) {
        now = now.addingTimeInterval(interval)
    }

    public var currentDate: @MainActor () -> Date { { self.now } }
}

/// Scheduled waits a test fires by moving time (swift-nio's `advanceTime`):
/// `sleep(for:)` returns once `advance(by:)` has passed its deadline, or
/// throws when its task is cancelled. Nothing waits on the real clock.
@MainActor
public final class TestTimer {
    private var elapsed: Duration = .zero
    private var sleepers: [Int: (deadline: Duration, continuation: CheckedContinuation<Void, any Error>)] = [:]
    private var nextID = 0

    public init() {}

    /// How many waits have not fired yet.
    public var pending: Int { sleepers.count }

    public func advance(by interval: Duration) {
        elapsed += interval
        for (id, sleeper) in sleepers where sleeper.deadline <= elapsed {
            sleepers[id] = nil
            sleeper.continuation.resume()
        }
    }

    public func sleep(for duration: Duration) async throws {
        let id = nextID
        nextID += 1
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else {
                    sleepers[id] = (elapsed + duration, continuation)
                }
            }
        } onCancel: {
            Task { @MainActor in self.cancel(id) }
        }
    }

    private func cancel(_ id: Int) {
        sleepers.removeValue(forKey: id)?.continuation.resume(throwing: CancellationError())
    }

    /// The wait `AppEnvironment.backupSleep` takes.
    public var sleepFunction: @Sendable (Duration) async throws -> Void { { try await self.sleep(for: $0) } }
}

/// A fresh directory under the system temp folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("trend-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `text` as the file `name` in it (with a byte-order mark, or CRLF line ends, when asked): a file to import.
    public func file(_ name: String, _ text: String, bom: Bool = false, crlf: Bool = false) throws -> URL {
        let url = url.appendingPathComponent(name)
        var body = crlf ? text.replacingOccurrences(of: "\n", with: "\r\n") : text
        if bom { body = "\u{FEFF}" + body }
        try Data(body.utf8).write(to: url)
        return url
    }
}

/// Builds a date from local wall-clock parts in a named time zone.
public func date(_ text: String, zone: String = "UTC") -> Date {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: zone)
    formatter.dateFormat = text.count > 10 ? "yyyy-MM-dd HH:mm" : "yyyy-MM-dd"
    guard let parsed = formatter.date(from: text) else { preconditionFailure("bad test date \(text)") }
    return parsed
}

public func calendar(zone: String) -> Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
    calendar.firstWeekday = 2
    return calendar
}

/// SQL that takes a database back to before schema 11 (Trend 0.2.0 and
/// older): no journal tables, no journal triggers, no body fat column, no
/// habit checkpoints, no cache of weigh-in samples. A
/// test that rebuilds an older schema runs it first, as those versions never had them.
public let dropChangeJournalSQL: String = {
    let triggers = ["weight_entries", "habits", "habit_records", "settings"].flatMap { table in
        ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS journal_\(table)_\($0);" }
    }
    let checkpoints = ["mark_added", "mark_removed", "mark_changed", "habit_changed", "habit_removed"].map {
        "DROP TRIGGER IF EXISTS habit_checkpoints_after_\($0);"
    } + ["DROP TABLE IF EXISTS habit_checkpoints;"]
        + ["insert", "delete", "update"].map { "DROP TRIGGER IF EXISTS weight_samples_cache_after_\($0);" }
        + ["DROP TABLE IF EXISTS weight_samples_cache;"]
        + ["update", "delete"].map { "DROP TRIGGER IF EXISTS journal_appends_touched_by_\($0);" } + ["DROP TABLE IF EXISTS journal_appends;"]
    return (triggers + checkpoints + ["DROP TABLE IF EXISTS journal_rows;", "DROP TABLE IF EXISTS journal_changes;",
                        "DROP TABLE IF EXISTS journal_recording;", "ALTER TABLE weight_entries DROP COLUMN body_fat;"])
        .joined(separator: "\n")
}()
