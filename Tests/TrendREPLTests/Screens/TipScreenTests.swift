import Testing

/// The exact text of `tip`: TipViewModel. One screen per file in
/// `Expected/Tip/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct TipScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Tip"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
