import Foundation
import Storage
import Testing
import TestSupport
@testable import TrendREPL
import Vocabulary

/// Seeded fuzzing of the command line and the import readers: every input
/// gets an answer, a failed command changes nothing, and nothing crashes.
@MainActor
@Suite struct FuzzTests {
    typealias Generator = SplitMix64

    static let hostile = [
        "\u{0}", "\u{1}", "\u{7F}", "\u{202E}", "\u{200F}", "🏋️", "ﷺ", "\u{FEFF}", "nan", "inf", "-inf", "1e309", "-0", "0x1p3",
        "2026-02-30", "25:61", "2026-13-01", "9999-12-31", "0000-00-00", "\"", "'", "\\", "''", "\"\"", "..", "../../etc/passwd",
        "/dev/null", "-1", "0", "500.0001", "19.9999", "12st 14lb", "1,5", "1.2.3", "%s%n", "$(rm -rf /)", "`id`", ";", "|",
        String(repeating: "x", count: 100_000), "     ", "\t", "\r", "NaN", "Infinity", "1e-300", "0.0000001",
    ]
    static let words = ["weigh", "today", "entries", "edit", "delete", "undo", "progress", "goal", "streak", "habits", "habit",
                        "add", "done", "skip", "show", "rename", "archive", "delete", "restore", "export", "import", "tip", "next",
                        "backup", "list", "status", "settings", "set", "unit", "sync-folder", "help", "lb", "kg", "st", "yesterday",
                        "today", "note", "every", "day", "target", "at-most", "3/week", "mon,wed,fri", "82.4", "181.6", "12st", "6lb",
                        "1w", "3m", "all", "preview", "merge", "latest", "weekly", "2026-W01", "before-restore", "sync", "clear"]

    func line(_ random: inout Generator) -> String {
        let count = Int(random.next() % 6) + 1
        var parts: [String] = []
        for index in 0..<count {
            switch random.next() % 4 {
            case 0: parts.append(Self.hostile[Int(random.next() % UInt64(Self.hostile.count))])
            case 1 where index > 0: parts.append(String(Double(random.next() % 100_000) / 100))
            default: parts.append(Self.words[Int(random.next() % UInt64(Self.words.count))])
            }
        }
        if random.next() % 5 == 0 {
            // Raw bytes, including invalid UTF-8 repaired the way the line reader repairs it.
            let bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            parts.append(String(decoding: bytes, as: UTF8.self))
        }
        return parts.joined(separator: random.next() % 3 == 0 ? "  " : " ")
    }

    @Test func thousandsOfHostileCommandLinesAreAnsweredAndFailuresChangeNothing() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let store = LocalDataStore.inMemory()
        let graph = makeTestApp(store: store, directory: temp.url)
        // Something to lose: a weigh-in and a habit.
        try await graph.app.weightEntryFeature.record(kilograms: 80)
        try await graph.app.habitsFeature.add(name: "Read", schedule: .daily, kind: .yesNo)
        let session = ReplSession(app: graph.app, json: true, style: .plain, isInteractive: false)
        var random = Generator(seed: 20_261_129)
        var failures = 0
        for _ in 0..<3_000 {
            let text = line(&random)
            // Commands that replace everything are exercised by their own tests.
            if text.contains("delete-all-data") { continue }
            let before = try store.readContent()
            let result = await session.execute(text)
            #expect(!result.text.isEmpty || text.trimmingCharacters(in: .whitespaces).isEmpty || text.hasPrefix("#"),
                    "no answer to \(text.prefix(80).debugDescription)")
            if !result.succeeded {
                failures += 1
                let json = try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any]
                let error = json?["error"] as? [String: Any]
                #expect(error?["code"] is String && (error?["message"] as? String)?.isEmpty == false)
                var after = try store.readContent()
                // Drawing the day's tip is not a change the person made.
                if let deck = before.parts["tipDeck"] { after.set(deck, for: "tipDeck") }
                #expect(after == before, "a failed command changed something: \(text.prefix(80).debugDescription)")
            }
        }
        #expect(failures > 1_000, "the fuzzer reached the error paths")
    }

    @Test func mutatedImportFilesNeverCrashAndNeverWriteHalfAnImport() async throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let seeds = [
            "date,weight,unit,note\n2026-01-01,80,kg,\"a, b\"\n2026-01-02 07:30,176.5,lb,\n",
            "units,kg\ngoal,70\ndate,weight\n2026-01-01,80.5\n",
            "#Version:6\n#Units:kg\n#date;weight;weight trend;body fat;body fat trend;comment\n2013-01-01T06:33:12.000Z;80.5;80.5;;;x\n",
            "DATE,TIME,weight\n2026-05-01,07:15,82.1\n",
            "Date,Weight,Rung,Flag,Comment\n2026-01-01,180.5,12,0,Start\n",
            "{\"entries\":[{\"id\":\"a\",\"date\":\"2026-01-01T07:00:00Z\",\"kilograms\":80,\"note\":null}]}",
            "<?xml version=\"1.0\"?><!DOCTYPE HealthData [<!ATTLIST Record type CDATA #REQUIRED>]><HealthData><Record type=\"HKQuantityTypeIdentifierBodyMass\" unit=\"kg\" value=\"80\" startDate=\"2026-06-01 07:01:00 -0400\"/></HealthData>",
        ]
        let graph = makeTestApp(store: .inMemory(), clock: TestClock(date("2026-11-29 09:00")))
        var random = Generator(seed: 7)
        let file = temp.url.appendingPathComponent("fuzz.txt")
        for round in 0..<600 {
            var bytes = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<Int(random.next() % 8) {
                guard !bytes.isEmpty else { break }
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                case 2: bytes.insert(contentsOf: Array(Self.hostile[Int(random.next() % UInt64(Self.hostile.count))].utf8.prefix(200)), at: position)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            try Data(bytes).write(to: file)
            let before = (try await graph.app.weightEntryFeature.allEntries()).count
            do {
                let result = try await graph.app.weightImportFeature.importFile(file)
                #expect((try await graph.app.weightEntryFeature.allEntries()).count == before + result.imported)
                for entry in (try await graph.app.weightEntryFeature.allEntries()) {
                    #expect((20...500).contains(entry.kilograms) && entry.kilograms.isFinite)
                }
            } catch {
                // A refused file is fine; it must have changed nothing.
                #expect((try await graph.app.weightEntryFeature.allEntries()).count == before)
            }
        }
    }
}
