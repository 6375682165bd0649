import Foundation
import Storage
import Testing
import TestSupport

/// Issue 61: private sync, run as a person runs it, against the built `trend`. Devices join by a code; the folder
/// holds nothing readable; only members' files apply; a removed device reads and writes nothing more; a 0.3 folder
/// turns private. (The layouts are Trend's own: DESIGN §8 and §11.)
@Suite struct PrivateSyncTests {
    struct Devices {
        let temp: TemporaryDirectory
        let sync: URL
        let laptop: String, desktop: String
        var root: URL { sync.appendingPathComponent("trend") }
    }

    /// A laptop that made the folder private and a desktop that joined by its code, each with a weigh-in, a note, a habit.
    func paired() throws -> Devices {
        let temp = TemporaryDirectory()
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = temp.url.appendingPathComponent("laptop").path, desktop = temp.url.appendingPathComponent("desktop").path
        let made = try runTrend(["--data-dir", laptop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name Kitchenlaptop",
                                 "-c", "weigh 82.4 note Sundaybrunch", "-c", "habit add Meditatewell every day", "-c", "habit done Meditatewell"])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(made.standardOutput.contains("The folder is private"), "\(made.standardOutput)")
        let outsider = try runTrend(["--data-dir", desktop, "-c", "set sync-folder \(sync.path)", "-c", "set device-name Studydesk"])
        #expect(outsider.standardOutput.contains("not a member yet"), "\(outsider.standardOutput)")
        try joinSync(desktop, from: laptop, folder: sync)
        let wrote = try runTrend(["--data-dir", desktop, "-c", "weigh 81.7 note Longwalk"])
        #expect(wrote.status == 0, "\(wrote.standardError)")
        _ = try runTrend(["--data-dir", laptop, "-c", "sync now"])
        return Devices(temp: temp, sync: sync, laptop: laptop, desktop: desktop)
    }

    /// A member's installation id, as `sync devices` names this device.
    func installation(of data: String) throws -> String {
        let listed = try runTrend(["--data-dir", data, "--json", "-c", "sync devices"]).documents().first?["devices"] as? [[String: Any]]
        return try #require(listed?.first { $0["thisDevice"] as? Bool == true }?["installation"] as? String)
    }

    func weights(_ data: String) throws -> [Double] {
        let shown = try runTrend(["--data-dir", data, "--json", "-c", "entries"])
        return try #require(try shown.documents().first?["entries"] as? [[String: Any]]).compactMap { $0["kilograms"] as? Double }.sorted()
    }

