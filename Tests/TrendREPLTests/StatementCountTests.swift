import Foundation
import Storage
import Testing
import TestSupport
@testable import TrendREPL

/// Issue 27, item 5, and issue 49, item 1: what one `weigh 82.4` and one `habit done Read` cost in statements
/// SQLite runs, as a one-shot `trend -c …` runs them (a fresh graph, the session, the screen), on a database with
/// a month of weigh-ins and a habit.
@MainActor
@Suite struct StatementCountTests {
    /// The statements one command runs on a fresh graph over a month of weigh-ins and the habit Read.
    func statements(for line: String, after warming: String? = nil) async throws -> Int {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let setup = makeTestApp(store: LocalDataStore(directory: temp.url), directory: temp.url)
        for day in 0..<30 {
            setup.clock.now = date("2026-05-15 07:30").addingTimeInterval(Double(day) * 86_400)
            try await setup.app.weightEntryFeature.record(kilograms: 83 - Double(day) * 0.05)
        }
        _ = try await setup.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        setup.store.close()

        let store = LocalDataStore(directory: temp.url)
        let graph = makeTestApp(store: store, clock: TestClock(date("2026-06-15 08:00")), directory: temp.url)
        graph.app.applicationDidFinishLaunchingForCommands()
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        var before = 0
        if let warming {
            // The prompt's second command: what the first loaded is held, and only what changed is read again.
            #expect(await session.execute(warming).succeeded)
            before = store.statements.value
        }
        let result = await session.execute(line)
        #expect(result.succeeded, "\(result.text)")
        let counted = store.statements.value - before
        print("statements for '\(line)': \(counted)")
        return counted
    }

    @Test func oneWeighInRunsTheStatementsItNeeds() async throws {
        let counted = try await statements(for: "weigh 82.4")
        // Opening, the settings, the log's lean read and latest entries, the insert with its journal, the
        // check-in's tip deck and week: 77 before this stop (the log and the settings read twice: the first
        // write's switch to WAL looked like another process's change), 64 at stop 34, of which 25 ask `data_version`.
        // 2026-06-15 is a Monday: since stop 35 its review may name an association that became clear this week,
        // which asks the two logs once more whether they changed (4 statements): 68. Since stop 37 the
        // check-in shows the recent tape measures: their version asked and their one read (3): 71.
        // Issue 49: 48 at this round's start (1cc181e); 56 once the tip deck's dealing became a journaled change so
        // that it travels (9 statements of journal bookkeeping); 48 once a change's journal entry is made with
        // RETURNING and closed in one UPDATE (ChangeJournal.begin/finish: 4 statements fewer for every write).
        #expect(counted > 0)
        #expect(counted <= Self.bound, "weigh 82.4 ran \(counted) statements (bound \(Self.bound))")
    }

    static let bound = 48

    /// `habit done Read`: 28 statements at this round's start (1cc181e), 25 now (issue 49, item 1: the journal's
    /// bookkeeping, as above; the habits' names are read at the boundary and the habit's recent days by the mark).
    @Test func oneHabitMarkRunsTheStatementsItNeeds() async throws {
        let counted = try await statements(for: "habit done Read")
        #expect(counted > 0)
        #expect(counted <= Self.markBound, "habit done Read ran \(counted) statements (bound \(Self.markBound))")
    }

    static let markBound = 25

    /// Issue 64, item 2: at the prompt, a second `habit done` and a second `weigh` (the habit found once by the
    /// grammar and handed to the Feature, not looked up by name again).
    @Test func aWarmMarkAndAWarmWeighInRunTheStatementsTheyNeed() async throws {
        let mark = try await statements(for: "habit done Read yesterday", after: "habit done Read")
        #expect(mark > 0)
        #expect(mark <= Self.warmMarkBound, "a second habit done ran \(mark) statements (bound \(Self.warmMarkBound))")
        let weigh = try await statements(for: "weigh 82.2", after: "weigh 82.4")
        #expect(weigh > 0)
        #expect(weigh <= Self.warmWeighBound, "a second weigh ran \(weigh) statements (bound \(Self.warmWeighBound))")
    }

    /// 12 and 17 when first counted (2026-12-06): the mark's version check, its journaled write, the screen's read of
    /// the habit's days; the weigh-in's insert with its journal, and the check-in's reads of what changed.
    static let warmMarkBound = 12, warmWeighBound = 17
}
