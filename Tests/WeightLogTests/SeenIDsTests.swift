import Testing
@testable import WeightLog

/// Ids kept as 16 bytes when they are lowercase UUIDs must still compare as the text they are.
@Suite struct SeenIDsTests {
    @Test func idsCompareAsTextWhateverTheyAreKeptAs() {
        var ids = SeenIDs()
        let uuid = "0190f3a2-7c1e-7abc-8def-0123456789ab"
        #expect(ids.insert(uuid))
        #expect(!ids.insert(uuid), "the same id again")
        #expect(ids.insert(uuid.uppercased()), "a different text is a different id")
        #expect(ids.insert("0190f3a2-7c1e-7abc-8def-0123456789ac"), "one digit apart")
        #expect(ids.insert("0190f3a27c1e7abc8def0123456789ab----"), "hyphens elsewhere: text")
        #expect(ids.insert("a") && !ids.insert("a"))
        #expect(ids.contains(uuid) && ids.contains(uuid.uppercased()) && ids.contains("a"))
        #expect(!ids.contains("0190f3a2-7c1e-7abc-8def-0123456789ad") && !ids.contains("b"))
    }
}
