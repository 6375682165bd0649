import Testing

/// The exact text of `backup`: BackupViewModel. One screen per file in
/// `Expected/Backup/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct BackupScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Backup"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
