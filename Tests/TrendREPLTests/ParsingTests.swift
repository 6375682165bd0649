@testable import CommandLanguage
import Habits
import Synchronization
import Testing
import TestSupport
import Vocabulary
@testable import TrendREPL
@testable import trend

@Suite struct ParsingTests {
    @Test func aDrawnRowLosesTheBlankCellsAtItsEndOnly() {
        #expect(TerminalText.trimmedAtEnd("  Mo ■ 3    \t ") == "  Mo ■ 3")
        #expect(TerminalText.trimmedAtEnd("   ") == "")
        #expect(TerminalText.trimmedAtEnd("\u{1B}[2m 9\u{1B}[0m") == "\u{1B}[2m 9\u{1B}[0m")
        #expect(TerminalText.trimmedAtEnd("") == "")
    }

    @Test func wordsSplitOnSpacesAndQuotesKeepThem() throws {
        #expect(try CommandTokenizer.tokenize(#"habit add "Drink water" every day"#) == ["habit", "add", "Drink water", "every", "day"])
        #expect(try CommandTokenizer.tokenize("  weigh   82.4  ") == ["weigh", "82.4"])
        #expect(try CommandTokenizer.tokenize(#"note 'it''s' a\ b """#) == ["note", "its", "a b", ""])
    }

    @Test func anUnterminatedQuoteNamesItsColumn() {
        #expect(throws: CommandTokenizer.UnterminatedQuote(column: 11)) {
            try CommandTokenizer.tokenize(#"habit add "Drink"#)
        }
    }

    @Test func jsonIsOneLineWithNullsAndEscapes() {
        let document = JSON.object([
            ("kilograms", .number(82.4)), ("whole", .number(80)), ("missing", .optional(nil as Double?)),
            ("notANumber", .number(.nan)), ("text", .string("a\"b\n\u{1}")), ("list", .array([.integer(1), .bool(true)])),
        ])
        #expect(document.encoded() == #"{"kilograms":82.4,"whole":80.0,"missing":null,"notANumber":null,"text":"a\"b\n\u0001","list":[1,true]}"#)
    }

    /// A listing's JSON written a page at a time is the document encoded whole, byte for byte, whatever its members
    /// hold (a range named `[]`, a note of brackets), with any number of elements.
    @Test func aStreamedArrayIsTheDocumentEncodedWhole() {
        let elements: [JSON] = [.object([("note", .string("[] and ]["))]), .integer(2), .array([]), .string("}")]
        for members: [(String, JSON)] in [[], [("range", .string("[]"))], [("range", .string("1m")), ("count", .integer(3))]] {
            for count in 0...elements.count {
                let frame = JSON.streamedArray(after: members, key: "entries")
                let streamed = count == 0 ? JSON.object(members + [("entries", .array([]))]).encoded()
                    : frame.opening + elements.prefix(count).map { $0.encoded() }.joined(separator: ",") + frame.closing
                #expect(streamed == JSON.object(members + [("entries", .array(Array(elements.prefix(count))))]).encoded())
            }
        }
    }

