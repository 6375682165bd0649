import Testing

/// The exact text of `summary`: SummaryViewModel. One screen per file in `Expected/Summary/`.
@MainActor
@Suite struct SummaryScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Summary"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
