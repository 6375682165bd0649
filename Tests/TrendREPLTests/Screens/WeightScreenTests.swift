import Testing

/// The exact text of `weigh`, `entries`, `streak`, `undo`: WeightViewModel. One screen per file in
/// `Expected/Weight/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct WeightScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Weight"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
