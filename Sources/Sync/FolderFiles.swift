import Cryptography
import Foundation
import Storage

/// How this installation reads and writes its files in the sync folder: in a private folder (DESIGN §11) every file
/// it writes is sealed (`SealedStream`) under the folder's newest key and bound to `<installation>/<name>`, and a
/// sealed file opens only under a key it holds; in a plain folder (Trend 0.3) bytes pass as they are. Whether a file
/// is its device's is the signature's to say, in both: a plain file a member signed before its folder went private
/// still reads, and is removed once every device has moved.
struct FolderFiles: Sendable {
    private enum Source {
        case plain
        case held(FolderSecrets)
        /// Read from the data directory when first needed: a sync with nothing new needs none.
        case file(FolderSecretsFile)
    }

    private let source: Source

    /// Nil: a plain folder.
    init(secrets: FolderSecrets?) {
        source = secrets.map { .held($0) } ?? .plain
    }

    /// A private folder's, its secrets read from `file` when first needed.
    init(secretsIn file: FolderSecretsFile) {
        source = .file(file)
    }

    var isPrivate: Bool {
        if case .plain = source { false } else { true }
    }

    /// The folder's secrets; nil in a plain folder. A private folder whose secrets are gone from the data directory
    /// since is refused (nothing is read or written in plain there).
    var secrets: FolderSecrets? {
        get throws(SyncError) {
            switch source {
            case .plain: return nil
            case .held(let secrets): return secrets
            case .file(let file):
                guard let secrets = file.read() else { throw .notMember }
                return secrets
            }
        }
    }

    static func associated(_ installation: String, _ name: String) -> [UInt8] { Array("\(installation)/\(name)".utf8) }

    /// Why a file in a private folder does not open, in words.
    static func problem(_ name: String, _ error: SealingError) -> SyncSegment.Problem {
        switch error {
        case .unknownKey:
            .unreadable("\(name) is sealed under a folder key this device does not hold (written by a device that is not a member, or after this one was removed)")
        case .notAuthentic:
            .unreadable("\(name) does not open under the folder's key (still being copied, cut short, changed or planted); it waits")
        default:
            .unreadable("\(name) cannot be opened: \(error)")
        }
    }

    /// Calls `body` with the file's plaintext, a piece at a time (see `SafeFolder.forEachChunk`): opened as it is read
    /// when sealed, and only whole (the last piece comes after the file is found authentic).
    func forEachChunk(of name: String, in folder: SafeFolder, installation: String, limit: Int,
                      _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let secrets = try secrets else { return try folder.forEachChunk(of: name, limit: limit, body) }
        var opener = SealedStream.Opener(associated: Self.associated(installation, name)) { secrets.key(id: $0) }
        var plain = false, first = true
        try folder.forEachChunk(of: name, limit: limit) { bytes in
            if first {
                first = false
                plain = !SealedStream.looksSealed(bytes) && !SealedStream.magic.starts(with: bytes)
            }
            if plain { return try body(bytes) }
            let opened = try Self.take(bytes, into: &opener, name: name)
            if !opened.isEmpty { try opened.withUnsafeBytes { try body($0) } }
        }
        guard !plain, !first else { return }
        let last = try Self.finish(&opener, name: name)
        if !last.isEmpty { try last.withUnsafeBytes { try body($0) } }
    }

    private static func take(_ bytes: UnsafeRawBufferPointer, into opener: inout SealedStream.Opener, name: String) throws(SyncSegment.Problem) -> [UInt8] {
        do { return try opener.take(Array(bytes)[...]) } catch { throw problem(name, error) }
    }

    private static func finish(_ opener: inout SealedStream.Opener, name: String) throws(SyncSegment.Problem) -> [UInt8] {
        do { return try opener.finish() } catch { throw problem(name, error) }
    }

    /// A small file's plaintext, whole.
    func read(_ name: String, in folder: SafeFolder, installation: String, limit: Int) throws -> Data {
        var data = Data()
        try forEachChunk(of: name, in: folder, installation: installation, limit: limit) { data.append(contentsOf: $0) }
        return data
    }

    /// A small file's plaintext, which must be sealed (membership travels only sealed).
    func open(_ name: String, in folder: SafeFolder, installation: String, limit: Int) throws -> [UInt8] {
        guard let secrets = try secrets else { throw SealingError.notSealed }
        let raw = Array(try folder.read(name, limit: limit))
        guard SealedStream.looksSealed(raw) else { throw SealingError.notSealed }
        var opener = SealedStream.Opener(associated: Self.associated(installation, name)) { secrets.key(id: $0) }
        return try opener.take(raw[...]) + opener.finish()
    }

    /// A file to write: sealed under the newest folder key in a private folder, as it is in a plain one.
    func pending(_ name: String, in own: SafeFolder, installation: String) throws -> SealedFile {
        let file = try own.pending(name)
        guard let secrets = try secrets else { return SealedFile(file: file, sealer: nil) }
        guard let key = secrets.current?.bytes else { throw SyncError.notMember }
        let sealer = try SealedStream.Sealer(folderKey: key, associated: Self.associated(installation, name))
        try sealer.header.withUnsafeBytes { try file.append($0) }
        return SealedFile(file: file, sealer: sealer)
    }

    /// Writes `bytes` whole as `name`, in place of the file of that name.
    func replace(_ name: String, in own: SafeFolder, installation: String, with bytes: [UInt8]) throws {
        let file = try pending(name, in: own, installation: installation)
        try file.append(bytes)
        try file.commit()
    }
}

/// One file on its way into the sync folder, sealed as it is written when a sealer is given (see `PendingFile`).
final class SealedFile {
    let file: PendingFile
    private var sealer: SealedStream.Sealer?

    init(file: PendingFile, sealer: SealedStream.Sealer?) {
        self.file = file
        self.sealer = sealer
    }

    func append(_ bytes: [UInt8]) throws {
        var out = bytes
        if var sealing = sealer {
            out = try sealing.add(bytes[...])
            sealer = sealing
        }
        try out.withUnsafeBytes { try file.append($0) }
    }

    private func finish() throws {
        guard var sealing = sealer else { return }
        let last = try sealing.finish()
        sealer = nil
        try last.withUnsafeBytes { try file.append($0) }
    }

    func commit() throws {
        try finish()
        try file.commit()
    }

    func commitNew() throws -> Bool {
        try finish()
        return try file.commitNew()
    }
}