    /// Issue 64, item 4: the weekdays are named once (Vocabulary's `Weekday`) and read the same by `WHEN` and by a
    /// habit's schedule.
    @Test func aWeekdayIsReadTheSameEverywhere() throws {
        for (word, index) in [("mon", 0), ("TUES", 1), ("wed", 2), ("thurs", 3), ("Friday", 4), ("sat", 5), ("sun", 6)] {
            #expect(Weekday.index(of: word) == index, "\(word)")
            #expect(try WhenInput.parse([word][...])?.0 == .relative(.weekday(index), hour: nil, minute: nil), "\(word)")
        }
        for word in ["fr", "fries", "weekday", ""] { #expect(Weekday.index(of: word) == nil, "\(word)") }
        #expect(HabitSchedule(text: "mon,wed,fri")?.code == "weekdays:mon,wed,fri")
        #expect(DayNumber.weekdayName(0) == "Thu" && Weekday.plurals[6] == "Sundays")
    }

    @Test func optionsParseEveryFlag() throws {
        let options = try TrendOptions.parse(["--data-dir", "/tmp/x", "--json", "--no-color", "-c", "today", "-c", "streak"])
        #expect(options.dataDirectory == "/tmp/x")
        #expect(options.json && options.noColor)
        #expect(options.commands == ["today", "streak"])
        #expect(try TrendOptions.parse(["--version"]).showVersion)
        #expect(throws: TrendOptions.UsageError.self) { try TrendOptions.parse(["-c"]) }
        // --color as ls and grep take it.
        #expect(try TrendOptions.parse(["--color", "always"]).forceColor)
        #expect(try TrendOptions.parse(["--color", "never"]).noColor)
        #expect(try !TrendOptions.parse(["--color", "auto"]).noColor)
        #expect(throws: TrendOptions.UsageError.self) { try TrendOptions.parse(["--color", "sometimes"]) }
        #expect(throws: TrendOptions.UsageError(message: "unknown option '--colour-me'")) { try TrendOptions.parse(["--colour-me"]) }
    }

    @MainActor
    @Test func completionOffersCommandsSubcommandsAndNames() {
        var table = CommandCatalog.standard().completionTable
        table.vocabulary["habits"] = ["Read", "Drink water"]
        #expect(Completer.complete("se", table: table) == ["set", "settings"])
        #expect(Completer.complete("set u", table: table) == ["unit"])
        #expect(Completer.complete("set unit ", table: table) == ["kg", "lb", "st"])
        #expect(Completer.complete("habit d", table: table) == ["done", "delete"])
        #expect(Completer.complete("habit done dr", table: table) == [#""Drink water""#])
        #expect(Completer.complete("help sett", table: table) == ["settings"])
        #expect(Completer.complete("nonsense x", table: table) == [])
    }

    /// Each command is declared once (`CommandSyntax`): its usage line and its completion both come from it.
    @MainActor
    @Test func theUsageLineAndTheCompletionComeFromOneDeclaration() {
        let catalog = CommandCatalog.standard()
        let usage = Dictionary(uniqueKeysWithValues: catalog.commands.map { ($0.name, $0.usage) })
        #expect(usage["weigh"] == "weigh WEIGHT [UNIT] [WHEN] [fat PERCENT] [note TEXT]")
        #expect(usage["edit"] == "edit ID [WEIGHT|LENGTH] [at WHEN] [note TEXT|no note]")
        #expect(usage["restore"] == "restore latest|previous|weekly YYYY-Www|before-restore NAME|sync ID|FILE [merge] [skip-invalid]")
        #expect(usage["habit"] == "habit add|done|undo|show|… NAME")
        #expect(usage["set"] == "set KEY VALUE")
        #expect(usage["today"] == "today" && usage["habits"] == "habits [all]")
        var table = catalog.completionTable
        table.vocabulary["weekly"] = ["2026-W47", "2026-W48"]
        // What follows a weight: a unit, a WHEN or a note; after a unit, no unit again.
        #expect(Completer.complete("weigh 82.4 ", table: table) == ["kg", "lb", "st", "today", "yesterday", "fat", "note"])
        #expect(Completer.complete("weigh 82.4 kg ", table: table) == ["today", "yesterday", "fat", "note"])
        #expect(Completer.complete("weigh 82.4 kg today ", table: table) == ["fat", "note"])
        // A subcommand's own values: the weekly snapshots after `weekly`, the options after a name.
        #expect(Completer.complete("restore weekly 2026-W47", table: table) == ["2026-W47"])
        #expect(Completer.complete("restore weekly 2026-W47 ", table: table) == ["merge", "skip-invalid"])
        #expect(Completer.complete("restore latest m", table: table) == ["merge"])
        #expect(Completer.complete("today ", table: table) == [])
    }

    @MainActor
    @Test func aCommandThatTakesNothingRefusesWordsFromItsDeclaration() async throws {
        let graph = makeTestApp()
        let session = ReplSession(app: graph.app, json: false, style: .plain, isInteractive: false)
        for line in ["today now", "undo 2", "streak please", "status x"] {
            let result = await session.execute(line)
            #expect(!result.succeeded && result.text.contains("takes no arguments"), "\(line): \(result.text)")
        }
        #expect(await session.execute("today").succeeded)
    }

    @MainActor
    @Test func aMistypedCommandSuggestsTheClosestOne() {
        let catalog = CommandCatalog.standard()
        #expect(catalog.closest(to: "setings") == "settings")
        #expect(catalog.closest(to: "hlep") == "help")
        #expect(catalog.closest(to: "xyzzyplugh") == nil)
        // Issue 15's polish: a beginning wins over a near word, a swap is one slip, and no wild guesses.
        #expect(catalog.closest(to: "hab") == "habit")
        #expect(catalog.closest(to: "wiegh") == "weigh" && catalog.closest(to: "tdoay") == "today")
        #expect(catalog.closest(to: "foo") == nil && catalog.closest(to: "xyzzy") == nil && catalog.closest(to: "clera") == "clear")
    }
}

/// Issue 15: the 14-day trend as a sparkline on today.
@MainActor
@Suite struct SparklineTests {
    @Test func theTrendBecomesBlocksLowestToHighest() {
        #expect(TodayViewModel.sparkline([nil, 80, 81, 82, 83]) == "▁▃▆█", "it starts where the trend does, so its length is its days")
        #expect(TodayViewModel.sparkline([80, nil, 82]) == "▁ █", "a day without a trend inside it stays a gap")
        #expect(TodayViewModel.sparkline([80, 80, 80]) == "▄▄▄", "flat is the middle row")
        #expect(TodayViewModel.sparkline([nil, 80]) == nil, "one day is no line")
    }
}

/// One value is both the JSON document and the text (`CommandAnswer`): the encoder keeps the members' order
/// and writes a missing optional as `null`, as the hand-built documents did.
@Suite struct CommandAnswerTests {
    struct Sample: CommandAnswer {
        let name: String
        let count: Int
        let kilograms: Double
        let note: String?
        let days: [Day]
        struct Day: Encodable { let date: String; let done: Bool }

