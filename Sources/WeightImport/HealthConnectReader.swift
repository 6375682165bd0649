import Foundation
import Storage

/// Health Connect's own export (Android 14 and later: Health Connect › Export
/// data): `Health Connect.zip` holding `health_connect_export.db`, a copy of
/// the platform's database. Weigh-ins are the rows of `weight_record_table`
/// as AOSP's `WeightRecordHelper` writes them (`time` in milliseconds since
/// 1970, `weight` in grams); body fat is `body_fat_record_table.percentage`
/// at the same `time`. The database is opened read-only with its schema
/// untrusted; from an archive it is first copied out to a temporary file
/// (at most `largestDatabase` bytes), removed after.
struct HealthConnectReader {
    /// The rows' checks and conversions are the CSV readers'.
    let rows: WeightFileReader

    static let member = "health_connect_export.db"
    static let largestDatabase = 2_000_000_000

    /// Whether the SQLite file at `path` has Health Connect's weight table.
    static func holdsWeightRecords(path: String) -> Bool {
        guard let connection = try? SQLiteConnection.openUntrusted(path: path) else { return false }  // Unopenable: not one.
        let tables = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'weight_record_table'"
        return (try? connection.scalarInt(tables)) == 1  // Unreadable: not one either.
    }

    /// The database at `path`; `shownAs` names it in messages.
    func read(databaseAt path: String, shownAs name: String, format: ImportFormat) throws -> ReadOutcome {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection.openUntrusted(path: path)
        } catch {
            throw ImportError.unreadable(name, reason: "\(error)")
        }
        var outcome = ReadOutcome(format: format, unit: .kilograms, unitAssumed: false)
        do {
            let tables = Set(try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.text(0) })
            guard tables.contains("weight_record_table") else { throw ImportError.unknownFormat(name) }
            // Joined once, one body fat per instant: a look-up per weight row in a table without an index
            // would grow as their product; SQLite groups and joins in its own temporary storage.
            let fat = tables.contains("body_fat_record_table")
                ? "LEFT JOIN (SELECT time, min(percentage) AS percentage FROM body_fat_record_table GROUP BY time) b ON b.time = w.time"
                : "LEFT JOIN (SELECT NULL AS percentage) b"
            let statement = try connection.prepare("SELECT w.time, w.weight, b.percentage FROM weight_record_table w \(fat) ORDER BY w.time")
            var index = 0
            while try statement.step() {
                index += 1
                let milliseconds = statement.double(0)
                guard !statement.isNull(0), milliseconds.isFinite else {
                    outcome.invalid.append(ImportProblem(line: index, reason: "weight record \(index) has no time"))
                    continue
                }
                rows.addKilograms(index, date: Date(timeIntervalSince1970: milliseconds / 1_000),
                                  kilograms: statement.isNull(1) ? nil : statement.double(1) / 1_000, note: nil, id: nil,
                                  bodyFatPercent: statement.optionalDouble(2), to: &outcome)
            }
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError.unreadable(name, reason: "its weight records cannot be read (\(error))")
        }
        return outcome
    }

    /// Removes the copies a killed import left (`.health-connect-<pid>-….db` of a process no longer running).
    static func removeStaleCopies(in folder: URL) {
        // Best effort: an unlistable folder holds nothing this could clean; the next import tries again.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(".health-connect-") {
            let pid = name.dropFirst(".health-connect-".count).split(separator: "-").first.flatMap { pid_t($0) } ?? 0
            guard processHasEnded(pid) else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// The database inside an export's archive, copied out first: SQLite reads files, not streams.
    func read(_ stream: ZipEntryStream, of url: URL) throws -> ReadOutcome {
        let shown = url.path + ":" + stream.memberPath
        let folder = rows.scratchFolder ?? FileManager.default.temporaryDirectory
        // Inside the data directory (0700): a copy is never left where another account, or a sync, would see it.
        mkdir(folder.path, 0o700)
        Self.removeStaleCopies(in: folder)
        let copy = folder.appendingPathComponent(".health-connect-\(getpid())-\(UUID().uuidString.prefix(8)).db")
        let descriptor = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError.unreadable(shown, reason: "no temporary copy can be made in \(folder.path) (\(String(cString: strerror(errno))))")
        }
        defer { unlink(copy.path) }
        do {
            defer { close(descriptor) }
            var copied = 0
            while true {
                let chunk: Data
                do throws(ZipEntryStream.Failure) {
                    chunk = try stream.read(upTo: AppleHealthReader.chunkSize)
                } catch let .unreadable(reason) {
                    throw ImportError.unreadable(shown, reason: "reading it stopped after \(copied) bytes: \(reason); nothing was imported")
                } catch {
                    throw ImportError.unreadable(shown, reason: "reading it stopped after \(copied) bytes: the archive is damaged")
                }
                if chunk.isEmpty { break }
                copied += chunk.count
                guard copied <= Self.largestDatabase else {
                    throw ImportError.unreadable(shown, reason: "it is larger than \(Self.largestDatabase / 1_000_000_000) GB")
                }
                let written = chunk.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                guard written == chunk.count else {
                    throw ImportError.unreadable(shown, reason: "its temporary copy could not be written (\(String(cString: strerror(errno))))")
                }
            }
        }
        return try read(databaseAt: copy.path, shownAs: shown, format: .healthConnectZip)
    }
}
