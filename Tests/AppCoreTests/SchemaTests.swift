import Foundation
import Testing
import TestSupport
import Vocabulary
import DailyTips
import Habits
import Settings
import Sync
import WeightLog
@testable import AppCore
@testable import Storage

/// Issue 27, items 1 and 2: the migrations that shipped are frozen, each
/// table's owner declares its own, and a fresh database's schema equals one
/// upgraded from every shipped version (`Tests/Fixtures/databases`), as
/// GRDB's `eraseDatabaseOnSchemaChange` holds a schema to its migrations.
@Suite struct SchemaTests {
    /// The SHA-256 of every migration that has shipped, by owner and version.
    /// Editing one fails here: a change to a table is a new migration.
    static let shipped: [String: String] = [
        "SettingsTable 1": "5d2c9185544773d163a3add237817c09ab2f1e1108ce1accae7ec4de8d2551fb",
        "WeightTable 2": "264e7477a8fd8bfc23ec49df9c8483eb1532d3de85c47d0db6c4f3c882fe70df",
        "TipDeckTable 3": "d9af225335c3b5399d8782854c44fa1acef06dbe295d9c8207d5c18c4e76b884",
        "HabitsTable 4": "326259db1f3ec04ae5c56787bb250a946ea820adb68e632a7987fe5edc4b8248",
        "MetaTable 5": "339b843e7ae4fdbdc72a874445beaf64bd9f65c9cfe00d63eeb4e244e9ab37c9",
        "HabitsTable 6": "d37cb06ce75e3acfa1b7e1b7d9c263c5bd7dd14cbf84bf027149ed5e5ab5fc26",
        "HabitsTable 7": "d99b9b218b635d622f484d5e5101b51d1446055849ef3993cc31d395de7a68c0",
        "HabitsTable 8": "26552358548ada8ccc880aa6b4ae7fd8d96cd7cdecb1b62207202a4decdf640b",
        "HabitsTable 9": "f1d887a6288b83d4083c5e4f674922c9566550d765587ae6c4a9689c41256567",
        "WeightTable 10": "94fc254ec6732c81b03d57518033ade7daf8d8e862a3a821a1b593acb6dbf965",
        "WeightTable 11": "03e4068210f26cd6b7dd9cff92c88037340a6364e8e17b214c0c2e4473690172",
        "HabitsTable 12": "104c6e4134c08864962b2bda2fc8cbcf73f12d92d33bf45a0b7cec70a983c5bf",
        "JournalTables 12": "d5a30d4b8142f0caba8057337a58731103fe0fa70e26677cf39782529cd66409",
        "SettingsTable 12": "147d475e51dcb1eba79746fa77d1610801ddbddd51eef48845a1fdf1954f5613",
        "WeightTable 12": "920dd276af50def4c1147a1c23323d53fe597e0aa68a19c1b4db026898bf70f5",
        "HabitsTable 13": "280db445600b2c0a0a31f22fd13505ce29d8ccadb882fc5d3124e3670ab614de",
        "WeightTable 14": "ef8e3423427fc934ca11a7532bc96358e89f1ad04fc55119f0e79a711b883316",
        "JournalTables 15": "9a39235dc9e01e77fb8fa4810fbc6cabd10db48910957540d84375cdbff35d5b",
        "WeightTable 15": "14a58d99a7cc3a3d0689b5f25e66b8c10bcbe652fec2872e87bf5e5c4d69461d",
        "HabitsTable 16": "c5580f1c26b06d0effa95c6daae5c1757607229e77d449b75766a9a545c4b2a3",
        "WeightTable 17": "74bd99df084f92d7b2cda0bfbc5ec2e93340b54b575ce328b2179dd5cefb4820",
        "SyncTables 18": "0f1c8905273c4bc4be8d46eeee059181e710afb06d64d18f5564ffce01290b4b",
        "SyncTables 20": "ffa0358523a29a0b9ae3f6cfe892cabc24ee0f9f0d7388dde7a1521df37404d5",
        "HabitsTable 21": "c5580f1c26b06d0effa95c6daae5c1757607229e77d449b75766a9a545c4b2a3",
        "MeasurementTable 19": "02e8b2a15516a92ce97869c37e429d5d4bbc1162cc9a0e3e97c6e5caf5f1398f",
        "HabitsTable 22": "0016cf412b4d439c6cbb6b9c202312e0575e00e2c9129a00cef515313589fe43",
        "JournalTables 22": "b1e9f13eccdd0caba8babda64d3e0ff2843648e1464ccc21560d383c858d7f23",
        "TipDeckTable 23": "b52eebbd2db353bd90dcea1ac6d8f4bbc82dfd04eb0c0d77806400512a8b0f0d",
        "HabitsTable 24": "b3f666a06767294a6a75cd80f651ce495fef18a520fe9a2a02308de46327ac3c",
    ]

