import CommandLanguage
import Testing
@testable import TrendREPL

/// Issue 28, item 1 and issue 32's quoting: text with accents, emoji and CJK
/// is measured in terminal columns, and the tokenizer reads `\"` and `\\` in
/// double quotes as a shell does.
@Suite struct TypedTextTests {
    @Test(arguments: [
        ("Read", 4), ("Café", 4), ("Cafe\u{301}", 4), ("☕", 2), ("📚 Read", 7), ("読書", 4),
        ("👩‍💻", 2), ("❤️", 2), ("🇫🇷", 2), ("\u{1B}[1mbold\u{1B}[0m", 4), ("✓ ○ – ·", 7),
    ])
    func textIsMeasuredInTerminalColumns(text: String, columns: Int) {
        #expect(TerminalText.columns(text) == columns)
    }

    @Test func paddingAndCuttingCountColumnsNotCharacters() {
        #expect("読書".rightPadded(to: 6) == "読書  ")
        #expect("☕".leftPadded(to: 3) == " ☕")
        #expect(TerminalText.cut("読書読書", to: 5) == "読書…")
        #expect(TerminalText.columns(TerminalText.cut("📚📚📚 Read", to: 6)) <= 6)
        #expect(TerminalText.cut("Café", to: 4) == "Café")
    }

    @Test func aLongWideWordIsWrappedWithinTheWidth() {
        let wrapped = TerminalText.wrapped(String(repeating: "読", count: 30), width: 21)
        #expect(wrapped.split(separator: "\n").allSatisfy { TerminalText.columns(String($0)) <= 21 }, "\(wrapped)")
    }

    @Test func quotesAndBackslashesInsideDoubleQuotesReadAsAShellReadsThem() throws {
        #expect(try CommandTokenizer.tokenize(#"note "say \"hi\"""#) == ["note", #"say "hi""#])
        #expect(try CommandTokenizer.tokenize(#"a "back\\slash" 'single \"'"#) == ["a", #"back\slash"#, #"single \""#])
        #expect(try CommandTokenizer.tokenize(#""C:\data\x.csv""#) == [#"C:\data\x.csv"#])
        // What `quoted` writes reads back as the word it quoted.
        for word in [#"say "hi""#, #"back\slash"#, "📚 Read", #"a\"b"#] {
            #expect(try CommandTokenizer.tokenize(CommandTokenizer.quoted(word)) == [word])
        }
    }

    @Test(arguments: [
        ("habit done Ca", "habit done "), ("habit done \"Caf", "habit done "), ("habit done ", "habit done "),
        ("habit done 📚", "habit done "), ("weigh 80 note \"a b", "weigh 80 note "), ("hab", ""),
    ])
    func theLastWordStartsWhereItWasTyped(line: String, head: String) {
        #expect(String(line[..<CommandTokenizer.lastWordStart(line)]) == head)
    }

    @MainActor @Test func aLineCompletesWholeWhateverItsLastWordHolds() {
        var table = CommandCatalog.standard().completionTable
        table.vocabulary["habits"] = ["Café ☕", "読書", "📚 Read", "Drink water"]
        #expect(Completer.completeLine("habit done 読", table: table) == ["habit done 読書"])
        #expect(Completer.completeLine("habit done 📚", table: table) == [#"habit done "📚 Read""#])
        #expect(Completer.completeLine(#"habit done "Caf"#, table: table) == [#"habit done "Café ☕""#])
        #expect(Completer.completeLine(#"habit done "drink w"#, table: table) == [#"habit done "Drink water""#])
    }

    /// Issue 32, item 11: a note that is one quoted word reads its escapes as the tokenizer does.
    @Test func aQuotedNoteReadsItsEscapes() {
        #expect(CommandTokenizer.text(after: "note", in: #"edit 1a2b note "say \"hi\"""#) == #"say "hi""#)
        #expect(CommandTokenizer.text(after: "note", in: #"weigh 80 note "after the run" and more"#) == #""after the run" and more"#)
        #expect(CommandTokenizer.text(after: "note", in: "weigh 80 note 'single'") == "single")
        #expect(CommandTokenizer.text(after: "note", in: "weigh 80 note café ☕") == "café ☕")
    }
}
