import Foundation
import Settings
import Storage
import Vocabulary
import WeightLog

/// Streams Apple Health's `export.xml`, keeping only `Record` elements of
/// type `HKQuantityTypeIdentifierBodyMass`. It reads the file in 64 KB chunks
/// and looks only at `<Record …>` start tags, so a multi-gigabyte export needs
/// a few megabytes of memory.
///
/// Why not XMLParser: FoundationXML on Linux crashes (a force unwrap in its
/// libxml2 callback) on attributes declared in a DTD — which every Health
/// export has — and on damaged files. Trend must not crash on any input, so
/// it reads the one element it needs itself.
struct AppleHealthReader {
    /// The rows' checks and conversions are the CSV readers'.
    let rows: WeightFileReader

    static let chunkSize = 1 << 16
    /// A start tag longer than this is not a Health record.
    static let longestTag = 1 << 16

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
        } catch .noMember {
            throw ImportError.unreadable(url.path, reason: "the zip archive holds no export.xml (Apple Health) "
                                         + "or \(HealthConnectReader.member) (Health Connect), so it is neither export")
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

    /// Scans chunks from `next` (empty at the end) for body-mass records.
    private func read(path: String, size: Double, format: ImportFormat, next: (Int) throws -> Data) throws -> ReadOutcome {
        var outcome = ReadOutcome(format: format, unit: .kilograms, unitAssumed: false)
        var scanner = TagScanner()
        // Most of an export is other records; only body-mass tags are worth parsing.
        scanner.needle = Array("HKQuantityTypeIdentifierBodyMass".utf8)
        var consumed = 0
        while true {
            let chunk = try next(consumed)
            if chunk.isEmpty { break }
            consumed += chunk.count
            scanner.feed(chunk) { tag in record(tag, into: &outcome) }
            if size > 0 { rows.progress(min(0.99, Double(consumed) / size)) }
        }
        if scanner.rootName != "HealthData" {
            throw ImportError.notAppleHealth(path, root: scanner.rootName.map { String($0.prefix(40)) } ?? "none")
        }
        // A file cut short, inside a record or at a record boundary (where it reads like a whole one but for its
        // last line), is refused, not taken as complete.
        guard scanner.rootClosed else {
            let where_ = scanner.unfinishedTagLine.map { "inside a Record at line \($0)" } ?? "at line \(scanner.lines) without closing <HealthData>"
            throw ImportError.unreadable(path, reason: "it ends \(where_): the export was cut short, so nothing was imported; export it again")
        }
        rows.progress(1)
        return outcome
    }

    private func record(_ tag: TagScanner.Tag, into outcome: inout ReadOutcome) {
        guard tag.name == "Record", tag.attributes["type"] == "HKQuantityTypeIdentifierBodyMass" else { return }
        let attributes = tag.attributes
        let unitName = attributes["unit"] ?? ""
        let scale: Double
        switch unitName.lowercased() {
        case "kg": scale = 1
        case "g": scale = 0.001
        case "lb", "lbs": scale = WeightUnit.kilogramsPerPound
        case "st": scale = WeightUnit.kilogramsPerPound * 14
        default:
            outcome.invalid.append(ImportProblem(line: tag.line, reason: "unknown unit '\(WeightFileReader.short(unitName))'"))
            return
        }
        guard let dateText = attributes["startDate"], let date = rows.dates.parse(dateText) else {
            outcome.invalid.append(ImportProblem(line: tag.line, reason: "'\(WeightFileReader.short(attributes["startDate"] ?? ""))' is not a date"))
            return
        }
        guard let value = WeightFileReader.number(attributes["value"] ?? "") else {
            outcome.invalid.append(ImportProblem(line: tag.line, reason: "'\(WeightFileReader.short(attributes["value"] ?? ""))' is not a weight"))
            return
        }
        rows.addKilograms(tag.line, date: date, kilograms: value * scale, note: nil, id: nil, to: &outcome)
    }
}

/// Finds XML start tags in a stream of bytes and reads their attributes.
/// Comments, declarations (`<!…>`, the DTD included), processing
/// instructions and end tags are stepped over.
struct TagScanner {
    struct Tag {
        let name: String
        let attributes: [String: String]
        /// The line the tag starts on.
        let line: Int
    }

    private var carry: [UInt8] = []
    private var line = 1
    private(set) var unfinishedTagLine: Int?

    /// Reads only the tags whose bytes hold `needle`; the rest are stepped over unparsed.
    var needle: [UInt8] = []
    /// The name of the first start tag: the document's root element.
    private(set) var rootName: String?
    /// Whether the root element's end tag came: a file cut short at a record boundary lacks it.
    private(set) var rootClosed = false
    /// The lines read so far.
    var lines: Int { line }

