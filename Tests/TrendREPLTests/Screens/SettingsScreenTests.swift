import Testing

/// The exact text of `settings`: SettingsViewModel. One screen per file in
/// `Expected/Settings/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct SettingsScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Settings"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
