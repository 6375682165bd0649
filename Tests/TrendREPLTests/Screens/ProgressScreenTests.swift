import Testing

/// The exact text of `progress` and its chart: ProgressViewModel and ChartRenderer. One screen per file in
/// `Expected/Progress/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct ProgressScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Progress"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
