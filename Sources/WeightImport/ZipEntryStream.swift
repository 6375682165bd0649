import CArchive
import Foundation
import SystemLibraries

/// Reads one member of a zip archive as a stream of chunks, through
/// libarchive (Debian's `libarchive13`, opened on first use): Apple Health
/// shares its export as `export.zip` holding `apple_health_export/export.xml`.
/// Nothing is extracted to disk and nothing is inflated by hand; the member
/// is found by name, and a hostile archive costs time, never memory.
final class ZipEntryStream {
    private typealias New = @convention(c) () -> OpaquePointer?
    private typealias Configure = @convention(c) (OpaquePointer?) -> Int32
    private typealias OpenFile = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int) -> Int32
    private typealias NextHeader = @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    private typealias Pathname = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    private typealias ReadData = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int) -> Int
    private typealias ErrorString = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

    private struct Library {
        let new: New, supportZip: Configure, open: OpenFile, nextHeader: NextHeader, pathname: Pathname
        let readData: ReadData, free: Configure, errorString: ErrorString
    }

    /// libarchive's functions, from the first library that opens; nil when none does.
    private static let library: Library? = {
        DynamicLibrary.first(of: ["libarchive.so.13", "libarchive.so"]) { library in
            func find<T>(_ symbol: String, as type: T.Type) -> T? { library.function(symbol, as: type) }
            guard let new = find("archive_read_new", as: New.self),
                  let supportZip = find("archive_read_support_format_zip", as: Configure.self),
                  let open = find("archive_read_open_filename", as: OpenFile.self),
                  let nextHeader = find("archive_read_next_header", as: NextHeader.self),
                  let pathname = find("archive_entry_pathname", as: Pathname.self),
                  let readData = find("archive_read_data", as: ReadData.self),
                  let free = find("archive_read_free", as: Configure.self),
                  let errorString = find("archive_error_string", as: ErrorString.self) else { return nil }
            return Library(new: new, supportZip: supportZip, open: open, nextHeader: nextHeader, pathname: pathname,
                           readData: readData, free: free, errorString: errorString)
        }
    }()

    /// Why a zip could not be read.
    enum Failure: Error, Equatable {
        case noLibrary
        case unreadable(String)
        /// No member matched; the paths of the members it does hold, the first few.
        case noMember(holds: [String])
    }

    /// The most member paths a `noMember` names.
    static let namedMembers = 8

    private let library: Library
    private let archive: OpaquePointer
    /// The member's path in the archive.
    let memberPath: String
    /// The bytes the member may inflate to: `expansionLimit` times the archive's size, and at least
    /// `inflatedFloor`. A real export compresses about 20 to 1; a bomb (gigabytes of zeros in kilobytes)
    /// stops here, after seconds, not minutes of CPU.
    private let inflatedLimit: Int
    private var inflated = 0
    static let expansionLimit = 200
    static let inflatedFloor = 64 << 20

    /// Opens `url` and moves to the first member whose path `matches`.
    init(url: URL, member matches: (String) -> Bool) throws(Failure) {
        guard let library = Self.library else { throw .noLibrary }
        guard let archive = library.new() else { throw .unreadable("out of memory") }
        self.library = library
        self.archive = archive
        // Unknown: as small as the floor allows.
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        inflatedLimit = max(Self.inflatedFloor, size.multipliedReportingOverflow(by: Self.expansionLimit).overflow ? .max : size * Self.expansionLimit)
        _ = library.supportZip(archive)
        guard library.open(archive, url.path, 1 << 16) == ARCHIVE_OK else {
            let reason = library.errorString(archive).map { String(cString: $0) } ?? "not a zip archive"
            _ = library.free(archive)
            throw .unreadable(reason)
        }
        var entry: OpaquePointer?
        var holds: [String] = []
        while true {
            let status = library.nextHeader(archive, &entry)
            if status == ARCHIVE_EOF { _ = library.free(archive); throw .noMember(holds: holds) }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
                let reason = library.errorString(archive).map { String(cString: $0) } ?? "a damaged member"
                _ = library.free(archive)
                throw .unreadable(reason)
            }
            let path = library.pathname(entry).map { String(cString: $0) } ?? ""
            if holds.count < Self.namedMembers { holds.append(path) }
            if matches(path) {
                memberPath = path
                return
            }
        }
    }

    deinit {
        _ = library.free(archive)
    }

    /// The next chunk of the member, empty at its end.
    func read(upTo count: Int) throws(Failure) -> Data {
        var data = Data(count: count)
        let read = data.withUnsafeMutableBytes { library.readData(archive, $0.baseAddress, count) }
        guard read >= 0 else {
            throw .unreadable(library.errorString(archive).map { String(cString: $0) } ?? "a damaged member")
        }
        data.count = read
        inflated += read
        guard inflated <= inflatedLimit else {
            throw .unreadable("\(memberPath) expands to more than \(Self.expansionLimit) times the archive's size, as a zip bomb does, not an export")
        }
        return data
    }
}
