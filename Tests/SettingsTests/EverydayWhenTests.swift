import Foundation
import Testing
import TestSupport
import Vocabulary

/// Issue 28, item 8: the times and dates people type, read as the plain forms.
@Suite struct EverydayWhenTests {
    /// Wednesday 20 May 2026, 09:00 UTC.
    let now = date("2026-05-20 09:00")
    let utc = calendar(zone: "UTC")

    func moment(_ text: String) throws -> (String, Int)? {
        let words = text.split(separator: " ").map(String.init)
        guard let (when, used) = try WhenInput.parse(words[...]) else { return nil }
        let date = try when.resolve(now: now, calendar: utc)
        return (LocalDays(timeZone: utc.timeZone).localMinute(date), used)
    }

    @Test func partsOfTheDayAndClockTimes() throws {
        #expect(try moment("this morning")! == ("2026-05-20 07:00", 2))
        #expect(try moment("yesterday morning")! == ("2026-05-19 07:00", 2))
        #expect(try moment("yesterday evening")! == ("2026-05-19 19:00", 2))
        #expect(try moment("at 7am")! == ("2026-05-20 07:00", 2))
        #expect(try moment("7:30am note x")! == ("2026-05-20 07:30", 1))
        #expect(try moment("yesterday 7:30pm")! == ("2026-05-19 19:30", 2))
        #expect(try moment("yesterday 7 pm")! == ("2026-05-19 19:00", 3))
        #expect(try moment("last fri at 6:45am")! == ("2026-05-15 06:45", 4))
        #expect(try moment("12am")! == ("2026-05-20 00:00", 1))
        #expect(throws: WhenInputError.impossible("13pm")) { try moment("13pm") }
        #expect(throws: WhenInputError.future("2026-05-20 21:00")) { try moment("tonight") }
    }

    @Test func monthNamesAndSlashes() throws {
        #expect(try moment("apr 12")! == ("2026-04-12 12:00", 2))
        #expect(try moment("12 April 07:15")! == ("2026-04-12 07:15", 3))
        #expect(try moment("april 12 2025")! == ("2025-04-12 12:00", 3))
        // Without a year: the latest such date that is not after today.
        #expect(try moment("may 30")! == ("2025-05-30 12:00", 2))
        #expect(try moment("25/04/2026")! == ("2026-04-25 12:00", 1) && (try moment("04/25/2026")!) == ("2026-04-25 12:00", 1))
        #expect(throws: WhenInputError.ambiguous("12/04/2026")) { try moment("12/04/2026") }
        #expect(throws: WhenInputError.impossible("2026-02-30")) { try moment("feb 30") }
        #expect(try moment("note after the run") == nil && (try moment("82 kg")) == nil && (try moment("may")) == nil)
    }
}
