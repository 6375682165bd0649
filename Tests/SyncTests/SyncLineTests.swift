import Foundation
import Storage
import Testing
@testable import Sync
import Vocabulary

/// A change line laid out as Trend writes it is read without naming its members, and with the texts it
/// shares with the line before taken from it (`SyncChange.canonical`); any other line is read member by
/// member. Both must give the change `byMembers` gives for the same bytes, line after line.
@Suite struct SyncLineTests {
    static let texts = ["", "a", "015d3ef7-9800-7162-bdc7-9c3dfc73160f", "naïve ✓ 🏃", "say \"hi\"\n\\", "tab\there", "\u{1}", "c.id", "Read"]

    static func value(_ random: inout SplitMix64) -> SQLValue {
        switch random.next() % 6 {
        case 0: .null
        case 1: .int(Int(truncatingIfNeeded: random.next() % 3_000_000_000_000) - 1_000_000_000_000)
        case 2: .double([79.1, -0.0, 1e17, 0.1, 123456.789, -2.5e-8][Int(random.next() % 6)])
        default: .text(texts[Int(random.next() % UInt64(texts.count))])
        }
    }

    static func change(_ random: inout SplitMix64) -> SyncChange {
        let tables = [("weight_entries", ["body_fat", "id", "instant", "kilograms", "note", "typed_unit"], 1),
                      ("habit_records", ["day", "habit_id", "note", "status", "value"], 2), ("settings", ["key", "value"], 1)]
        let (table, allColumns, keyCount) = tables[Int(random.next() % 3)]
        let key = (0..<keyCount).map { _ in random.next() % 5 == 0 ? value(&random) : .text(texts[2]) }
        let clock = SyncClock(ms: 1_796_261_146_439 + Int(random.next() % 1000), counter: Int(random.next() % 3),
                              origin: random.next() % 4 == 0 ? "other-origin" : "f144d452-3d0b-4a6a-9c43-ae46e87361d1")
        var image = RowImage()
        // Most rows carry every column, their key's text in one of them; some a few columns only.
        for column in allColumns where random.next() % 8 != 0 { image[column] = value(&random) }
        if random.next() % 2 == 0, let first = key.first { image[allColumns[1]] = first }
        // Some columns carry an older clock of their own (a change that set the others), some lines an older tombstone.
        var older = ColumnClocks()
        for column in image.columns where random.next() % 3 == 0 {
            older[column] = SyncClock(ms: clock.ms - 1 - Int(random.next() % 100), counter: Int(random.next() % 3), origin: "other-origin")
        }
        if random.next() % 6 == 0 { older[ColumnClocks.tombstone] = SyncClock(ms: clock.ms - 200, counter: 0, origin: "third") }
        switch random.next() % 5 {
        case 0:
            older[ColumnClocks.tombstone] = nil
            return SyncChange(table: table, key: key, clock: clock, operation: .delete(random.next() % 2 == 0 ? RowImage() : image), older: older)
        case 1: return SyncChange(table: table, key: key, clock: clock, operation: .add(Double(random.next() % 7) - 2.5, image), older: older)
        default: return SyncChange(table: table, key: key, clock: clock, operation: .set(image), older: older)
        }
    }

    func bothWays(_ lines: [[UInt8]]) {
        #expect(!lines.isEmpty)
        var seen = SyncChange.Seen()
        for line in lines {
            let read = SyncChange.parse(line, seen: &seen)
            let expected = line.withUnsafeBytes { SyncChange.byMembers($0) }
            #expect(read == expected, "\(String(decoding: line, as: UTF8.self))")
        }
    }

    @Test func linesTrendWroteReadAsMemberByMember() {
        var random = SplitMix64(seed: 41)
        var lines: [[UInt8]] = []
        for _ in 0..<3_000 { lines.append(Array(Self.change(&random).line().utf8)) }
        bothWays(lines)
        // Most of them are changes (a key of null is none): the two ways were compared on changes, not on nils.
        #expect(lines.filter { line in line.withUnsafeBytes { SyncChange.byMembers($0) } != nil }.count > 2_500)
    }

    @Test func otherLayoutsAndLinesThatAreNoChangeReadAsMemberByMember() {
        let origin = "f144d452-3d0b-4a6a-9c43-ae46e87361d1"
        let base: String = #"{"t":"weight_entries","k0":"a","ms":1796261146439,"n":0,"o":"\#(origin)","op":"set","c.id":"a","c.kilograms":80.4}"#
        let replacements: [(String, String)] = [
            (",", ", "),
            (#""c.id""#, #""c.i\u0064""#),
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"c.kilograms":81"#),
            ("80.4", "true"),
            (#""op":"set""#, #""op":"del""#),
            ("1796261146439", "1796261146439.5"),
            (#""n":0"#, #""n":-1"#),
            (#""k0":"a""#, #""k0":null"#),
            (#""op":"set""#, #""op":"add","amount":1e400"#),
            (#""op":"set""#, #""op":"add","amount":2"#),
            (#""c.id""#, #""x.id""#),
            (#""c.id":"a""#, #""c.id":"a\"b""#),
            (#""c.id""#, #""c.""#),
            (#""t":"weight_entries""#, #""t":"weight_\u0065ntries""#),
            // Column clocks: one older than the change's, one not older (no change), one naming no column, one malformed.
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"v":"kilograms=1796261146438.0.other""#),
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"v":"kilograms=1796261146440.0.other""#),
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"v":"note=1796261146438.0.other""#),
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"v":"kilograms=1796261146438.0""#),
            (#""c.kilograms":80.4"#, #""c.kilograms":80.4,"v":"-=1796261146000.0.other;kilograms=1796261146438.0.other""#),
        ]
        var variants: [String] = replacements.map { base.replacingOccurrences(of: $0.0, with: $0.1) }
        variants.append(#"{"k0":"a","t":"weight_entries","ms":1796261146439,"n":0,"o":"\#(origin)","op":"set","c.id":"a"}"#)
        variants.append(#"{"t":"weight_entries","k0":"a","ms":1796261146439,"n":0,"o":"\#(origin)","op":"del"}"#)
        variants.append("[" + base + "]")
        variants.append(base + " ")
        variants.append(String(base.dropLast()))
        // Each variant after the base line, so the base's texts are the ones seen.
        bothWays(variants.flatMap { [Array(base.utf8), Array($0.utf8)] })
    }
}
