import Foundation
import Storage
import Vocabulary

/// Streams Apple Health's `export.xml` through libxml2's reader (`XMLStream`),
/// keeping only `Record` elements of type `HKQuantityTypeIdentifierBodyMass`.
/// It reads the file in 64 KB chunks, so a multi-gigabyte export needs a few
/// megabytes of memory; a file cut short or malformed is refused at the line
/// the parser names, and nothing of it is imported.
struct AppleHealthReader {
    /// The rows' checks and conversions are the CSV readers'.
    let rows: WeightFileReader

    static let chunkSize = 1 << 16

    func read(_ url: URL) throws -> ReadOutcome {
        let handle: FileHandle
        do {
            handle = try UntrustedFile.open(url.path)
        } catch {
            throw ImportError.unreadable(url.path, reason: error.description)
        }
        // Closing a file only read cannot lose data.
        defer { try? handle.close() }
        // The size only paces the progress bar; without it the bar waits for the end.
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.doubleValue ?? 0
        return try read(path: url.path, size: size, format: .appleHealth) { consumed in
            do {
                return try handle.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw ImportError.unreadable(url.path, reason: "reading stopped after \(consumed) bytes: \((error as NSError).localizedDescription)")
            }
        }
    }

    /// Apple Health's `export.zip`, as the iPhone shares it: the `export.xml`
    /// inside is streamed out of the archive, never extracted.
    func readZip(_ url: URL) throws -> ReadOutcome {
        let stream: ZipEntryStream
        do {
            stream = try ZipEntryStream(url: url) { path in
                path == "export.xml" || path.hasSuffix("/export.xml")
                    || path == HealthConnectReader.member || path.hasSuffix("/" + HealthConnectReader.member)
            }
        } catch let .noMember(holds) {
            let shown = holds.prefix(ZipEntryStream.namedMembers - 1).map { String(String.UnicodeScalarView($0.prefix(60).unicodeScalars.filter { !ControlCharacters.contains($0) })) }.joined(separator: ", ")
                + (holds.count >= ZipEntryStream.namedMembers ? ", …" : "")
            throw ImportError.unreadable(url.path, reason: "the zip archive holds \(holds.isEmpty ? "nothing" : shown), which is none of the "
                                         + "exports Trend reads from a zip: Apple Health's export.xml, Health Connect's "
                                         + "\(HealthConnectReader.member), or Loop Habit Tracker's Habits.csv and Checkmarks.csv")
        } catch .noLibrary {
            throw ImportError.unreadable(url.path, reason: "reading zip archives needs libarchive (Debian's libarchive13); unzip it and import export.xml")
        } catch let .unreadable(reason) {
            throw ImportError.unreadable(url.path, reason: "the zip archive cannot be read (\(reason))")
        }
        if stream.memberPath.hasSuffix(HealthConnectReader.member) { return try HealthConnectReader(rows: rows).read(stream, of: url) }
        return try read(path: url.path + ":" + stream.memberPath, size: 0, format: .appleHealthZip) { consumed in
            do throws(ZipEntryStream.Failure) {
                return try stream.read(upTo: Self.chunkSize)
            } catch let .unreadable(reason) {
                throw ImportError.unreadable(url.path, reason: "reading export.xml stopped after \(consumed) bytes: \(reason); nothing was imported")
            } catch {
                throw ImportError.unreadable(url.path, reason: "reading export.xml stopped after \(consumed) bytes: the archive is damaged")
            }
        }
    }

    /// Reads the document `next` gives chunk by chunk (empty at the end) for body-mass records.
    private func read(path: String, size: Double, format: ImportFormat, next: @escaping (Int) throws -> Data) throws -> ReadOutcome {
        var outcome = ReadOutcome(format: format, unit: .kilograms, unitAssumed: false)
        var consumed = 0
        let rows = self.rows
        let stream: XMLStream
        do {
            stream = try XMLStream {
                let chunk = try next(consumed)
                consumed += chunk.count
                if size > 0 { rows.progress(min(0.99, Double(consumed) / size)) }
                return chunk
            }
        } catch .noLibrary {
            throw ImportError.unreadable(path, reason: "reading Apple Health's export.xml needs libxml2 (Debian's libxml2)")
        } catch {
            throw ImportError.unreadable(path, reason: "\(error)")
        }
        do {
            try stream.forEachElement { element in
                // Another document's root: stop at once.
                if element.depth == 0 { return element.isNamed("HealthData") }
                if element.isNamed("Record"), element.attribute("type", is: "HKQuantityTypeIdentifierBodyMass") { record(element, into: &outcome) }
                return true
            }
        } catch let failure as XMLStream.Failure {
            // Not the root element of an export (the parser may stop before it hands the root over: the head says): not one at all.
            let root = stream.rootName ?? (String(decoding: stream.head, as: UTF8.self).contains("<HealthData") ? "HealthData" : nil)
            guard root == "HealthData" else { throw ImportError.notAppleHealth(path, root: root.map { String($0.prefix(40)) } ?? "none") }
            switch failure {
            case let .cutShort(line):
                // Cut inside a record or at a record boundary, it is refused, not taken as complete.
                throw ImportError.unreadable(path, reason: "it ends at line \(line) before <HealthData> closes: the export was cut short, "
                                             + "so nothing was imported; export it again")
            case let .malformed(reason, line):
                throw ImportError.unreadable(path, reason: "the XML parser stopped at line \(line): \(reason); the export is damaged, "
                                             + "so nothing was imported; export it again")
            case .noLibrary:
                throw ImportError.unreadable(path, reason: "reading Apple Health's export.xml needs libxml2 (Debian's libxml2)")
            }
        }
        guard stream.rootName == "HealthData" else {
            throw ImportError.notAppleHealth(path, root: stream.rootName.map { String($0.prefix(40)) } ?? "none")
        }
        rows.progress(1)
        return outcome
    }

    private func record(_ element: XMLStream.Element, into outcome: inout ReadOutcome) {
        let line = element.line
        let unitName = element.attribute("unit") ?? ""
        let scale: Double
        switch unitName.lowercased() {
        case "kg": scale = 1
        case "g": scale = 0.001
        case "lb", "lbs": scale = WeightUnit.kilogramsPerPound
        case "st": scale = WeightUnit.kilogramsPerPound * 14
        default:
            outcome.invalid.append(ImportProblem(line: line, reason: "unknown unit '\(WeightFileReader.short(unitName))'"))
            return
        }
        let dateText = element.attribute("startDate")
        guard let dateText, let date = rows.dates.parse(dateText) else {
            outcome.invalid.append(ImportProblem(line: line, reason: "'\(WeightFileReader.short(dateText ?? ""))' is not a date"))
            return
        }
        let valueText = element.attribute("value") ?? ""
        guard let value = WeightFileReader.number(valueText) else {
            outcome.invalid.append(ImportProblem(line: line, reason: "'\(WeightFileReader.short(valueText))' is not a weight"))
            return
        }
        rows.addKilograms(line, date: date, kilograms: value * scale, note: nil, id: nil, to: &outcome)
    }
}
