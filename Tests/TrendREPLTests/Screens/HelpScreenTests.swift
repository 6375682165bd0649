import Testing

/// The exact text of `help`: HelpViewModel. One screen per file in
/// `Expected/Help/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct HelpScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Help"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
