import Cryptography
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

    /// The key ids a device holds, from its secrets file.
    func keyIDs(_ data: String) throws -> Set<[UInt8]> {
        let secrets = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: data + "/sync-secrets.json"))) as? [String: Any]
        let keys = try #require(secrets?["keys"] as? [[String: Any]]).compactMap { $0["key"] as? String }
        return Set(try keys.map { text in
            let bytes = stride(from: 0, to: text.count, by: 2).compactMap { UInt8(text.dropFirst($0).prefix(2), radix: 16) }
            return try SealedStream.keyID(of: bytes)
        })
    }

    /// Two removals at once (Syncthing had not yet carried one to the device making the other): the laptop removes
    /// the tablet while the desktop, not knowing, removes the phone and seals its new key to the tablet; the phone took
    /// the laptop's. Once both removals are known, what the laptop writes is sealed under a key neither removed device
    /// holds. (Before the fix the newest key was the laptop's or the desktop's of the same epoch: one of them held it.)
    @Test func twoRemovalsAtOnceLeaveNeitherRemovedDeviceTheNewestKey() throws {
        let devices = try paired()
        defer { devices.temp.remove() }
        let tablet = devices.temp.url.appendingPathComponent("tablet").path, phone = devices.temp.url.appendingPathComponent("phone").path
        for (data, name) in [(tablet, "Tablet"), (phone, "Phone")] {
            _ = try runTrend(["--data-dir", data, "-c", "set device-name \(name)"])
            try joinSync(data, from: devices.laptop, folder: devices.sync)
        }
        for data in [devices.laptop, devices.desktop, tablet, phone, devices.laptop] { _ = try runTrend(["--data-dir", data, "-c", "sync now"]) }
        let files = FileManager.default
        let laptopFolder = devices.root.appendingPathComponent(try installation(of: devices.laptop))
        let desktopFolder = devices.root.appendingPathComponent(try installation(of: devices.desktop))
        /// Shows `folder` as it was at `then` (a copy), keeping what it holds now at `now`: Syncthing has not carried it yet.
        func holdBack(_ folder: URL, showing then: URL, keeping now: URL) throws {
            try files.moveItem(at: folder, to: now)
            try files.copyItem(at: then, to: folder)
        }
        func release(_ folder: URL, from now: URL) throws {
            try files.removeItem(at: folder)
            try files.moveItem(at: now, to: folder)
        }
        let laptopBefore = devices.temp.url.appendingPathComponent("laptop-before"), laptopNow = devices.temp.url.appendingPathComponent("laptop-now")
        let desktopBefore = devices.temp.url.appendingPathComponent("desktop-before"), desktopNow = devices.temp.url.appendingPathComponent("desktop-now")
        try files.copyItem(at: laptopFolder, to: laptopBefore)
        try files.copyItem(at: desktopFolder, to: desktopBefore)
        let removedTablet = try runTrend(["--data-dir", devices.laptop, "-c", "sync remove tablet"])
        #expect(removedTablet.standardOutput.contains("Removed Tablet"), "\(removedTablet.standardOutput) \(removedTablet.standardError)")
        // The desktop, not seeing the laptop's removal yet, removes the phone; the tablet takes the desktop's new key.
        try holdBack(laptopFolder, showing: laptopBefore, keeping: laptopNow)
        let removedPhone = try runTrend(["--data-dir", devices.desktop, "-c", "sync remove phone"])
        #expect(removedPhone.standardOutput.contains("Removed Phone"), "\(removedPhone.standardOutput) \(removedPhone.standardError)")
        _ = try runTrend(["--data-dir", tablet, "-c", "sync now"])
        try release(laptopFolder, from: laptopNow)
        // The phone, not seeing the desktop's removal yet, takes the laptop's new key.
        try holdBack(desktopFolder, showing: desktopBefore, keeping: desktopNow)
        _ = try runTrend(["--data-dir", phone, "-c", "sync now"])
        try release(desktopFolder, from: desktopNow)
        for data in [devices.laptop, devices.desktop, devices.laptop, devices.desktop] { _ = try runTrend(["--data-dir", data, "-c", "sync now"]) }
        _ = try runTrend(["--data-dir", devices.laptop, "-c", "weigh 66.6"])
        _ = try runTrend(["--data-dir", devices.desktop, "-c", "sync now"])
        #expect(try weights(devices.desktop).contains(66.6), "the desktop reads the laptop's newest")
        // And the laptop what the desktop writes (a member that is not the founder seals its own files under its new key,
        // which the others take from its keys file, knowing it from before).
        _ = try runTrend(["--data-dir", devices.desktop, "-c", "weigh 55.5"])
        _ = try runTrend(["--data-dir", devices.laptop, "-c", "sync now"])
        #expect(try weights(devices.laptop).contains(55.5), "the laptop reads the desktop's newest")
        // The laptop's newest file names the key it is sealed under; neither removed device holds it.
        func last(_ name: String) -> Int { Int(name.split(separator: "-").last?.dropLast(6) ?? "") ?? 0 }
        let names = try files.contentsOfDirectory(atPath: laptopFolder.path).filter { $0.hasSuffix(".jsonl") && !$0.hasPrefix("checkpoint") }
        let newest = try #require(names.max { last($0) < last($1) })
        let header = Array(try Data(contentsOf: laptopFolder.appendingPathComponent(newest)).prefix(SealedStream.magic.count + 8))
        let keyID = Array(header.dropFirst(SealedStream.magic.count))
        #expect(try keyIDs(devices.desktop).contains(keyID))
        #expect(!(try keyIDs(tablet).contains(keyID)), "the tablet holds the key of \(newest)")
        #expect(!(try keyIDs(phone).contains(keyID)), "the phone holds the key of \(newest)")
        #expect(try keyIDs(tablet).count > 1 && (try keyIDs(phone).count) > 1, "each removed device took a key made at a removal")
    }
}
