import Testing

/// The exact text of `habit show`: HabitDetailScreen. One screen per file in
/// `Expected/HabitDetail/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct HabitDetailScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "HabitDetail"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