    mutating func feed(_ chunk: Data, _ found: (Tag) -> Void) {
        var bytes = carry
        bytes.append(contentsOf: chunk)
        carry.removeAll(keepingCapacity: true)
        var index = 0
        let count = bytes.count
        unfinishedTagLine = nil
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1; index += 1; continue }
            guard byte == UInt8(ascii: "<") else { index += 1; continue }
            // Find the end of this markup, minding quotes and comments.
            let end: Int
            switch Self.endOfMarkup(bytes, from: index) {
            case let .end(at): end = at
            case let .broken(next):
                // A `<` inside a tag: this was not a tag. Go on from the inner `<`, so each byte is looked at once.
                for position in index..<next where bytes[position] == 0x0A { line += 1 }
                index = next
                continue
            case .needMore:
                if count - index > AppleHealthReader.longestTag {
                    // Longer than any tag: not one. The scan stopped at the limit (with no `<` before it), so skipping on is linear.
                    let next = index + AppleHealthReader.longestTag
                    for position in index..<next where bytes[position] == 0x0A { line += 1 }
                    index = next
                    continue
                }
                carry = Array(bytes[index...])
                unfinishedTagLine = line
                return
            }
            let next = index + 1 < count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "/") {
                // An end tag: nothing to read, but the root's says the document is whole.
                if let rootName, !rootName.isEmpty, Self.parse(bytes[(index + 2)..<end], line: line)?.name == rootName { rootClosed = true }
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                // A declaration, comment or instruction: nothing to read.
            } else if rootName == nil {
                rootName = Self.parse(bytes[(index + 1)..<end], line: line)?.name ?? ""
                if needle.isEmpty || Self.contains(needle, in: bytes, from: index + 1, to: end),
                   let tag = Self.parse(bytes[(index + 1)..<end], line: line) { found(tag) }
            } else if needle.isEmpty || Self.contains(needle, in: bytes, from: index + 1, to: end),
                      let tag = Self.parse(bytes[(index + 1)..<end], line: line) {
                found(tag)
            }
            for position in index..<end where bytes[position] == 0x0A { line += 1 }
            index = end + 1
        }
    }

    /// Whether `bytes[from..<to]` holds `needle`: a plain loop, quick for short tags.
    static func contains(_ needle: [UInt8], in bytes: [UInt8], from: Int, to: Int) -> Bool {
        let length = needle.count
        guard length > 0, to - from >= length else { return length == 0 }
        return bytes.withUnsafeBufferPointer { buffer in
            needle.withUnsafeBufferPointer { pattern in
                let first = pattern[0]
                var index = from
                while index <= to - length {
                    if buffer[index] == first {
                        var matched = 1
                        while matched < length, buffer[index + matched] == pattern[matched] { matched += 1 }
                        if matched == length { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }

    enum MarkupEnd: Equatable {
        /// The `>` that closes it.
        case end(Int)
        /// A `<` came first (XML allows none inside a tag or an attribute value): not a tag.
        case broken(next: Int)
        /// Not closed within the bytes so far (or within `longestTag`).
        case needMore
    }

    /// Where the markup starting at `start` ends. A declaration (`<!…>`, the DTD with its
    /// bracketed `<!ELEMENT …>`s) may hold `<`; a tag may not. Looks at most `longestTag` bytes.
    static func endOfMarkup(_ bytes: [UInt8], from start: Int) -> MarkupEnd {
        let count = min(bytes.count, start + AppleHealthReader.longestTag)
        let isDeclaration = start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: "!")
        if start + 3 < count, bytes[start + 1] == UInt8(ascii: "!"), bytes[start + 2] == UInt8(ascii: "-"), bytes[start + 3] == UInt8(ascii: "-") {
            var index = start + 4
            while index + 2 < count {
                if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: ">") { return .end(index + 2) }
                index += 1
            }
            return .needMore
        }
        var quote: UInt8?
        var brackets = 0
        var index = start + 1
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), !isDeclaration { return .broken(next: index) }
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                brackets += 1
            } else if byte == UInt8(ascii: "]") {
                brackets -= 1
            } else if byte == UInt8(ascii: ">"), brackets <= 0 {
                return .end(index)
            }
            index += 1
        }
        return .needMore
    }

    /// `Name attr="value" …` (and an optional trailing `/`) into a tag.
    static func parse(_ body: ArraySlice<UInt8>, line: Int) -> Tag? {
        var index = body.startIndex
        let end = body.endIndex
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        let nameStart = index
        while index < end, !isSpace(body[index]), body[index] != UInt8(ascii: "/") { index += 1 }
        guard index > nameStart else { return nil }
        let name = String(decoding: body[nameStart..<index], as: UTF8.self)
        var attributes: [String: String] = [:]
        while index < end {
            while index < end, isSpace(body[index]) || body[index] == UInt8(ascii: "/") { index += 1 }
            let keyStart = index
            while index < end, body[index] != UInt8(ascii: "="), !isSpace(body[index]) { index += 1 }
            guard index > keyStart else { break }
            let key = String(decoding: body[keyStart..<index], as: UTF8.self)
            while index < end, isSpace(body[index]) { index += 1 }
            guard index < end, body[index] == UInt8(ascii: "=") else { continue }
            index += 1
            while index < end, isSpace(body[index]) { index += 1 }
            guard index < end, body[index] == UInt8(ascii: "\"") || body[index] == UInt8(ascii: "'") else { return nil }
            let quote = body[index]
            index += 1
            let valueStart = index
            while index < end, body[index] != quote { index += 1 }
            guard index < end else { return nil }
            attributes[key] = decodeEntities(String(decoding: body[valueStart..<index], as: UTF8.self))
            index += 1
        }
        return Tag(name: name, attributes: attributes, line: line)
    }

    static func decodeEntities(_ text: String) -> String {
        // A byte scan: String.contains(String) goes through NSString here, a tenth of a large export's scan.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                out += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                var number: UInt32?
                if entity.hasPrefix("#x") { number = UInt32(entity.dropFirst(2), radix: 16) }
                else if entity.hasPrefix("#") { number = UInt32(entity.dropFirst()) }
                if let number, let scalar = UnicodeScalar(number) { out.unicodeScalars.append(scalar) }
                else { out += "&" + entity + ";" }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