        func text(style: TerminalStyle) -> String { "\(name): \(count)" }
    }

    @Test func anAnswerIsEncodedInItsOwnOrderWithNulls() {
        let sample = Sample(name: "Read", count: 3, kilograms: 82, note: nil, days: [.init(date: "2026-11-30", done: true)])
        #expect(JSON(encoding: sample).encoded()
            == #"{"name":"Read","count":3,"kilograms":82.0,"note":null,"days":[{"date":"2026-11-30","done":true}]}"#)
        let output = CommandOutput(sample, style: .plain)
        #expect(output.text == "Read: 3" && output.json == JSON(encoding: sample))
        // A document built by hand inside an answer stays as it was built.
        let nested = JSON.object([("b", .integer(1)), ("a", .null)])
        #expect(JSON(encoding: nested).encoded() == #"{"b":1,"a":null}"#)
    }

    /// An answer that counts how often each of its forms is made.
    struct Counted: CommandAnswer {
        final class Counts: Sendable {
            let made = Mutex((text: 0, json: 0))
        }
        let counts: Counts

        func text(style: TerminalStyle) -> String {
            counts.made.withLock { $0.text += 1 }
            return "counted"
        }

        func encode(to encoder: any Encoder) throws {
            counts.made.withLock { $0.json += 1 }
            var container = encoder.singleValueContainer()
            try container.encode("counted")
        }
    }

    /// Issue 49: an answer is made only in the form that is read; a prompt never encodes the JSON it does not print
    /// (`habit show`'s 60 days cost 0.4 ms to encode), and `--json` never lays out the text.
    @Test func anAnswerIsMadeOnlyInTheFormThatIsRead() {
        let counts = Counted.Counts()
        var output = CommandOutput(Counted(counts: counts), style: .plain, warnings: ["kept"])
        #expect(counts.made.withLock { $0 } == (0, 0))
        #expect(output.text == "counted" && counts.made.withLock { $0 } == (1, 0))
        #expect(output.json == .string("counted") && counts.made.withLock { $0 } == (1, 1))
        // Changing one form keeps the other as it read.
        output.text += "!"
        #expect(output.text == "counted!" && output.json == .string("counted") && output.warnings == ["kept"])
    }

    /// Issue 28, item 8: every command has examples that are lines one can type, and `help` fits a 24-row terminal at any width.
    @MainActor
    @Test func everyCommandHasExamplesAndHelpFitsTwentyFourRows() async throws {
        let catalog = CommandCatalog.standard()
        for spec in catalog.commands {
            #expect(!spec.examples.isEmpty, "\(spec.name) has no example")
            for example in spec.examples {
                let words = try CommandTokenizer.tokenize(example)
                #expect(catalog.command(named: words.first ?? "")?.name == spec.name, "\(spec.name): '\(example)'")
            }
        }
        #expect(Set(catalog.groups.flatMap(\.commands).map(\.name)).count == catalog.commands.count)
        for width in [40, 60, 80] {
            let session = ReplSession(app: makeTestApp().app, json: false, style: TerminalStyle(colors: false, width: width, wraps: true), isInteractive: false)
            let help = await session.execute("help")
            let rows = help.text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(help.succeeded && rows.count <= 24 && rows.allSatisfy { TerminalText.columns(String($0)) <= width }, "\(width): \(rows.count) rows")
            for command in catalog.commands.map(\.name) { #expect(help.text.contains(command), "\(command) is not in help") }
            let all = await session.execute("help all")
            for spec in catalog.commands { #expect(all.text.contains(spec.name), "\(spec.name) is not in help all") }
        }
        let session = ReplSession(app: makeTestApp().app, json: false, style: .plain, isInteractive: false)
        let group = await session.execute("help files")
        #expect(group.succeeded && group.text.hasPrefix("Files:") && group.text.contains("export FILE"))
        let habits = await session.execute("help habits")
        #expect(habits.text.contains("examples:") && habits.text.contains("see also: habit"))
        let unknown = await session.execute("help hlep")
        #expect(!unknown.succeeded && unknown.text.contains("did you mean 'help help'?"))
    }
}
