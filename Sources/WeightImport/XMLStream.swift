import Foundation
import SystemLibraries

/// An XML document read as a stream of elements by libxml2's `xmlTextReader`
/// (Debian's `libxml2`, opened on first use as libarchive is, so start-up
/// never loads it and the ICU it links). A real parser: a document cut short
/// or malformed is refused at the line the parser names.
///
/// Untrusted input is read with `XML_PARSE_NONET` and nothing more: no
/// network, no external DTD loaded, no attribute defaults from a DTD, no
/// entity substituted in text beyond XML's own, and libxml2's limits on
/// huge input and entity expansion left on. It reads as it goes, so memory
/// follows the deepest element, not the file; and it stops at the first
/// error, so a bomb of zeros ahead of `<?xml` costs one chunk.
///
/// Why not FoundationXML's `XMLParser`: on Linux it crashes (a force unwrap in
/// its libxml2 callback) on attributes declared in a DTD, which every Apple
/// Health export has, and on damaged files.
final class XMLStream {
    private typealias ReadCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    private typealias CloseCallback = @convention(c) (UnsafeMutableRawPointer?) -> Int32
    private typealias ReaderForIO = @convention(c) (ReadCallback?, CloseCallback?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?,
                                                   UnsafePointer<CChar>?, Int32) -> OpaquePointer?
    private typealias ReaderInt = @convention(c) (OpaquePointer?) -> Int32
    private typealias ReaderText = @convention(c) (OpaquePointer?) -> UnsafePointer<UInt8>?
    private typealias MoveToAttribute = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    private typealias ErrorHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, OpaquePointer?) -> Void
    private typealias SetErrorHandler = @convention(c) (OpaquePointer?, ErrorHandler?, UnsafeMutableRawPointer?) -> Void
    private typealias Free = @convention(c) (OpaquePointer?) -> Void
    private typealias CurrentNode = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias NodeLine = @convention(c) (OpaquePointer?) -> Int
    private typealias Initialize = @convention(c) () -> Void

    private struct Library {
        let readerForIO: ReaderForIO, read: ReaderInt, nodeType: ReaderInt, depth: ReaderInt, localName: ReaderText
        let moveToAttribute: MoveToAttribute, moveToElement: ReaderInt, value: ReaderText, line: ReaderInt
        let setErrorHandler: SetErrorHandler, free: Free
        let currentNode: CurrentNode, nodeLine: NodeLine, isEmpty: ReaderInt
    }

    /// libxml2's functions, from the first library that opens; nil when none does.
    private static let library: Library? = {
        DynamicLibrary.first(of: ["libxml2.so.2", "libxml2.so"]) { library in
            func find<T>(_ symbol: String, as type: T.Type) -> T? { library.function(symbol, as: type) }
            guard let initialize = find("xmlInitParser", as: Initialize.self),
                  let readerForIO = find("xmlReaderForIO", as: ReaderForIO.self),
                  let read = find("xmlTextReaderRead", as: ReaderInt.self),
                  let nodeType = find("xmlTextReaderNodeType", as: ReaderInt.self),
                  let depth = find("xmlTextReaderDepth", as: ReaderInt.self),
                  let localName = find("xmlTextReaderConstLocalName", as: ReaderText.self),
                  let moveToAttribute = find("xmlTextReaderMoveToAttribute", as: MoveToAttribute.self),
                  let moveToElement = find("xmlTextReaderMoveToElement", as: ReaderInt.self),
                  let value = find("xmlTextReaderConstValue", as: ReaderText.self),
                  let line = find("xmlTextReaderGetParserLineNumber", as: ReaderInt.self),
                  let setErrorHandler = find("xmlTextReaderSetErrorHandler", as: SetErrorHandler.self),
                  let free = find("xmlFreeTextReader", as: Free.self),
                  let currentNode = find("xmlTextReaderCurrentNode", as: CurrentNode.self),
                  let nodeLine = find("xmlGetLineNo", as: NodeLine.self),
                  let isEmpty = find("xmlTextReaderIsEmptyElement", as: ReaderInt.self) else { return nil }
            initialize()
            return Library(readerForIO: readerForIO, read: read, nodeType: nodeType, depth: depth, localName: localName,
                           moveToAttribute: moveToAttribute, moveToElement: moveToElement, value: value, line: line,
                           setErrorHandler: setErrorHandler, free: free,
                           currentNode: currentNode, nodeLine: nodeLine, isEmpty: isEmpty)
        }
    }()

    /// `XML_PARSE_NONET`: nothing is fetched; every other option (entity substitution, DTD loading, huge input) stays off.
    private static let options: Int32 = 1 << 11
    /// libxml2's `XML_PARSER_SEVERITY_ERROR`: the severity of an error that stops the document.
    private static let errorSeverity: Int32 = 4

    /// Why a document could not be read.
    enum Failure: Error, Equatable {
        case noLibrary
        /// The parser's reason and the line it names.
        case malformed(String, line: Int)
        /// The bytes ended before the document did, on this line.
        case cutShort(line: Int)
    }

    /// One element as the reader stands on it: its name, its line and its attributes, read only when asked.
    struct Element {
        fileprivate let stream: XMLStream
        /// Its depth: 0 for the root.
        let depth: Int

        /// Its local name.
        var name: String { stream.library.localName(stream.reader).map { String(cString: $0) } ?? "" }

        /// Whether its local name is `name`, compared without making a string (most elements of an export are passed over).
        func isNamed(_ name: String) -> Bool {
            guard let own = stream.library.localName(stream.reader) else { return false }
            return strcmp(UnsafeRawPointer(own).assumingMemoryBound(to: CChar.self), name) == 0
        }

        /// Whether it is written `<name/>`: it has no end to come.
        var isEmpty: Bool { stream.library.isEmpty(stream.reader) == 1 }

        /// The line its start tag is on, as the parser recorded it.
        var line: Int {
            let library = stream.library
            return library.currentNode(stream.reader).map { library.nodeLine($0) } ?? Int(library.line(stream.reader))
        }

        /// The attribute's value, entities read, or nil when the element has none of that name.
        func attribute(_ name: String) -> String? {
            withAttribute(name) { $0.map { String(cString: $0) } }
        }

        /// Whether the attribute's value is `value`, compared without making a string.
        func attribute(_ name: String, is value: String) -> Bool {
            withAttribute(name) { own in own.map { strcmp($0, value) == 0 } ?? false }
        }

        private func withAttribute<T>(_ name: String, _ body: (UnsafePointer<CChar>?) -> T) -> T {
            let library = stream.library, reader = stream.reader
            guard library.moveToAttribute(reader, name) == 1 else { return body(nil) }
            defer { _ = library.moveToElement(reader) }
            return body(library.value(reader).map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) })
        }
    }

    /// Where the bytes come from, and what went wrong there or in the parser.
    private final class Source {
        let next: () throws -> Data
        var pending = Data()
        var offset = 0
        var readError: (any Error)?
        var parseError: String?
        /// Whether `next` gave its last chunk, and the lines of what it gave.
        var ended = false
        var lines = 1
        /// The first bytes given, for a caller that must say what a document was before the parser reached its root.
        var head = Data()

        init(next: @escaping () throws -> Data) { self.next = next }
    }

    private let library: Library
    private let reader: OpaquePointer
    private let source: Source
    /// The document's root element, once read.
    private(set) var rootName: String?
    /// The first bytes of the document (up to `headSize`).
    var head: Data { source.head }
    static let headSize = 4_096

    /// A reader of the bytes `next` gives, chunk by chunk (empty at the end).
    init(next: @escaping () throws -> Data) throws(Failure) {
        guard let library = Self.library else { throw .noLibrary }
        let source = Source(next: next)
        let context = Unmanaged.passUnretained(source).toOpaque()
        let read: ReadCallback = { context, buffer, length in
            guard let context, let buffer, length > 0 else { return -1 }
            let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
            if source.offset >= source.pending.count {
                do {
                    source.pending = try source.next()
                    source.offset = 0
                } catch {
                    source.readError = error
                    return -1
                }
                if source.pending.isEmpty {
                    source.ended = true
                    return 0
                }
                source.lines += source.pending.withUnsafeBytes { bytes in bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
                if source.head.count < XMLStream.headSize { source.head += source.pending.prefix(XMLStream.headSize - source.head.count) }
            }
            let count = min(Int(length), source.pending.count - source.offset)
            source.pending.withUnsafeBytes { bytes in
                UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + source.offset, byteCount: count)
            }
            source.offset += count
            return Int32(count)
        }
        let close: CloseCallback = { _ in 0 }
        guard let reader = library.readerForIO(read, close, context, nil, nil, Self.options) else {
            throw .malformed("the XML reader could not start", line: 0)
        }
        let handler: ErrorHandler = { context, message, severity, _ in
            guard let context, severity >= XMLStream.errorSeverity else { return }
            let source = Unmanaged<Source>.fromOpaque(context).takeUnretainedValue()
            guard source.parseError == nil else { return }
            source.parseError = message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "a malformed document"
        }
        library.setErrorHandler(reader, handler, context)
        self.library = library
        self.reader = reader
        self.source = source
    }

    deinit {
        library.free(reader)
    }

    /// Reads on to the end, calling `body` with each element, the root first (its name is kept as
    /// `rootName`); `body` returns false to stop. Reaching the end means the document was whole:
    /// one cut short or malformed throws the parser's reason at its line, and a read error from
    /// `next` is thrown as it was.
    func forEachElement(_ body: (Element) throws -> Bool) throws {
        try forEachNode { node in
            guard case let .element(element) = node else { return true }
            return try body(element)
        }
    }

    /// What the reader stands on.
    enum Node {
        case element(Element)
        /// Text or CDATA, entities read, inside the element at `depth - 1`.
        case text(String, depth: Int)
        /// The end of an element (an empty one, `<a/>`, has none).
        case end(depth: Int)
    }

    /// As `forEachElement`, with the text between elements and the ends of elements too.
    func forEachNode(_ body: (Node) throws -> Bool) throws {
        while true {
            let status = library.read(reader)
            if status == 0 { return }
            guard status == 1 else {
                if let error = source.readError { throw error }
                // At the end of the bytes, whatever the parser calls it, the document was cut short.
                if source.ended { throw Failure.cutShort(line: source.lines) }
                throw Failure.malformed(source.parseError ?? "the document is malformed", line: Int(library.line(reader)))
            }
            let depth = Int(library.depth(reader))
            let node: Node
            switch library.nodeType(reader) {
            case 1:
                let element = Element(stream: self, depth: depth)
                if depth == 0 { rootName = element.name }
                node = .element(element)
            case 3, 4: node = .text(library.value(reader).map { String(cString: $0) } ?? "", depth: depth)
            case 15: node = .end(depth: depth)
            default: continue
            }
            guard try body(node) else { return }
        }
    }
}
