import Testing

/// The exact text of `habits` and `habit …`: HabitsViewModel. One screen per file in
/// `Expected/Habits/`, typed at its clock in 80 columns without colour.
@MainActor
@Suite struct HabitsScreenTests {
    @Test(arguments: ScreenTranscript.all(in: "Habits"))
    func screen(_ transcript: ScreenTranscript) async throws {
        try await transcript.check()
    }
}