    static func sha256(_ text: String) throws -> String {
        let script = "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString).sql")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }  // A temporary file; the test's result does not depend on it.
        let run = try runTool("/bin/sh", ["-c", "/usr/bin/python3 -c '\(script)' < '\(file.path)'"])
        return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static var owners: [any SchemaOwner] {
        [MetaTable(), JournalTables(), SyncTables(), SettingsTable(), WeightTable(), TipDeckTable(), HabitsTable(), MeasurementTable()]
    }

    @Test func everyShippedMigrationKeepsTheTextItShippedWith() throws {
        var found: [String: String] = [:]
        for owner in Self.owners {
            for migration in owner.migrations {
                found["\(type(of: owner)) \(migration.version)"] = try Self.sha256(migration.sql)
            }
        }
        for (key, hash) in Self.shipped.sorted(by: { $0.key < $1.key }) {
            #expect(found[key] == hash, "migration \(key) was edited; add a new migration instead")
        }
        let new = found.keys.filter { Self.shipped[$0] == nil }.sorted()
        #expect(new.isEmpty, "pin the new migrations once they ship: \(new.map { "\"\($0)\": \"\(found[$0] ?? "")\"" })")
    }

    @Test func theSchemaIsOneStepPerVersionFromOneAndEveryOwnerIsListed() {
        #expect(DatabaseSchema.trend.steps.map(\.version) == Array(1...24))
        #expect(DatabaseSchema.trend.steps == DatabaseSchema(Self.owners).steps)
        #expect(DatabaseSchema.trend.journaled.keys.sorted() == [0, 1, 2, 3, 4, 5, 6, 7])
    }

    /// Each journaled table's triggers, as the migrations made them, record
    /// exactly the columns its owner declares (`ChangeJournal.triggerSQL`).
    @Test func theJournalsTriggersRecordTheColumnsTheirOwnersDeclare() throws {
        let store = LocalDataStore.inMemory()
        let triggers = try store.read { connection in
            try connection.query("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal\\_%\\_%' ESCAPE '\\'") {
                ($0.text(0), $0.text(1))
            }
        }
        let stored = Dictionary(triggers, uniquingKeysWith: { first, _ in first })
        for table in DatabaseSchema.trend.journaled.values {
            let expected = ChangeJournal.triggerSQL(for: table)
            for kind in ["insert", "update", "delete"] {
                let name = "journal_\(table.name)_\(kind)"
                let statement = expected.components(separatedBy: "CREATE TRIGGER ").first { $0.hasPrefix(name + " ") }
                #expect(stored[name].map(Self.normalised) == statement.map { Self.normalised("CREATE TRIGGER " + $0) }, "\(name)")
            }
        }
    }

    /// Issue 27, item 5: the weight range is one rule (`WeightUnit.acceptedKilograms`); the table's CHECK says the same.
    @Test func theWeighInTablesCheckIsTheAcceptedRange() throws {
        let sql = try LocalDataStore.inMemory().read {
            try $0.query("SELECT sql FROM sqlite_master WHERE name = 'weight_entries'") { $0.text(0) }.first ?? ""
        }
        let range = WeightUnit.acceptedKilograms
        #expect(sql.contains("CHECK (kilograms BETWEEN \(Int(range.lowerBound)) AND \(Int(range.upperBound)))"), "\(sql)")
        #expect(WeightUnit.acceptedKilogramsText == "20–500 kg")
    }

    /// `sqlite_master`'s text with its spacing made uniform, so text written
    /// with other line breaks compares equal and nothing else does.
    static func normalised(_ sql: String) -> String {
        var text = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for mark in ["(", ")", ",", ";"] {
            text = text.replacingOccurrences(of: " " + mark, with: mark).replacingOccurrences(of: mark + " ", with: mark)
        }
        return text.hasSuffix(";") ? String(text.dropLast()) : text
    }

    /// Every table, index and trigger with its SQL, normalised.
    static func schema(of store: LocalDataStore) throws -> [String] {
        try store.read { connection in
            try connection.query("SELECT type, name, tbl_name, ifnull(sql, '') FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name") {
                "\($0.text(0)) \($0.text(1)) on \($0.text(2)): \(normalised($0.text(3)))"
            }
        }
    }

    @Test(arguments: DatabaseFixture.all)
    func aFreshSchemaEqualsTheSchemaUpgradedFromEachShippedVersion(fixture: DatabaseFixture) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        try fixture.copy(into: temp.url)
        let upgraded = LocalDataStore(directory: temp.url)
        #expect(try upgraded.read { try $0.scalarInt("PRAGMA user_version") } == DatabaseSchema.trend.currentVersion)
        let fresh = try Self.schema(of: .inMemory())
        let found = try Self.schema(of: upgraded)
        #expect(found == fresh, "only upgraded: \(Set(found).subtracting(fresh)); only fresh: \(Set(fresh).subtracting(found))")
    }

    /// A version this Trend did not write, or tables that are not that version's, are refused, and the file is left as it was.
    @Test(arguments: [-1, -2_147_483_648, 0, 1, 5, 14])
    func aVersionThatDoesNotMatchItsTablesIsRefusedUntouched(version: Int) throws {
        let temp = TemporaryDirectory()
        defer { temp.remove() }
        let store = LocalDataStore(directory: temp.url)
        try store.write { try $0.execute("INSERT INTO settings(key, value) VALUES ('unit', 'lb'); PRAGMA user_version = \(version)") }
        store.close()
        let file = temp.url.appendingPathComponent(LocalDataStore.fileName)
        let before = try Data(contentsOf: file)
        let again = LocalDataStore(directory: temp.url)
        #expect(throws: StorageError.unknownSchema(path: file.path, found: version)) { try again.open() }
        #expect(try Data(contentsOf: file) == before)
    }
}
