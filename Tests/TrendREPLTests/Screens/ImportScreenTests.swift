import Testing

/// The exact text of `import`: ImportViewModel. One screen per file in
/// `Expected/Import/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct ImportScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Import"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
