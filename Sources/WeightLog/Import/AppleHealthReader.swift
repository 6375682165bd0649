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
        guard let stream = DoctypeStrippingStream(file: url) else { throw ImportError.unreadable(url.path, reason: "cannot open") }
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

/// A file stream without the document's internal DTD. Health exports
/// declare their attributes in one (`<!DOCTYPE HealthData [ <!ATTLIST …> ]>`),
/// and FoundationXML on Linux crashes on elements whose attributes a DTD
/// declares. The records need no DTD, so it is cut out of the first bytes
/// before the parser sees them; the rest of the file passes through in chunks.
final class DoctypeStrippingStream: InputStream {
    private let handle: FileHandle
    private var pending = Data()
    private var checkedHead = false
    private var atEnd = false

    init?(file url: URL) {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        self.handle = handle
        super.init(data: Data())
    }

    override func open() {}

    override func close() {
        try? handle.close()
    }

    override var hasBytesAvailable: Bool { !atEnd || !pending.isEmpty }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if !checkedHead {
            checkedHead = true
            pending = Self.withoutInternalSubset((try? handle.read(upToCount: 1 << 20)) ?? Data())
        }
        if pending.isEmpty, !atEnd {
            let chunk = (try? handle.read(upToCount: 1 << 16)) ?? Data()
            if chunk.isEmpty { atEnd = true } else { pending = chunk }
        }
        let count = min(length, pending.count)
        guard count > 0 else { return 0 }
        pending.copyBytes(to: buffer, count: count)
        pending = pending.dropFirst(count)
        if pending.isEmpty { pending = Data() }
        return count
    }

    /// The head with `<!DOCTYPE … [ … ]>` (or `<!DOCTYPE …>`) replaced by its line breaks.
    static func withoutInternalSubset(_ head: Data) -> Data {
        let bytes = [UInt8](head)
        let marker = Array("<!DOCTYPE".utf8)
        guard let start = bytes.firstRange(of: marker)?.lowerBound else { return head }
        var index = start + marker.count
        var depth = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == UInt8(ascii: ">"), depth <= 0 {
                // Keep its line breaks, so line numbers in messages still match the file.
                let lines = bytes[start...index].filter { $0 == 0x0A }.count
                return Data(bytes[..<start]) + Data(repeating: 0x0A, count: lines) + Data(bytes[(index + 1)...])
            }
            index += 1
        }
        return head
    }
}
