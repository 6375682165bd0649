import Foundation
import Storage
import Testing
import TestSupport
import TextFormats
@testable import WeightImport
@testable import WeightLog

/// A weigh-in's stored shape is described once (`WeightField`): every stored
/// property of `WeightEntry` is described, and each form it is kept in (the
/// table, the journal, a snapshot and its streamed reader, the exports and
/// their import) keeps every field. A property added to `WeightEntry` but not
/// to `WeightField.all` fails the first test; a form that drops a field
/// fails the round trip for it.
@MainActor
@Suite struct WeightFieldTests {
    /// A weigh-in with every field set, each to a value no default has.
    nonisolated static let full = WeightEntry(id: "fitbit-1234", date: Date(timeIntervalSince1970: 1_767_597_000), kilograms: 81.25,
                                  note: "after the \"long\" run, naïve ✓", bodyFatPercent: 23.5, typedUnit: .kilograms)
    /// The same with every optional field unknown.
    nonisolated static let bare = WeightEntry(id: "0b6e6f1a-3c1f-4d8e-9a0b-5c2d7e8f9a10", date: Date(timeIntervalSince1970: 1_767_683_100),
                                  kilograms: 80.5)

    @Test func everyStoredPropertyIsDescribedOnce() {
        let properties = Mirror(reflecting: Self.full).children.compactMap(\.label)
        #expect(WeightField.all.map(\.property) == properties)
        for path in [\WeightField.column, \.snapshotKey, \.exportKey, \.csvColumn] {
            #expect(Set(WeightField.all.map { $0[keyPath: path] }).count == WeightField.all.count, "names are distinct")
        }
        // Each field reads back what it wrote, and its unknown value clears it.
        var entry = Self.bare
        for field in WeightField.all {
            field.set(&entry, field.get(Self.full))
        }
        #expect(entry == Self.full)
        for field in WeightField.optional {
            field.set(&entry, .absent)
        }
        #expect(entry.note == nil && entry.bodyFatPercent == nil)
    }

    @Test func theTableAndItsJournalHaveEveryFieldsColumn() throws {
        let store = LocalDataStore.inMemory()
        let columns = try store.read { try $0.query("SELECT name FROM pragma_table_info('weight_entries') ORDER BY cid") { $0.text(0) } }
        #expect(columns == WeightField.all.map(\.column))
        // The journal's triggers, as the frozen migrations made them, record every column.
        let triggers = try store.read {
            try $0.query("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'journal_weight_entries_%'") { $0.text(0) }
        }
        #expect(triggers.count == 3)
        for sql in triggers {
            for field in WeightField.all {
                #expect(sql.contains(".\(field.column),") || sql.contains(".\(field.column) "), "\(field.column) in \(sql)")
            }
        }
        let journaled = try #require(WeightTable().journaledTables.first)
        #expect(journaled.columns == WeightField.all.map(\.column))
    }

    @Test(arguments: [WeightFieldTests.full, WeightFieldTests.bare])
    func theTableKeepsEveryField(entry: WeightEntry) throws {
        let store = LocalDataStore.inMemory()
        try store.write { try WeightTable.insert(entry, in: $0) }
        #expect(try store.read { try WeightTable.all(in: $0) } == [entry])
        var changed = entry == Self.full ? Self.bare : Self.full
        changed.id = entry.id
        #expect(try store.write { try WeightTable.update(changed, in: $0) })
        #expect(try store.read { try WeightTable.all(in: $0) } == [changed])
    }

    @Test(arguments: [WeightFieldTests.full, WeightFieldTests.bare])
    func aSnapshotKeepsEveryFieldWithItsKeysSorted(entry: WeightEntry) throws {
        var out = CanonicalJSON()
        WeightEntry.writeCanonical(&out, entry)
        let data = Data(out.bytes)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let expected = WeightField.all.filter { $0.get(entry) != .absent }.map(\.snapshotKey)
        #expect(Set(object.keys) == Set(expected))
        // The keys appear in sorted order, as the canonical form requires.
        let text = String(decoding: data, as: UTF8.self)
        let offsets = expected.sorted().map { text.range(of: "\"\($0)\":")?.lowerBound }
        #expect(offsets.allSatisfy { $0 != nil } && offsets.compactMap { $0 } == offsets.compactMap { $0 }.sorted())
        // Both readers: JSONDecoder's, and the streamed one a large snapshot is read with.
        #expect(try JSONDecoder().decode(WeightSnapshotRow.self, from: data).entry == entry)
        let array = Data("[".utf8) + data + Data(",".utf8) + data + Data("]".utf8)
        var streamed: [WeightEntry] = []
        _ = try WeightTable.forEachRow(of: StreamedMember(source: InMemoryBytes(array), range: 0..<array.count)) { streamed.append($0) }
        #expect(streamed == [entry, entry])
    }

    @Test func aStreamedSnapshotRowOfTheWrongTypeIsLeftToTheDecoderWhichSaysSo() throws {
        for text in [#"[{"id":"a","instant":1767597000,"kilograms":"81"}]"#, #"[{"id":"a","instant":1767597000}]"#,
                     #"[{"id":null,"instant":1767597000,"kilograms":81}]"#] {
            let data = Data(text.utf8)
            #expect(throws: DecodingError.self, "\(text)") {
                _ = try WeightTable.forEachRow(of: StreamedMember(source: InMemoryBytes(data), range: 0..<data.count)) { _ in }
            }
        }
    }

    @Test(arguments: ["json", "csv"])
    func anExportImportsBackWithEveryField(format: String) async throws {
        let temporary = TemporaryDirectory()
        defer { temporary.remove() }
        let directory = temporary.url
        let source = makeTestApp(clock: TestClock(date("2026-11-30 08:00")))
        try source.store.write { connection in
            try WeightTable.insert(Self.full, in: connection)
            try WeightTable.insert(Self.bare, in: connection)
        }
        let file = directory.appendingPathComponent("export.\(format)")
        let written = format == "json" ? try await source.app.exportsFeature.exportJSON(to: file)
            : try await source.app.exportsFeature.exportCSV(to: file, unit: .kilograms)
        #expect(written.entries == 2)
        if format == "csv" {
            let header = try String(contentsOf: file, encoding: .utf8).split(separator: "\r\n").first.map(String.init)
            #expect(header == "id,date,weight,unit,note,body_fat,typed_unit")
        }
        let target = makeTestApp(clock: TestClock(date("2026-11-30 08:00")))
        let result = try await target.app.weightImportFeature.importFile(file)
        #expect(result.imported == 2 && result.preview.invalid.isEmpty)
        let entries = try await target.app.weightEntryFeature.allEntries()
        #expect(entries == [Self.full, Self.bare])
    }
}
