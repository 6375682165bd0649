import Foundation
import Storage

/// What one run of the built `trend` printed.
public struct TrendRun: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    /// Standard output split into lines (one JSON document each with --json).
    public var lines: [String] { standardOutput.split(separator: "\n").map(String.init) }

    /// Each line of standard output parsed as JSON.
    public func documents() throws -> [[String: Any]] {
        try lines.map { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt)
            }
            return object
        }
    }
}

/// The `trend` executable built beside the test bundle.
public func trendExecutable() -> URL {
    // `make test-tsan` names an uninstrumented build: a ThreadSanitizer `trend` under libfaketime
    // deadlocks before `main` (TSAN's allocator lock taken inside faketime's `dlsym`).
    if let named = ProcessInfo.processInfo.environment["TREND_EXECUTABLE"], !named.isEmpty {
        return URL(fileURLWithPath: named)
    }
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = runner.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent("trend")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        folder = folder.deletingLastPathComponent()
    }
    return runner.deletingLastPathComponent().appendingPathComponent("trend")
}

/// The moment end-to-end runs start at unless a test names another: a Monday
/// morning in UTC. `faketime` sets it for the whole process.
public let endToEndClock = "2026-06-15 08:00:00"

/// Runs the built `trend` with arguments and optional standard input, in a
/// clean environment (no colours, no terminal) plus `environment`, with the
/// wall clock at `clock` (`YYYY-MM-DD HH:MM:SS` UTC, moving on from there).
public func runTrend(_ arguments: [String], input: String? = nil, environment: [String: String] = [:],
                     clock: String = endToEndClock) throws -> TrendRun {
    _ = staleFakeTimeFilesRemoved
    for _ in 0..<3 {
        let (run, pid) = try runTrendOnce(arguments, input: input, environment: environment, clock: clock)
        // The faketime wrapper makes a named semaphore and shared memory per process id in /dev/shm; one
        // that a killed wrapper left (a crash-safety test kills with SIGKILL) makes a later wrapper that
        // gets the same pid fail before trend starts. Trend never ran: its leftovers go and it runs again.
        guard run.status != 0, run.standardError.contains("sem_open: File exists") else { return run }
        removeFakeTimeFiles(of: pid)
    }
    return try runTrendOnce(arguments, input: input, environment: environment, clock: clock).run
}

/// Removes the faketime wrapper's semaphore and shared memory of process `pid`.
func removeFakeTimeFiles(of pid: Int32) {
    unlink("/dev/shm/sem.faketime_sem_\(pid)")
    unlink("/dev/shm/faketime_shm_\(pid)")
}

/// Once per test process: the wrapper's leftovers of processes no longer running (tmux tests start it too).
let staleFakeTimeFilesRemoved: Bool = {
    // Best effort: a /dev/shm that cannot be listed has nothing this could remove.
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [] {
        guard name.hasPrefix("sem.faketime_sem_") || name.hasPrefix("faketime_shm_"),
              let pid = name.split(separator: "_").last.flatMap({ Int32($0) }), processHasEnded(pid) else { continue }
        removeFakeTimeFiles(of: pid)
    }
    return true
}()

private func runTrendOnce(_ arguments: [String], input: String?, environment: [String: String],
                          clock: String) throws -> (run: TrendRun, pid: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
    process.arguments = ["-f", "@" + clock, trendExecutable().path] + arguments
    // Only the wall clock moves: timers and timeouts keep real time.
    var base = ["PATH": "/usr/bin:/bin", "HOME": FileManager.default.temporaryDirectory.path, "TZ": "UTC",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    base.merge(environment) { _, new in new }
    process.environment = base
    let output = Pipe(), errors = Pipe(), stdin = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    // Read both pipes to the end before waiting, so a large output cannot block the child.
    let errorData = ReadBox()
    let reader = Thread { errorData.data = errors.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.done { usleep(1_000) }
    return (TrendRun(status: process.terminationStatus,
                     standardOutput: String(decoding: outputData, as: UTF8.self),
                     standardError: String(decoding: errorData.data, as: UTF8.self)), process.processIdentifier)
}

/// Runs the built `trend` with no file allowed to grow past `fileSizeLimit`
/// bytes (`prlimit --fsize`), as on a full disk; returns its exit status and standard error.
public func runTrendWithFileSizeLimit(_ fileSizeLimit: Int, _ arguments: [String]) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
    process.arguments = ["--fsize=\(fileSizeLimit)", "--", trendExecutable().path] + arguments
    let errors = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, message)
}

private final class ReadBox: @unchecked Sendable {
    // @unchecked: written once by the reader thread, read after `done` is seen.
    private let lock = NSLock()
    private var stored = Data()
    private var finished = false
    var data: Data {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue; finished = true } }
    }
    var done: Bool { lock.withLock { finished } }
}

/// Runs `trend` through `/bin/sh -c` with `redirections` after it (`>&-`,
/// `>/dev/full`, `| head -1`), for the streams a shell can break; the status
/// is trend's own (`PIPESTATUS` is not POSIX, so a pipe's status is written to a file).
public func runTrendInShell(_ arguments: [String], redirections: String) throws -> (status: Int32, errors: String) {
    let quoted = ([trendExecutable().path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    let statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("trend-status-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: statusFile) }  // A temporary file; nothing to report if it lingers.
    let script = redirections.hasPrefix("|")
        ? "{ \(quoted.joined(separator: " ")); echo $? > '\(statusFile.path)'; } \(redirections) > /dev/null"
        : "\(quoted.joined(separator: " ")) \(redirections); echo $? > '\(statusFile.path)'"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let status = Int32((try String(contentsOf: statusFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    return (status, message)
}

/// Runs a tool to its end: its exit status and standard output (with
/// standard error too when `mergingErrors`). `environment` nil inherits ours.
public func runTool(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                    mergingErrors: Bool = false) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = mergingErrors ? pipe : FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// Makes the data directory `newcomer` a member of the private sync folder `folder` that `member` syncs through, as a
/// person does (DESIGN §11): `sync invite` there, then `set sync-folder` and `sync join CODE` here.
@discardableResult
public func joinSync(_ newcomer: String, from member: String, folder: URL, clock: String = endToEndClock) throws -> TrendRun {
    let invite = try runTrend(["--data-dir", member, "--json", "-c", "sync invite"], clock: clock)
    let document = try JSONSerialization.jsonObject(with: Data(invite.standardOutput.utf8)) as? [String: Any]
    guard let code = (document?["invite"] as? [String: Any])?["code"] as? String else {
        throw JoinFailure(said: invite.standardOutput + invite.standardError)
    }
    let joined = try runTrend(["--data-dir", newcomer, "-c", "set sync-folder \(folder.path)", "-c", "sync join \(code)"], clock: clock)
    guard joined.status == 0 else { throw JoinFailure(said: joined.standardOutput + joined.standardError) }
    return joined
}

/// `joinSync` could not make the device a member: what `trend` said.
public struct JoinFailure: Error, CustomStringConvertible {
    public let said: String
    public var description: String { "joining the sync folder failed: \(said)" }
}
