import Testing

/// The exact text of `today`: TodayViewModel. One screen per file in
/// `Expected/Today/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct TodayScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Today"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
