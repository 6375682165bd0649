import Testing
import Vocabulary

/// Issue 28, item 8: the words people type for a span (`progress 2 weeks`,
/// `entries last week`, `summary last month`) name the same RANGE as its short form.
@Suite struct SpokenRangeTests {
    /// Wednesday 2 December 2026.
    let today = DayNumber.from(year: 2026, month: 12, day: 2)

    func spoken(_ text: String) -> String? { DayRange.spoken(text.split(separator: " ").map(String.init), today: today) }

    @Test func countsOfDaysWeeksMonthsAndYears() {
        #expect(spoken("2 weeks") == "2w" && spoken("1 month") == "1m" && spoken("a month") == "1m" && spoken("10 days") == "10d")
        #expect(spoken("last 3 months") == "3m" && spoken("past 10 days") == "10d" && spoken("3 Years") == "3y")
        #expect(spoken("past week") == "1w")
    }

    @Test func calendarWeeksMonthsAndYears() {
        #expect(spoken("last week") == "2026-11-23..2026-11-29")
        #expect(spoken("this week") == "2026-11-30..2026-12-02")
        #expect(spoken("last month") == "2026-11" && spoken("this month") == "2026-12")
        #expect(spoken("last year") == "2025" && spoken("this year") == "2026")
        #expect(DayRange.spoken(["last", "month"], today: DayNumber.from(year: 2026, month: 1, day: 5)) == "2025-12")
    }

    @Test func monthNamesWithAndWithoutAYear() {
        #expect(spoken("february 2026") == "2026-02" && spoken("Sept 2025") == "2025-09")
        // Without a year: the latest such month that is not in the future.
        #expect(spoken("feb") == "2026-02" && spoken("december") == "2026-12")
        #expect(DayRange.spoken(["dec"], today: DayNumber.from(year: 2026, month: 6, day: 1)) == "2025-12")
    }

    /// Words that name no span are left alone, so the command says what it takes.
    @Test func otherWordsNameNoSpan() {
        #expect(spoken("2w") == nil && spoken("all") == nil && spoken("fortnight") == nil)
        #expect(spoken("this 2 weeks") == nil && spoken("2 fortnights") == nil && spoken("feb 99999") == nil && spoken("0 days") == nil)
        #expect(spoken("ma") == nil, "too short to be a month")
        // Each answer is a RANGE that parses.
        for text in ["2 weeks", "last week", "this week", "last month", "february 2026", "last year"] {
            #expect(spoken(text).flatMap { DayRange.parse($0, today: today) } != nil, "\(text)")
        }
    }
}

/// A count and its noun agree, in every sentence that says one (`counted`, Vocabulary).
@Suite struct CountedTests {
    @Test func aCountAgreesWithItsNoun() {
        #expect(counted(1, "weigh-in") == "1 weigh-in")
        #expect(counted(2, "weigh-in") == "2 weigh-ins")
        #expect(counted(0, "day") == "0 days")
        #expect(counted(3, "new habit") == "3 new habits")
        #expect(counted(2, "person", "people") == "2 people")
        #expect(counted(1, "person", "people") == "1 person")
    }

    @Test func aRangesTitleCountsItsUnits() {
        #expect(DayRange.parse("1w", today: 20_000)?.title == "1 week")
        #expect(DayRange.parse("3w", today: 20_000)?.title == "3 weeks")
        #expect(DayRange.parse("1y", today: 20_000)?.title == "1 year")
    }
}

/// A day's names, as the screens say them (`DayNumber`).
@Suite struct DayNameTests {
    @Test func aDayAsAHeadingAndAsPartOfItsMonth() {
        let day = DayNumber.from(year: 2026, month: 11, day: 29)
        #expect(DayNumber.longName(day) == "Sun 29 Nov 2026")
        #expect(DayNumber.spoken(day) == "Sun 29 Nov")
        #expect(DayNumber.partOfMonth(DayNumber.from(year: 2026, month: 5, day: 10)) == "early May")
        #expect(DayNumber.partOfMonth(DayNumber.from(year: 2026, month: 5, day: 11)) == "mid May")
        #expect(DayNumber.partOfMonth(DayNumber.from(year: 2026, month: 5, day: 21)) == "late May")
    }
}
