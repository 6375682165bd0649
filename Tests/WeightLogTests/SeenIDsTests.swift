import Testing
@testable import WeightLog

/// Ids kept as 16 bytes when they are lowercase UUIDs must still compare as the text they are.
@Suite struct SeenIDsTests {
    @Test func idsCompareAsTextWhateverTheyAreKeptAs() {
        var ids = SeenIDs()
        let uuid = "0190f3a2-7c1e-7abc-8def-0123456789ab"
        let first = ids.insert(uuid), again = ids.insert(uuid), upper = ids.insert(uuid.uppercased())
        let apart = ids.insert("0190f3a2-7c1e-7abc-8def-0123456789ac"), hyphens = ids.insert("0190f3a27c1e7abc8def0123456789ab----")
        let short = ids.insert("a"), shortAgain = ids.insert("a")
        #expect(first && !again, "the same id again")
        #expect(upper, "a different text is a different id")
        #expect(apart, "one digit apart")
        #expect(hyphens, "hyphens elsewhere: text")
        #expect(short && !shortAgain)
        #expect(ids.contains(uuid) && ids.contains(uuid.uppercased()) && ids.contains("a"))
        #expect(!ids.contains("0190f3a2-7c1e-7abc-8def-0123456789ad") && !ids.contains("b"))
    }
}
