import Foundation
import Testing
@testable import Sync
import Vocabulary

/// Names, headers and lines thrown at the planner and the reader, seeded (a failure replays with its seed) and
/// bounded in time: nothing in the folder crashes a sync, hangs it, or changes this device's own rows; the
/// corpus starts with the files that crashed every command (issue 47).
@Suite("Sync fuzz")
struct SyncFuzzTests {
    static let seed: UInt64 = 47
    /// The time the test takes at most, whatever the machine.
    static let budget: TimeInterval = 8

    static let corpus: [(name: String, text: String)] = [
        ("1-9223372036854775807.jsonl", ""),
        ("1-5000000000000000000.jsonl", ""),
        ("checkpoint-9223372036854775807.jsonl", ""),
        ("1-1.jsonl", ""),
        ("checkpoint-1000000.jsonl", #"{"trend-checkpoint":1,"installation":"X","device":"d","first":1,"last":1000000,"count":0,"at":0}"# + "\n"),
        ("5-100000000000000.jsonl", ""),
        ("0-0.jsonl", ""), ("-1-2.jsonl", ""), ("01-2.jsonl", ""), ("2-1.jsonl", ""), ("checkpoint-0.jsonl", ""),
        ("1-1.jsonl", #"{"trend-sync":1,"installation":"X","device":"d","first":1,"last":1,"count":1e300,"at":-5}"# + "\n"),
        ("1-1.jsonl", #"{"trend-sync":2,"installation":"X","device":"d","first":1,"last":1,"count":1,"at":0,"key":"zz"}"# + "\n{}\n{}\n"),
    ]

    static let fragments = [#"{"t":"weight_entries","k0":"a","ms":1800000000000,"n":0,"o":"X","op":"set","c.id":"a","c.instant":1800000000.0,"c.kilograms":80}"#,
                            #"{"t":"settings","k0":"unit","ms":9223372036854775807,"n":-1,"o":"X","op":"set","c.key":"unit","c.value":"kg"}"#,
                            #"{"t":"habit_records","k0":"h","k1":1e308,"ms":1,"n":8999999999999999,"o":"X","op":"add","amount":1e308}"#,
                            #"{"t":"weight_entries","k0":"a","ms":1,"n":0,"o":"X","op":"del","v":"kilograms=99999999999999999999.0.X"}"#,
                            #"{"signature":"00"}"#, "{", "[]", "null", String(repeating: "9", count: 400)]

    @Test func nothingInTheFolderCrashesASyncOrTouchesThisDevicesRows() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-fuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let device = try SimulatedDevice(name: "here", seed: 1, root: root, skewMs: 0)
        try device.weigh(id: "mine", kilograms: 80.0, at: 1_800_000_000_000)
        try await device.sync(at: 1_800_000_000_000)
        let before = try device.visible()
        var random = SplitMix64(seed: Self.seed)
        let began = Date()
        var rounds = 0
        // The corpus always, however loaded the machine; made files for the rest of the budget.
        while rounds < Self.corpus.count || (Date().timeIntervalSince(began) < Self.budget && rounds < 400) {
            let peer = "peer\(random.next() % 4)"
            let folder = device.folder.appendingPathComponent("trend/\(peer)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (name, text) = rounds < Self.corpus.count ? Self.corpus[rounds] : Self.made(&random, peer: peer)
            try Data(text.replacingOccurrences(of: "\"X\"", with: "\"\(peer)\"").utf8).write(to: folder.appendingPathComponent(name))
            // Whatever the folder holds, a sync ends: it applies what it can and names the rest.
            _ = try await device.sync(at: 1_800_000_000_000 + rounds)
            rounds += 1
        }
        #expect(rounds >= Self.corpus.count)
        // This device's own weigh-in is as it was (a peer may add rows of its own, never remove this one).
        #expect(try device.visible().contains(before[0]))
        #expect(try device.store.read { try $0.scalarInt("SELECT count(*) FROM weight_entries WHERE id = 'mine' AND kilograms = 80") } == 1)
    }

    /// A random file: a name from digits that may be huge, a header with numbers that may be out of bounds, lines
    /// cut from real ones and from junk.
    static func made(_ random: inout SplitMix64, peer: String) -> (String, String) {
        func number() -> String {
            ["0", "1", "2", "3", "-1", "9007199254740993", "9223372036854775807", "18446744073709551616", "1e400", "1.5", "40000"][Int(random.next() % 11)]
        }
        let name = random.next() % 4 == 0 ? "checkpoint-\(number()).jsonl" : "\(number())-\(number()).jsonl"
        let kind = random.next() % 2 == 0 ? "trend-sync" : "trend-checkpoint"
        var text = #"{"\#(kind)":\#(random.next() % 3),"installation":"\#(random.next() % 5 == 0 ? "other" : "X")","device":"d","first":\#(number()),"last":\#(number()),"count":\#(number()),"at":\#(number())}"# + "\n"
        for _ in 0..<(random.next() % 5) {
            var line = fragments[Int(random.next() % UInt64(fragments.count))]
            if random.next() % 3 == 0, !line.isEmpty {
                let cut = Int(random.next() % UInt64(line.count))
                line = String(line.prefix(cut))
            }
            text += line + (random.next() % 6 == 0 ? "" : "\n")
        }
        return (name, text)
    }
}
