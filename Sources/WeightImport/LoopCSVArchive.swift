import Foundation
import Storage

/// Loop Habit Tracker's CSV export as Loop hands it over: `Loop Habits CSV 2027-02-14.zip`
/// (iSoron/uhabits, `HabitsCSVExporter.writeZipFile`), holding `Habits.csv` and the combined `Checkmarks.csv` and
/// `Scores.csv` at its top, and a folder per habit (`001 Meditate/Checkmarks.csv`, `Scores.csv`). Trend's Loop import
/// reads the folder; this takes the two files it reads out of the archive (libarchive, as `ZipEntryStream` reads
/// Apple Health's), into a folder of its own named as the archive, inside the data directory.
public final class LoopCSVArchive: Sendable {
    /// The folder holding `Habits.csv` and `Checkmarks.csv`, named as the archive without `.zip`.
    public let folder: URL
    /// What to remove once the import is done.
    private let scratch: URL

    /// The most either file may inflate to, as the folder import allows.
    static let maximumBytes = 64 << 20
    static let members = ["Habits.csv", "Checkmarks.csv"]

    /// Unpacks `url` when it is such an archive: a zip whose top (or one folder) holds both files; nil for any
    /// other file, which the other readers take. `scratchFolder` is the data directory's folder for copies.
    public init?(unpacking url: URL, into scratchFolder: URL?) throws {
        guard let head = try? UntrustedFile.open(url.path), let magic = try? head.read(upToCount: 4) else { return nil }  // The weight import says why.
        try? head.close()  // Read-only: closing cannot lose anything.
        guard magic == Data([0x50, 0x4B, 0x03, 0x04]) else { return nil }
        let habits: ZipEntryStream
        do {
            habits = try ZipEntryStream(url: url) { $0 == "Habits.csv" || ($0.hasSuffix("/Habits.csv") && $0.split(separator: "/").count == 2) }
        } catch {
            return nil  // Not Loop's export (or unreadable): the zip readers after this one say what it holds.
        }
        let prefix = String(habits.memberPath.dropLast("Habits.csv".count))
        let base = scratchFolder ?? FileManager.default.temporaryDirectory
        mkdir(base.path, 0o700)
        scratch = base.appendingPathComponent(".loop-\(getpid())-\(UUID().uuidString.prefix(8))")
        let name = url.deletingPathExtension().lastPathComponent
        folder = scratch.appendingPathComponent(name.isEmpty ? "Loop Habits CSV" : name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Self.copy(habits, to: folder.appendingPathComponent("Habits.csv"), shown: url.path)
            let checkmarks: ZipEntryStream
            do {
                checkmarks = try ZipEntryStream(url: url) { $0 == prefix + "Checkmarks.csv" }
            } catch {
                throw ImportError.unreadable(url.path, reason: "it holds Loop's Habits.csv but no \(prefix)Checkmarks.csv beside it, so its days cannot be read")
            }
            try Self.copy(checkmarks, to: folder.appendingPathComponent("Checkmarks.csv"), shown: url.path)
        } catch {
            try? FileManager.default.removeItem(at: scratch)  // Best effort: the next import's folder has another name.
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(at: scratch) }  // A copy of what the archive holds; nothing depends on it after.

    private static func copy(_ stream: ZipEntryStream, to file: URL, shown: String) throws {
        var data = Data()
        while true {
            let chunk: Data
            do throws(ZipEntryStream.Failure) {
                chunk = try stream.read(upTo: 1 << 16)
            } catch {
                throw ImportError.unreadable(shown, reason: "\(stream.memberPath) cannot be read from the archive (\(error)); nothing was imported")
            }
            if chunk.isEmpty { break }
            data.append(chunk)
            guard data.count <= maximumBytes else {
                throw ImportError.unreadable(shown, reason: "\(stream.memberPath) is larger than \(maximumBytes >> 20) MB; nothing was imported")
            }
        }
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ImportError.unreadable(shown, reason: "no copy can be made in \(file.deletingLastPathComponent().path)") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
        guard written == data.count else { throw ImportError.unreadable(shown, reason: "its copy could not be written (\(String(cString: strerror(errno))))") }
    }
}

extension WeightImportFeature {
    /// Loop's CSV export zip at `url`, unpacked into the data directory's scratch folder; nil for any other file.
    public func loopCSVArchive(at url: URL) throws -> LoopCSVArchive? {
        try LoopCSVArchive(unpacking: url, into: scratchFolder)
    }
}
