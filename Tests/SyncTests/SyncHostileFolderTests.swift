import Cryptography
import Foundation
import Testing
@testable import Sync

/// What the two computers of a person and an attacker did to a shared folder (issue 47's 65 attempts, the
/// ones that lost data or trust): each must leave every device's data whole, the devices converging, and
/// `sync` naming what it passed over. The folder is untrusted input (DESIGN §8).
@Suite("Sync folder, hostile")
struct SyncHostileFolderTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("trend-sync-hostile-\(UUID().uuidString)")
    let minute = 60_000
    let start = 1_800_000_000_000

    /// Devices whose copies of the sync folder are one folder (as after Syncthing has delivered everything).
    func devices(_ names: [String], seed: Int = 1) throws -> ([SimulatedDevice], URL) {
        let shared = root.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let made = try names.map { name in
            let device = try SimulatedDevice(name: name, seed: seed, root: root, skewMs: 0)
            try share(device, shared)
            return device
        }
        return (made, shared)
    }

    func share(_ device: SimulatedDevice, _ shared: URL) throws {
        try FileManager.default.removeItem(at: device.folder)
        try FileManager.default.createSymbolicLink(at: device.folder, withDestinationURL: shared)
    }

    /// Writes `text` as a file of `installation`'s folder.
    func plant(_ text: String, named name: String, of installation: String, in shared: URL) throws {
        let folder = shared.appendingPathComponent("trend/\(installation)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    @Test func aWeightFixedOnOneDeviceAndANoteWrittenOnTheOtherBothSurvive() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, _) = try devices(["laptop", "desktop"])
        let (laptop, desktop) = (made[0], made[1])
        try laptop.weigh(id: "d7e3", kilograms: 88.0, at: start)
        try await laptop.sync(at: start)
        try await desktop.sync(at: start + minute)
        // Offline, each edits one field of the same weigh-in; the note is the later edit.
        try laptop.editKilograms(id: "d7e3", 87.9, at: start + 2 * minute)
        try desktop.editNote(id: "d7e3", "new batteries in the scale", at: start + 3 * minute)
        for step in 4...6 {
            try await laptop.sync(at: start + step * minute)
            try await desktop.sync(at: start + step * minute)
        }
        let expected = "w d7e3 1800000000.0 87.9 new batteries in the scale"
        #expect(try laptop.visible() == [expected])
        #expect(try desktop.visible() == [expected])
    }

    @Test func aCopiedDataDirectoryForksAndNoChangeOfEitherCopyIsLost() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["old", "desktop"])
        let (old, desktop) = (made[0], made[1])
        try old.weigh(id: "w1", kilograms: 80.0, at: start)
        try await old.sync(at: start)
        try await desktop.sync(at: start)
        // `cp -a` to a new laptop: the same id and key; both go on weighing and syncing.
        let laptop = try old.copied(as: "laptop", root: root)
        try share(laptop, shared)
        try old.weigh(id: "w2", kilograms: 80.5, at: start + minute)
        try laptop.weigh(id: "w3", kilograms: 79.5, at: start + minute)
        try laptop.edit(id: "w1", kilograms: 80.2, note: "fixed", at: start + 2 * minute)
        try await old.sync(at: start + 3 * minute)
        let forked = try await laptop.sync(at: start + 3 * minute)
        #expect(forked.notes.contains { $0.contains("new installation") }, "\(forked.notes)")
        #expect(laptop.currentID != old.currentID)
        for step in 4...7 {
            for device in [old, laptop, desktop] { try await device.sync(at: start + step * minute) }
        }
        let all = ["w w1 1800000000.0 80.2 fixed", "w w2 1800000060.0 80.5 -", "w w3 1800000060.0 79.5 -"]
        for device in [old, laptop, desktop] { #expect(try device.visible() == all, "\(device.name)") }
        // It says so once: the next sync says nothing of it.
        let next = try await laptop.sync(at: start + 8 * minute)
        #expect(!next.notes.contains { $0.contains("new installation") })
    }

    @Test func aSegmentPlantedInAnotherDevicesFolderIsRefusedAndThatDeviceStillGetsThrough() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let (laptop, desktop) = (made[0], made[1])
        try laptop.weigh(id: "w1", kilograms: 80.0, at: start)
        try await laptop.sync(at: start)
        try await desktop.sync(at: start)
        // The next name in the laptop's folder, unsigned (format 1) and signed by another key.
        let header = #"{"trend-sync":1,"installation":"\#(laptop.id)","device":"laptop","first":2,"last":2,"count":1,"at":1800000000000}"#
        let line = #"{"t":"weight_entries","k0":"evil","ms":1800000060000,"n":0,"o":"\#(laptop.id)","op":"set","c.id":"evil","c.instant":1800000060.0,"c.kilograms":150.0}"#
        try plant(header + "\n" + line + "\n", named: "2-2.jsonl", of: laptop.id, in: shared)
        let report = try await desktop.sync(at: start + minute)
        #expect(report.received == 0)
        #expect(report.problems.contains { $0.contains("2-2.jsonl") && $0.contains("not signed") }, "\(report.problems)")
        #expect(!(try desktop.visible().contains { $0.contains("evil") }))
        // The laptop's own change still reaches the desktop: the name was taken, so it writes as a new installation.
        try laptop.weigh(id: "w2", kilograms: 80.4, at: start + 2 * minute)
        let forked = try await laptop.sync(at: start + 2 * minute)
        #expect(forked.notes.contains { $0.contains("2-2.jsonl") }, "\(forked.notes)")
        try await desktop.sync(at: start + 3 * minute)
        try await laptop.sync(at: start + 3 * minute)
        #expect(try desktop.visible() == ["w w1 1800000000.0 80.0 -", "w w2 1800000120.0 80.4 -"])
        #expect(try laptop.visible() == desktop.visible())
    }

    /// Segments signed as Trend signs them, by a key of the test's own, each of one weigh-in; `chained`, each header
    /// names the SHA-256 its predecessor's signature is over, as `previous` (SyncWorker's `write` does since 0.3).
    func signedSegments(_ range: ClosedRange<Int>, of installation: String, seed: [UInt8], chained: Bool = false,
                        kilograms: (Int) -> String = { _ in "150.0" }) throws -> [(name: String, text: String)] {
        let key = Hex.string(try Ed25519.publicKey(ofSeed: seed))
        var previous: String?
        return try range.map { n in
            let link = chained ? previous.map { #","previous":"\#($0)""# } ?? "" : ""
            let header = #"{"trend-sync":2,"installation":"\#(installation)","device":"laptop","first":\#(n),"last":\#(n),"count":1,"at":1800000000000,"key":"\#(key)"\#(link)}"#
            let line = #"{"t":"weight_entries","k0":"p\#(n)","ms":\#(1_800_000_000_000 + n),"n":0,"o":"\#(installation)","op":"set","c.id":"p\#(n)","c.instant":\#(1_800_000_000 + n).0,"c.kilograms":\#(kilograms(n))}"#
            let body = header + "\n" + line + "\n"
            previous = try ContentHash.sha256(Data(body.utf8))
            let signature = try Ed25519.sign(Array("trend sync segment\n".utf8) + Hex.bytes(previous ?? "")!, seed: seed)
            return ("\(n)-\(n).jsonl", body + #"{"signature":""# + Hex.string(signature) + "\"}\n")
        }
    }

    /// A device's run of small files is vouched for by the signature of its last: each names the one before by the
    /// SHA-256 its signature is over. A file changed in the middle breaks the chain there and is checked, and refused,
    /// on its own; a forged last file that names the true one before it is refused by its signature, and the true
    /// files before it still apply.
    @Test func aChainOfSmallFilesIsVouchedForByItsLastAndAForgedLinkIsRefused() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let desktop = made[1]
        let stranger = "0badc0de-0000-4000-8000-000000000002"
        let own = try Ed25519.newSeed()
        let genuine = try signedSegments(1...41, of: stranger, seed: own, chained: true)
        let changed = try signedSegments(1...41, of: stranger, seed: own, chained: true) { [20, 41].contains($0) ? "60.0" : "150.0" }
        /// The file at `index` as `changed` has it (its weight changed), with the true file's signature line.
        func tampered(_ index: Int) -> String {
            let lines = changed[index].text.split(separator: "\n")
            return "\(lines[0])\n\(lines[1])\n\(genuine[index].text.split(separator: "\n")[2])\n"
        }
        // The 20th changed after it was signed; the 41st, naming the true 40th before it, too.
        let (middle, forged) = (tampered(19), tampered(40))
        for (index, file) in genuine.enumerated() {
            try plant(index == 19 ? middle : index == 40 ? forged : file.text, named: file.name, of: stranger, in: shared)
        }
        let report = try await desktop.sync(at: start)
        #expect(report.received == 19, "\(report.problems)")
        #expect(report.problems.contains { $0.contains("20-20.jsonl") && $0.contains("does not match its signature") }, "\(report.problems)")
        #expect(!(try desktop.visible().contains { $0.contains("60.0") }))
        // The true 20th comes: the rest of the chain applies, the forged 41st does not.
        try plant(genuine[19].text, named: genuine[19].name, of: stranger, in: shared)
        let later = try await desktop.sync(at: start + minute)
        #expect(later.received == 21, "\(later.problems)")
        #expect(later.problems.contains { $0.contains("41-41.jsonl") && $0.contains("does not match its signature") }, "\(later.problems)")
        #expect(try desktop.visible().filter { $0.hasPrefix("w p") }.count == 40)
    }

    /// Trend chains what it writes: a segment's header names the SHA-256 its predecessor's signature is over.
    @Test func eachSegmentWrittenNamesTheOneBeforeIt() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop"])
        let laptop = made[0]
        try laptop.weigh(id: "w1", kilograms: 80.0, at: start)
        try await laptop.sync(at: start)
        try laptop.weigh(id: "w2", kilograms: 80.5, at: start + minute)
        try await laptop.sync(at: start + minute)
        let folder = shared.appendingPathComponent("trend/\(laptop.id)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(names.count == 2, "\(names)")
        let first = try Data(contentsOf: folder.appendingPathComponent(names[0]))
        let second = try String(decoding: Data(contentsOf: folder.appendingPathComponent(names[1])), as: UTF8.self)
        let signed = first.prefix(upTo: (first.dropLast().lastIndex(of: 0x0A) ?? 0) + 1)
        #expect(second.hasPrefix("{\"trend-sync\":2"))
        #expect(second.split(separator: "\n")[0].contains("\"previous\":\"\(try ContentHash.sha256(signed))\""), "\(second)")
        #expect(!String(decoding: first, as: UTF8.self).contains("previous"))
    }

    /// The key of a device's first file read is the one its next files must be signed by, within the same sync: a
    /// file signed by another key among a device's many small ones (read on every core at once) is refused and named,
    /// and the files around it apply.
    @Test func aFileSignedByAnotherKeyIsRefusedEvenAtFirstSightAndAmongManySmallOnes() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let desktop = made[1]
        let stranger = "0badc0de-0000-4000-8000-000000000001"
        let (own, other) = (try Ed25519.newSeed(), try Ed25519.newSeed())
        for (name, text) in try signedSegments(1...40, of: stranger, seed: own) where name != "7-7.jsonl" && name != "2-2.jsonl" {
            try plant(text, named: name, of: stranger, in: shared)
        }
        // The second file and the seventh, signed by another key.
        for (name, text) in try signedSegments(2...7, of: stranger, seed: other) where name == "2-2.jsonl" || name == "7-7.jsonl" {
            try plant(text, named: name, of: stranger, in: shared)
        }
        let report = try await desktop.sync(at: start)
        #expect(report.problems.contains { $0.contains("2-2.jsonl") && $0.contains("another key") }, "\(report.problems)")
        #expect(report.received == 1, "only the first file is read before the gap: \(report.problems)")
        // The files after the gap wait for the device's own second change; none signed by another key is applied.
        #expect(!(try desktop.visible().contains { $0.contains(" p2 ") || $0.contains(" p7 ") }))
        // The device's own second and seventh files come (Syncthing caught up): the rest reads, on every core.
        for (name, text) in try signedSegments(1...7, of: stranger, seed: own) where name == "2-2.jsonl" || name == "7-7.jsonl" {
            try plant(text, named: name, of: stranger, in: shared)
        }
        let later = try await desktop.sync(at: start + minute)
        #expect(later.received == 39, "\(later.problems)")
        #expect(try desktop.visible().filter { $0.hasPrefix("w p") }.count == 40)
    }

    @Test func aFakeCheckpointOrRangeHidesNoRealChange() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let (laptop, desktop) = (made[0], made[1])
        try laptop.weigh(id: "w1", kilograms: 80.0, at: start)
        try await laptop.sync(at: start)
        try await desktop.sync(at: start)
        try laptop.weigh(id: "w2", kilograms: 80.4, at: start + minute)
        try await laptop.sync(at: start + minute)
        // Header-only, with nothing to read, each claiming more of the laptop's changes than its real file.
        try plant(#"{"trend-checkpoint":1,"installation":"\#(laptop.id)","device":"laptop","first":1,"last":1000000,"count":0,"at":0}"# + "\n",
                  named: "checkpoint-1000000.jsonl", of: laptop.id, in: shared)
        try plant("", named: "2-40000.jsonl", of: laptop.id, in: shared)
        let report = try await desktop.sync(at: start + 2 * minute)
        #expect(report.received == 1, "\(report.problems)")
        #expect(try desktop.visible() == laptop.visible())
        // The bogus files are named; the real one is not among them.
        #expect(report.problems.contains { $0.contains("checkpoint-1000000.jsonl") } && !report.problems.contains { $0.contains("2-2.jsonl") })
        // The next real change comes through as well.
        try laptop.weigh(id: "w3", kilograms: 80.8, at: start + 3 * minute)
        try await laptop.sync(at: start + 3 * minute)
        try await desktop.sync(at: start + 4 * minute)
        #expect(try desktop.visible().count == 3)
    }

    @Test func namesWithHugeNumbersArePassedOverWithAWarningAndBreakNothing() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let (laptop, desktop) = (made[0], made[1])
        try laptop.weigh(id: "w1", kilograms: 80.0, at: start)
        try await laptop.sync(at: start)
        try plant("", named: "1-9223372036854775807.jsonl", of: "evil0001", in: shared)
        try plant("", named: "1-5000000000000000000.jsonl", of: "evil0002", in: shared)
        try plant("", named: "1-5000000000000000000.jsonl", of: "evil0003", in: shared)
        try plant("", named: "checkpoint-9223372036854775807.jsonl", of: "evil0004", in: shared)
        try plant("", named: "1-1.jsonl", of: "evil0004", in: shared)
        let report = try await desktop.sync(at: start + minute)
        #expect(report.received == 1)
        #expect(report.problems.contains { $0.contains("1-9223372036854775807.jsonl") && $0.contains("passed over") }, "\(report.problems)")
        #expect(report.problems.contains { $0.contains("checkpoint-9223372036854775807.jsonl") })
        #expect(try desktop.visible() == laptop.visible())
    }

    @Test func aPoisonedClockNeverBlocksThisDevicesOwnChanges() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop", "desktop"])
        let (laptop, desktop) = (made[0], made[1])
        // A device never seen before (its key unknown) sends a change an hour ahead, its counter near the largest any Trend reads.
        let header = #"{"trend-sync":1,"installation":"evil","device":"evil","first":1,"last":1,"count":1,"at":0}"#
        let line = #"{"t":"weight_entries","k0":"p1","ms":\#(start + 60 * minute),"n":8999999999999999,"o":"evil","op":"set","c.id":"p1","c.instant":1800000000.0,"c.kilograms":70.0}"#
        try plant(header + "\n" + line + "\n", named: "1-1.jsonl", of: "evil", in: shared)
        try await desktop.sync(at: start)
        try desktop.weigh(id: "w1", kilograms: 80.0, at: start + minute)
        try await desktop.sync(at: start + minute)
        let report = try await laptop.sync(at: start + 2 * minute)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(try laptop.visible() == desktop.visible())
        #expect(try laptop.visible().contains("w w1 1800000060.0 80.0 -"))
        // Two days ahead, a change waits, said so.
        let ahead = #"{"t":"weight_entries","k0":"p2","ms":\#(start + 3 * 1_440 * minute),"n":0,"o":"evil2","op":"set","c.id":"p2","c.instant":1800000000.0,"c.kilograms":70.0}"#
        try plant(header.replacingOccurrences(of: "evil", with: "evil2") + "\n" + ahead + "\n", named: "1-1.jsonl", of: "evil2", in: shared)
        let waited = try await laptop.sync(at: start + 3 * minute)
        #expect(waited.problems.contains { $0.contains("ahead") && $0.contains("waits") }, "\(waited.problems)")
    }

    @Test func rowsAndSettingsThatFailTheirCheckAreLeftOutAndNamedAndTheRestApplies() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        let (made, shared) = try devices(["laptop"])
        let laptop = made[0]
        let header = #"{"trend-sync":1,"installation":"peer","device":"phone","first":1,"last":5,"count":5,"at":0}"#
        func weighIn(_ id: String, _ kilograms: String, _ extra: String = "") -> String {
            #"{"t":"weight_entries","k0":"\#(id)","ms":\#(start),"n":0,"o":"peer","op":"set","c.id":"\#(id)","c.instant":1800000000.0,"c.kilograms":\#(kilograms)\#(extra)}"#
        }
        let lines = [weighIn("a", "5000"), weighIn("b", "80", #","c.body_fat":200"#), weighIn("c", "80", #","c.typed_unit":"furlongs""#),
                     #"{"t":"settings","k0":"progressRange","ms":\#(start),"n":0,"o":"peer","op":"set","c.key":"progressRange","c.value":"\#(String(repeating: "x", count: 100_000))"}"#,
                     weighIn("d", "81.2")]
        try plant(([header] + lines).joined(separator: "\n") + "\n", named: "1-5.jsonl", of: "peer", in: shared)
        let report = try await laptop.sync(at: start + minute)
        #expect(report.received == 1)
        #expect(report.leftOut == 4)
        for line in 2...5 { #expect(report.problems.contains { $0.contains("phone, 1-5.jsonl line \(line)") }, "line \(line): \(report.problems)") }
        #expect(try laptop.visible() == ["w d 1800000000.0 81.2 -"])
    }
}
