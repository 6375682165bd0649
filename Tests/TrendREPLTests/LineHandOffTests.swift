import Foundation
import Synchronization
import Testing
import TestSupport
@testable import trend

/// A reader that blocks like a person who has not typed yet, until the test releases a line.
final class GatedLineReader: LineReader {
    private let gate = DispatchSemaphore(value: 0)
    private let pending = Mutex<[String]>([])
    let prompts = Atomic<Int>(0)

    func release(_ line: String) {
        pending.withLock { $0.append(line) }
        gate.signal()
    }

    func finish() {
        gate.signal()
    }

    func readLine(prompt: String) -> LineReadResult {
        prompts.add(1, ordering: .relaxed)
        gate.wait()
        return pending.withLock { $0.isEmpty ? .endOfInput : .line($0.removeFirst()) }
    }
}

@MainActor
@Suite struct LineHandOffTests {
    @Test func launchWorkFinishesWhileThePromptWaitsForALine() async throws {
        let graph = makeTestApp()
        let reader = GatedLineReader()
        let handOff = LineHandOff(reader: reader, prompt: "trend> ")
        graph.app.applicationDidFinishLaunching()
        var lines = handOff.lines().makeAsyncIterator()

        // No line has arrived, yet the settings load completes on the main actor.
        try await graph.app.settingsFeature.load()
        #expect(graph.app.settingsFeature.isLoading == false)
        #expect(graph.app.settingsFeature.lastError == nil)

        reader.release("settings")
        #expect(await lines.next() == "settings")
        handOff.commandFinished()
        reader.release("help")
        #expect(await lines.next() == "help")
        handOff.commandFinished()
        reader.finish()
        #expect(await lines.next() == nil)
        #expect(reader.prompts.load(ordering: .relaxed) == 3)
    }

    @Test func theReaderDoesNotPromptAgainUntilTheCommandFinished() async throws {
        let reader = GatedLineReader()
        let handOff = LineHandOff(reader: reader, prompt: "")
        var lines = handOff.lines().makeAsyncIterator()
        reader.release("one")
        #expect(await lines.next() == "one")
        // Give the reader thread every chance to run; it must stay parked on the hand-off.
        for _ in 0..<100 { await Task.yield() }
        #expect(reader.prompts.load(ordering: .relaxed) == 1)
        handOff.commandFinished()
        reader.finish()
        #expect(await lines.next() == nil)
    }

    @Test func aScriptIsReadLineByLineWithCRLFAndInvalidUTF8() throws {
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("settings\r\nhelp\n".utf8) + Data([0x66, 0xFF, 0x0A]) + Data("last".utf8))
        try pipe.fileHandleForWriting.close()
        let reader = ScriptLineReader(handle: pipe.fileHandleForReading)
        #expect(reader.readLine(prompt: "") == .line("settings"))
        #expect(reader.readLine(prompt: "") == .line("help"))
        #expect(reader.readLine(prompt: "") == .line("f\u{FFFD}"))
        #expect(reader.readLine(prompt: "") == .line("last"))
        #expect(reader.readLine(prompt: "") == .endOfInput)
    }

    @Test func lifecycleEventsFollowIdleTimeAndTheLocalDate() {
        let clock = TestClock(date("2026-03-07 23:50", zone: "America/New_York"))
        let zone = ZoneSetting(TimeZone(identifier: "America/New_York")!)
        let monitor = LifecycleMonitor(now: clock.currentDate, timeZone: { zone.value })
        clock.advance(by: 5 * 60)
        #expect(monitor.commandArrived() == [])
        clock.advance(by: 10 * 60)
        #expect(monitor.commandArrived() == [.significantTimeChange])
        clock.advance(by: 31 * 60)
        #expect(monitor.commandArrived() == [.becameActive])
        zone.value = TimeZone(identifier: "Europe/Berlin")!
        #expect(monitor.commandArrived() == [.significantTimeChange])
    }

    /// With days starting at 04:00 the habit day rolls over at 04:00 as well as the date at midnight.
    @Test func theHabitDayRollsOverAtTheStartOfDay() {
        let clock = TestClock(date("2026-06-09 23:50", zone: "UTC"))
        let monitor = LifecycleMonitor(now: clock.currentDate, timeZone: { TimeZone(identifier: "UTC")! }, dayStartMinutes: { 240 })
        clock.advance(by: 20 * 60)
        #expect(monitor.commandArrived() == [.significantTimeChange], "midnight: the date changed")
        clock.advance(by: 3 * 60 * 60)
        #expect(monitor.commandArrived() == [.becameActive], "03:10: idle, but still the habit day before")
        clock.advance(by: 25 * 60)
        #expect(monitor.commandArrived() == [], "03:35")
        clock.advance(by: 25 * 60)
        #expect(monitor.commandArrived() == [.significantTimeChange], "04:00 passed: a new habit day")
    }
}

@MainActor
final class ZoneSetting {
    var value: TimeZone
    init(_ value: TimeZone) { self.value = value }
}
