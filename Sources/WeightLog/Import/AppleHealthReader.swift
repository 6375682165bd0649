import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Settings

/// Streams Apple Health's `export.xml` with XMLParser, keeping only
/// `Record` elements of type `HKQuantityTypeIdentifierBodyMass`. The parser
/// reads the file in small chunks, so a multi-gigabyte export needs little memory.
struct AppleHealthReader {
    /// The rows' checks and conversions are the CSV readers'.
    let rows: WeightFileReader

    func read(_ url: URL) throws -> ReadOutcome {
        guard let stream = InputStream(url: url) else { throw ImportError.unreadable(url.path, reason: "cannot open") }
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.doubleValue ?? 0
        let parser = XMLParser(stream: stream)
        parser.shouldResolveExternalEntities = false
        let collector = Collector(reader: self, fileSize: size)
        parser.delegate = collector
        let finished = parser.parse()
        var outcome = collector.outcome
        if !finished, let error = parser.parserError {
            outcome.invalid.append(ImportProblem(line: parser.lineNumber, reason: "the XML stops making sense here (\((error as NSError).code)); rows after it were not read"))
        }
        rows.progress(1)
        return outcome
    }

    /// XMLParser's delegate; lives only for one parse on one thread.
    private final class Collector: NSObject, XMLParserDelegate {
        let reader: AppleHealthReader
        let fileSize: Double
        var outcome: ReadOutcome
        var seen = 0

        init(reader: AppleHealthReader, fileSize: Double) {
            self.reader = reader
            self.fileSize = fileSize
            outcome = ReadOutcome(format: .appleHealth, unit: .kilograms, unitAssumed: false)
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            guard elementName == "Record" else { return }
            seen += 1
            if seen % 4_096 == 0, fileSize > 0 {
                // About 250 bytes a record in a Health export: a fair estimate of how far along we are.
                reader.rows.progress(min(0.99, Double(seen) * 250 / fileSize))
            }
            guard attributes["type"] == "HKQuantityTypeIdentifierBodyMass" else { return }
            let line = parser.lineNumber
            let unitName = attributes["unit"] ?? ""
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
            guard let dateText = attributes["startDate"], let date = reader.rows.dates.parse(dateText) else {
                outcome.invalid.append(ImportProblem(line: line, reason: "'\(WeightFileReader.short(attributes["startDate"] ?? ""))' is not a date"))
                return
            }
            guard let value = WeightFileReader.number(attributes["value"] ?? "") else {
                outcome.invalid.append(ImportProblem(line: line, reason: "'\(WeightFileReader.short(attributes["value"] ?? ""))' is not a weight"))
                return
            }
            reader.rows.addKilograms(line, date: date, kilograms: value * scale, note: nil, id: nil, to: &outcome)
        }
    }
}