    /// Every file under the folder, and the ones that hold any of `secrets` in plain.
    func plainFiles(under folder: URL, holding secrets: [String]) throws -> (all: [String], plain: [String]) {
        var all: [String] = [], plain: [String] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            all.append(url.path)
            let data = try Data(contentsOf: url)
            if secrets.contains(where: { data.range(of: Data($0.utf8)) != nil }) { plain.append(url.path) }
        }
        return (all, plain)
    }

    static let secrets = ["82.4", "81.7", "Sundaybrunch", "Longwalk", "Meditatewell", "Kitchenlaptop", "Studydesk"]

    @Test func twoDevicesPairedByACodeShareEverythingAndTheFolderHoldsNothingReadable() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        #expect(try weights(devices.laptop) == [81.7, 82.4])
        #expect(try weights(devices.desktop) == [81.7, 82.4])
        let (all, plain) = try plainFiles(under: devices.sync, holding: Self.secrets)
        #expect(all.count >= 6, "segments, members, keys, marker: \(all)")
        #expect(plain.isEmpty, "readable: \(plain)")
        // The secrets: in the data directory, 0600, never in the folder.
        for data in [devices.laptop, devices.desktop] {
            let attributes = try FileManager.default.attributesOfItem(atPath: data + "/sync-secrets.json")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
        let members = try runTrend(["--data-dir", devices.laptop, "--json", "-c", "sync devices"]).documents()
        let names = (members.first?["devices"] as? [[String: Any]])?.compactMap { $0["name"] as? String }.sorted()
        #expect(names == ["Kitchenlaptop", "Studydesk"])
    }

    @Test func aWrongOrUsedCodeIsRefusedInWordsAndChangesNothing() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        let third = devices.temp.url.appendingPathComponent("third").path
        _ = try runTrend(["--data-dir", third, "-c", "set sync-folder \(devices.sync.path)"])
        let wrong = try runTrend(["--data-dir", third, "-c", "sync join trend-aaaa-bbbb"])
        #expect(wrong.status != 0 && wrong.standardError.contains("not an invite code"), "\(wrong.standardError)")
        let code = try #require((try runTrend(["--data-dir", devices.laptop, "--json", "-c", "sync invite"]).documents().first?["invite"]
            as? [String: Any])?["code"] as? String)
        var typo = Array(code)
        typo[typo.count - 1] = typo.last == "a" ? "b" : "a"
        let mistyped = try runTrend(["--data-dir", third, "-c", "sync join \(String(typo))"])
        #expect(mistyped.status != 0 && mistyped.standardError.contains("no invite in the sync folder opens"), "\(mistyped.standardError)")
        #expect(!FileManager.default.fileExists(atPath: third + "/sync-secrets.json"))
        // Used by one device, the code lets no other in.
        let fourth = devices.temp.url.appendingPathComponent("fourth").path
        _ = try runTrend(["--data-dir", fourth, "-c", "set sync-folder \(devices.sync.path)", "-c", "sync join \(code)"])
        let used = try runTrend(["--data-dir", third, "-c", "sync join \(code)"])
        #expect(used.status != 0 && used.standardError.contains("already used"), "\(used.standardError)")
        #expect(try weights(third).isEmpty)
    }

    /// A stranger's files are not applied, under its own id or under the id of a member that has written nothing yet
    /// (the first-sight race of attack round 5), and `sync` names them.
    @Test func aStrangersSignedSegmentsAreRefusedEvenUnderANewMembersId() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        let newcomer = devices.temp.url.appendingPathComponent("newcomer").path
        try joinSync(newcomer, from: devices.laptop, folder: devices.sync)
        let newcomerID = try installation(of: newcomer)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: devices.root.path + "/" + newcomerID)).contains { $0.hasSuffix(".jsonl") },
                "the newcomer has written no segment yet")
        // The stranger syncs through a plain folder of its own, as itself and as the newcomer's id, then plants its files.
        for (index, claimed) in [nil, newcomerID].enumerated() {
            let stranger = devices.temp.url.appendingPathComponent("stranger\(index)")
            let plain = devices.temp.url.appendingPathComponent("plain\(index)")
            try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
            _ = try runTrend(["--data-dir", stranger.path, "-c", "weigh 66.6 note planted"])
            try LocalDataStore(directory: stranger).write { connection in
                try connection.run("INSERT INTO settings(key, value) VALUES('syncFolder', ?)", [.text(plain.path)])
                if let claimed { try connection.run("UPDATE meta SET value = ? WHERE key = 'installationID'", [.text(claimed)]) }
            }
            _ = try runTrend(["--data-dir", stranger.path, "-c", "sync now"])
            for folder in try FileManager.default.contentsOfDirectory(atPath: plain.path + "/trend") {
                let target = devices.root.appendingPathComponent(folder)
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                for file in try FileManager.default.contentsOfDirectory(atPath: plain.path + "/trend/" + folder) {
                    try FileManager.default.copyItem(atPath: plain.path + "/trend/" + folder + "/" + file, toPath: target.path + "/" + file)
                }
            }
        }
        for data in [devices.laptop, devices.desktop] {
            let said = try runTrend(["--data-dir", data, "-c", "sync now"])
            #expect(said.standardOutput.contains("not a member of this private folder"), "\(said.standardOutput)")
            #expect(said.standardOutput.contains("signed by another key") || said.standardOutput.contains("not signed"), "\(said.standardOutput)")
            #expect(try weights(data) == [81.7, 82.4], "nothing planted applies")
        }
    }

    @Test func aRemovedDeviceReadsNothingNewAndNothingItWritesApplies() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        let removed = try runTrend(["--data-dir", devices.laptop, "-c", "sync remove studydesk"])
        #expect(removed.standardOutput.contains("Removed Studydesk"), "\(removed.standardOutput) \(removed.standardError)")
        _ = try runTrend(["--data-dir", devices.laptop, "-c", "weigh 79.9"])
        _ = try runTrend(["--data-dir", devices.desktop, "-c", "weigh 70.1"])
        let told = try runTrend(["--data-dir", devices.desktop, "-c", "sync now"])
        #expect(told.status != 0 && told.standardError.contains("not a member"), "\(told.standardError)")
        _ = try runTrend(["--data-dir", devices.laptop, "-c", "sync now"])
        #expect(try weights(devices.laptop) == [79.9, 81.7, 82.4])
        #expect(try weights(devices.desktop) == [70.1, 81.7, 82.4])
        let members = try runTrend(["--data-dir", devices.laptop, "-c", "sync devices"]).standardOutput
        #expect(!members.contains("Studydesk"), "\(members)")
    }

    /// A 0.3 folder (plain, both devices syncing) turns private with `sync private`; the other joins with the code;
    /// once both have moved, nothing plain is left.
    @Test func aPlainFolderTurnsPrivateAndItsPlainFilesGo() throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let sync = temp.url.appendingPathComponent("Sync")
        try FileManager.default.createDirectory(at: sync, withIntermediateDirectories: true)
        let laptop = temp.url.appendingPathComponent("laptop"), desktop = temp.url.appendingPathComponent("desktop")
        for (data, name, weight) in [(laptop, "Kitchenlaptop", "82.4 note Sundaybrunch"), (desktop, "Studydesk", "81.7 note Longwalk")] {
            _ = try runTrend(["--data-dir", data.path, "-c", "set device-name \(name)", "-c", "weigh \(weight)"])
            try LocalDataStore(directory: data).write { try $0.run("INSERT INTO settings(key, value) VALUES('syncFolder', ?)", [.text(sync.path)]) }
        }
        for data in [laptop, desktop, laptop] { _ = try runTrend(["--data-dir", data.path, "-c", "sync now", "-c", "backup"]) }
        #expect(!(try plainFiles(under: sync, holding: Self.secrets)).plain.isEmpty, "a 0.3 folder is plain")
        let plainSet = try runTrend(["--data-dir", desktop.path, "-c", "set sync-folder \(sync.path)"])
        #expect(plainSet.standardOutput.contains("older Trend"), "\(plainSet.standardOutput)")
        let turned = try runTrend(["--data-dir", laptop.path, "--json", "-c", "sync private"])
        let code = try #require((try turned.documents().first?["invite"] as? [String: Any])?["code"] as? String, "\(turned.standardError)")
        _ = try runTrend(["--data-dir", desktop.path, "-c", "sync join \(code)"])
        for data in [laptop, desktop, laptop, desktop] { _ = try runTrend(["--data-dir", data.path, "-c", "sync now"]) }
        #expect(try weights(laptop.path) == [81.7, 82.4] && weights(desktop.path) == [81.7, 82.4])
        let (_, plain) = try plainFiles(under: sync, holding: Self.secrets)
        #expect(plain.isEmpty, "readable: \(plain)")
        _ = try runTrend(["--data-dir", desktop.path, "-c", "weigh 80.5"])
        _ = try runTrend(["--data-dir", laptop.path, "-c", "sync now"])
        #expect(try weights(laptop.path) == [80.5, 81.7, 82.4])
    }

    /// A byte flipped in a member's sealed segment: not applied, named, and the rest of the folder still applies.
    @Test func aFlippedByteIsNamedAndNothingElseChanges() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        _ = try runTrend(["--data-dir", devices.laptop, "-c", "weigh 80.2"])
        let own = try installation(of: devices.laptop)
        /// The last change a segment's name covers.
        func last(_ name: String) -> Int { Int(name.split(separator: "-").last?.dropLast(6) ?? "") ?? 0 }
        let names = try FileManager.default.contentsOfDirectory(atPath: devices.root.path + "/" + own).filter { $0.hasSuffix(".jsonl") }
        let newest = try #require(names.max { last($0) < last($1) })
        let path = devices.root.path + "/" + own + "/" + newest
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count - 20] ^= 1
        try bytes.write(to: URL(fileURLWithPath: path))
        let other = devices.desktop
        let said = try runTrend(["--data-dir", other, "-c", "sync now"])
        #expect(said.standardOutput.contains("does not open") || said.standardOutput.contains("does not match"), "\(said.standardOutput)")
        #expect(try weights(other) == [81.7, 82.4])
    }

    /// The roster a sync keeps (so that one with nothing new opens no file) is only a copy: damaged, it is worked out
    /// again from the members' files, and a member's new files are read by the next process all the same.
    @Test func aDamagedKeptRosterIsWorkedOutAgain() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        let quiet = try runTrend(["--data-dir", devices.laptop, "-c", "sync now"])
        #expect(quiet.status == 0 && quiet.standardOutput.contains("0 received"), "\(quiet.standardOutput) \(quiet.standardError)")
        let kept = try LocalDataStore(directory: URL(fileURLWithPath: devices.laptop)).write { connection in
            let before = try connection.query("SELECT value FROM meta WHERE key = 'sync.roster'") { $0.text(0) }
            try connection.run("UPDATE meta SET value = '{\"members\": 7' WHERE key = 'sync.roster'")
            return before
        }
        #expect(kept.count == 1 && kept[0].contains("members"), "the last sync kept its roster: \(kept)")
        _ = try runTrend(["--data-dir", devices.desktop, "-c", "weigh 77.7"])
        let synced = try runTrend(["--data-dir", devices.laptop, "-c", "sync now"])
        #expect(synced.status == 0, "\(synced.standardError)")
        #expect(try weights(devices.laptop) == [77.7, 81.7, 82.4])
        let members = try runTrend(["--data-dir", devices.laptop, "-c", "sync devices"]).standardOutput
        #expect(members.contains("Studydesk") && members.contains("Kitchenlaptop"), "\(members)")
    }
}
