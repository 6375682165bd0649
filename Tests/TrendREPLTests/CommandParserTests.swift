import Foundation
import Backup
import Habits
import Testing
import TestSupport
import Vocabulary
@testable import TrendREPL

/// Issue 27, item 4: a command is declared once and parsed once. Its `CommandSyntax` reads the
/// words into values by placeholder, through the domain grammars (`WeightInput`, `WhenInput`,
/// `DayRange`, `HabitPlan`, `MeasureInput`); the ViewModel gets a typed request and never reads the
/// words again; a line no reading takes is refused from the same declaration, naming the word.
@MainActor
@Suite struct CommandParserTests {
    func session() -> ReplSession {
        ReplSession(app: makeTestApp(clock: TestClock(date("2026-06-15 08:00"))).app, json: false, style: .plain, isInteractive: false)
    }

    @Test func aWeighInIsReadIntoItsRequestWithTheUnitItWasTypedIn() async throws {
        let session = session()
        let request = try WeighRequest(try await session.arguments(of: #"weigh 181.6 lb fat 23.5% yesterday note after the "long" run"#))
        #expect(request.unit == .pounds && abs(request.kilograms - 82.37) < 0.01)
        #expect(request.typedNumber == "181.6")
        #expect(request.bodyFatPercent == 23.5)
        #expect(try request.when == WhenInput.parse(["yesterday"])?.0)
        #expect(request.note == #"after the "long" run"#)
        // The same parts in the other order the declaration allows (`[WHEN] [fat PERCENT]` in any order).
        let other = try WeighRequest(try await session.arguments(of: "weigh 12st 6lb yesterday fat 24"))
        #expect(other.unit == .stones && other.bodyFatPercent == 24 && other.when == request.when && other.note == nil)
        // A bare number is in the person's unit.
        #expect(try WeighRequest(try await session.arguments(of: "weigh 82.4")).unit == .kilograms)
    }

    @Test func everydayRangesSubcommandAliasesAndKeysAreReadByTheDeclaration() async throws {
        let session = session()
        let entries = try await session.arguments(of: "entries last week")
        #expect(entries[.range]?.name == "2026-06-08..2026-06-14")
        let summary = try await session.arguments(of: "summary month")
        #expect(summary[.periods] != nil)
        let set = try await session.arguments(of: "set units lb")
        #expect(set.subcommand == "unit" && set[.setting] == "unit" && set[.settingValue] == "lb")
        let restore = try await session.arguments(of: "restore sync 1a2b skip-invalid merge")
        #expect(restore.has("merge") && restore.has("skip-invalid") && restore[.installation] == "1a2b")
        #expect(try RestoreSource(restore) == .sync("1a2b"))
        let member = try await session.arguments(of: "import family.csv member Alex Smith preview")
        #expect(member[.member] == "Alex Smith" && member[.preview] == "preview")
    }

    @Test func aHabitsNameOfSeveralWordsIsTheLongestThatNamesOne() async throws {
        let session = session()
        #expect(await session.execute("habit add Drink water every day target 8").succeeded)
        let added = try await session.arguments(of: "habit add Morning walk 3/week")
        let (name, plan) = try #require(added[.namedPlan])
        #expect(name == "Morning walk" && plan.schedule == HabitSchedule(text: "3/week"))
        let done = try await session.arguments(of: "habit check Drink water yesterday +2 note felt good")
        #expect(done.subcommand == "done")
        #expect(done[.habit]?.name == "Drink water")
        #expect(done[.markValue].map { $0.number == 2 && $0.adding } == true)
        #expect(done[.text] == "felt good")
        guard case let .mark(habit, mark, _, adding, note) = try HabitRequest(done) else {
            Issue.record("not a mark")
            return
        }
        #expect(habit.name == "Drink water" && mark == .value(2) && adding && note == "felt good")
    }

    @Test func anEditsAmountIsReadAsTheKindOfWhatItsIdNames() async throws {
        let session = session()
        #expect(await session.execute("measure waist 84 cm").succeeded)
        #expect(await session.execute("weigh 82.4").succeeded)
        let measurement = try #require(try await session.app.measurementsFeature.measurements(in: .allTime, kind: nil).first)
        let length = try EditRequest(try await session.arguments(of: "edit \(measurement.shortID) 33 in at yesterday"))
        guard case let .length(value)? = length.amount else {
            Issue.record("a measurement's amount is a length")
            return
        }
        #expect(value.unit == .inches && abs(value.centimetres - 83.82) < 1e-9 && length.when != nil)
        let weight = try EditRequest(try await session.arguments(of: "edit last 181 lb no note"))
        guard case let .weight(reading)? = weight.amount, case .weighIn = weight.target else {
            Issue.record("a weigh-in's amount is a weight")
            return
        }
        #expect(reading.unit == .pounds && weight.note == .clear)
    }

    /// A refusal says what was wrong and where, from the declaration, and changes nothing.
    @Test func aLineNoReadingTakesIsRefusedNamingTheWord() async throws {
        let session = session()
        let cases: [(String, String)] = [
            ("weigh", "weigh: needs a weight"),
            ("weigh 80 fat lots", "weigh: 'fat' needs a percent after it, not 'lots'"),
            ("weigh 80 tomorrow", "did not understand 'tomorrow' where WHEN, 'fat' or 'note' goes"),
            ("entries fortnight", "entries: 'fortnight' is not a RANGE; RANGE is 2w"),
            ("history 0", "history: '0' is not a count; a number from 1 to 1000"),
            ("set colour red", "set: 'colour' is not a setting; the settings are unit, measure-unit"),
            ("habit done", "habit: 'done' needs a habit's name after it; usage: habit done NAME [WHEN] [VALUE] [note TEXT]"),
            ("habit rename", "habit: 'rename' needs a habit's name after it; usage: habit rename NAME NEW"),
            ("backup later", "backup: 'later' is not one of status, now, list"),
            ("today now", "today: takes no arguments"),
        ]
        for (line, message) in cases {
            let result = await session.execute(line)
            #expect(!result.succeeded && result.text.contains(message), "\(line): \(result.text)")
        }
        #expect(try await session.app.weightEntryFeature.allEntries().isEmpty)
        #expect(session.app.habitsFeature.habits.isEmpty)
    }
}
