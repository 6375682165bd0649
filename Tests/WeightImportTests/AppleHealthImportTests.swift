import Foundation
import Testing
import TestSupport
@testable import WeightImport

/// Apple Health's export.xml and export.zip, read through libxml2's reader (`XMLStream`).
extension WeightImportTests {
    /// Issue 18: XML that is not Apple Health's is refused by its root element; a file of
    /// stray `<` is refused too, read in one pass (it took a minute a megabyte before).
    @Test func xmlThatIsNotAHealthExportIsRefused() async throws {
        defer { temp.remove() }
        let gpx = try file("track.xml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1"><trk><trkseg><trkpt lat="46.5" lon="6.6"><ele>372</ele></trkpt></trkseg></trk></gpx>
        """)
        let stray = try file("stray.xml", "<?xml version=\"1.0\"?>\n" + String(repeating: "<", count: 200_000))
        let g = try await graph()
        await #expect(throws: ImportError.notAppleHealth(gpx.path, root: "gpx")) { try await g.app.weightImportFeature.preview(gpx) }
        await #expect(throws: ImportError.notAppleHealth(stray.path, root: "none")) { try await g.app.weightImportFeature.preview(stray) }
    }

    @Test func appleHealthKeepsOnlyBodyMassRecords() async throws {
        defer { temp.remove() }
        let url = try file("export.xml", """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record)*)>
        <!ATTLIST Record type CDATA #REQUIRED unit CDATA #IMPLIED value CDATA #IMPLIED startDate CDATA #REQUIRED>
        ]>
        <HealthData locale="en_US">
         <ExportDate value="2026-06-02 08:00:00 -0400"/>
         <Me HKCharacteristicTypeIdentifierDateOfBirth=""/>
         <Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="5000" startDate="2026-06-01 07:00:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="lb" value="181.6" startDate="2026-06-01 07:01:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Phone" unit="kg" value="82.0" startDate="2026-06-02 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="8200" startDate="2026-06-03 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="80" startDate="yesterday"/>
        </HealthData>
        """)
        let g = try await graph()
        let preview = try await g.app.weightImportFeature.preview(url)
        #expect(preview.format == .appleHealth)
        #expect(preview.newEntries.count == 2)
        #expect(preview.newEntries[0].date == date("2026-06-01 11:01"))
        #expect(abs(preview.newEntries[0].kilograms - 181.6 * 0.45359237) < 1e-12)
        #expect(preview.invalid.map(\.line) == [12, 13], "line numbers of the file, DTD and all")
    }

    /// Issue 32, item 10: an export.xml cut short, at a record boundary or inside a record, is refused, naming
    /// where it ends, and nothing is imported; before, one cut at a boundary imported as complete.
    @Test func anAppleHealthExportCutShortIsRefused() async throws {
        defer { temp.remove() }
        let whole = """
        <?xml version="1.0" encoding="UTF-8"?>
        <HealthData locale="en_US">
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="82.0" startDate="2026-06-02 07:05:00 -0400"/>
         <Record type="HKQuantityTypeIdentifierBodyMass" unit="kg" value="81.8" startDate="2026-06-03 07:05:00 -0400"/>
        </HealthData>

        """
        let g = try await graph()
        #expect(try await g.app.weightImportFeature.preview(try file("export.xml", whole)).newCount == 2)
        let atBoundary = try file("cut.xml", String(whole.prefix(upTo: whole.range(of: "</HealthData>")!.lowerBound)))
        await #expect(throws: ImportError.unreadable(atBoundary.path, reason: "it ends at line 5 before <HealthData> closes: the export was cut short, "
                                                      + "so nothing was imported; export it again")) {
            _ = try await g.app.weightImportFeature.importFile(atBoundary)
        }
        let inside = try file("cut-inside.xml", String(whole.prefix(upTo: whole.range(of: "value=\"81.8\"")!.lowerBound)))
        await #expect(throws: ImportError.unreadable(inside.path, reason: "it ends at line 4 before <HealthData> closes: the export was cut short, "
                                                      + "so nothing was imported; export it again")) {
            _ = try await g.app.weightImportFeature.preview(inside)
        }
        // Malformed inside (a tag broken on line 4) is refused at the line libxml2's parser names, nothing imported.
        let broken = try file("broken.xml", whole.replacingOccurrences(of: "unit=\"kg\" value=\"81.8\"", with: "unit=\"kg\" value=81.8"))
        do {
            _ = try await g.app.weightImportFeature.importFile(broken)
            Issue.record("a malformed export was imported")
        } catch let ImportError.unreadable(_, reason) {
            #expect(reason.hasPrefix("the XML parser stopped at line 4: ") && reason.hasSuffix("the export is damaged, so nothing was imported; export it again"), "\(reason)")
        }
        try await g.app.weightEntryFeature.load()
        #expect(g.app.weightEntryFeature.recentTrend(days: 1) == [nil], "nothing was written")
    }

    /// Issue 32, item 9: a zip whose member inflates far beyond any export (100 MB of step records in a few
    /// hundred KB, well-formed XML the parser reads on) is refused once it passes its cap; nothing is imported.
    /// One of zeros ahead of `<?xml` (the attack's bomb) stops at libxml2's first error, at once.
    @Test func aZipBombIsRefusedAtItsCap() async throws {
        defer { temp.remove() }
        let bomb = temp.url.appendingPathComponent("export.zip")
        let script = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('apple_health_export/export.xml', 'w') as f:
                    f.write(b'<?xml version="1.0"?>\\n<HealthData locale="en">\\n')
                    record = b'<Record type="HKQuantityTypeIdentifierStepCount" unit="count" value="1"/>\\n'
                    for _ in range(100): f.write(record * ((1 << 20) // len(record)))
            """
        #expect(try runTool("/usr/bin/env", ["python3", "-c", script, bomb.path], mergingErrors: true).status == 0)
        let g = try await graph()
        do {
            _ = try await g.app.weightImportFeature.importFile(bomb)
            Issue.record("a zip bomb was read as an export")
        } catch let ImportError.unreadable(_, reason) {
            // It stops at the cap (at least 64 MB, else 200 times the archive), within the chunk that passed it.
            let archive = try #require(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int)
            let cap = max(64 << 20, 200 * archive)
            let stopped = reason.firstRange(of: /stopped after (\d+) bytes/).flatMap { Int(reason[$0].split(separator: " ")[2]) }
            #expect(reason.contains("expands to more than 200 times the archive's size"), "\(reason)")
            #expect(stopped.map { $0 <= cap && $0 > cap - (1 << 16) } == true, "\(reason), cap \(cap)")
        }
        let zeros = temp.url.appendingPathComponent("zeros.zip")
        let zeroScript = """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_BZIP2) as z:
                with z.open('apple_health_export/export.xml', 'w') as f:
                    for _ in range(200): f.write(bytes(1 << 20))
                    f.write(b'<?xml version="1.0"?><HealthData locale="en"></HealthData>')
            """
        #expect(try runTool("/usr/bin/env", ["python3", "-c", zeroScript, zeros.path], mergingErrors: true).status == 0)
        // The scanner before read all 200 MB, found the root at the end and took it for an export.
        await #expect(throws: ImportError.notAppleHealth("\(zeros.path):apple_health_export/export.xml", root: "none")) {
            _ = try await g.app.weightImportFeature.importFile(zeros)
        }
    }
}
