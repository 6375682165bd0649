import Observation

/// The load state a Feature keeps for data it reads from the database:
/// whether it has loaded, whether a load is running, the last error, and
/// the database version it read. One load runs at a time (`SingleFlight`);
/// `ensureLoaded` reads again when another process has written since.
///
/// The data itself stays in the Feature; each call passes `load`, the
/// Feature's own read, which puts the data in place or throws.
@MainActor
@Observable
public final class FreshLoader {
    public private(set) var isLoading = false
    public private(set) var hasLoaded = false
    public private(set) var lastError: (any Error)?

    @ObservationIgnored private let version: @Sendable () async throws -> Int
    @ObservationIgnored private let flight = SingleFlight()
    @ObservationIgnored private var loadedVersion: Int?
    /// The command during which the version was last asked (`runningCommand`).
    @ObservationIgnored private var askedInCommand: Int?

    /// The command this task runs for (`runningCommand`); nil outside one (a test driving Features).
    @TaskLocal public static var command: Int?
    private static var commandsBegun = 0

    /// Runs one command (the session runs each line so): each loader asks whether another process wrote
    /// at most once during it, however many parts of the command use its data. One command reads one
    /// moment, and a check-in asks the database once per table, not four times for the settings. A task
    /// local, so two sessions in one process (tests) never share a command.
    public static func runningCommand<T>(_ body: () async throws -> T) async rethrows -> T {
        commandsBegun += 1
        return try await $command.withValue(commandsBegun, operation: body)
    }

    /// - Parameter version: the database's external version (`LocalDataStore.externalVersion()`), asked before each load.
    public init(version: @escaping @Sendable () async throws -> Int) {
        self.version = version
    }

    /// Starts a load unless one is running; returns at once.
    public func start(_ load: @escaping @MainActor () async throws -> Void) {
        flight.start { await self.perform(load) }
    }

    /// Loads again, or joins the load in flight, and waits for it.
    public func reload(_ load: @escaping @MainActor () async throws -> Void) async {
        await flight.run { await self.perform(load) }
    }

    /// After a write of this process: reads again what was loaded. A load in
    /// flight may have read before the write, so it is waited for and the
    /// data read once more. Nothing loaded yet stays so; its first use loads
    /// it (a one-shot `trend -c import …` reads no log it never shows).
    public func refresh(_ load: @escaping @MainActor () async throws -> Void) async {
        guard hasLoaded || isLoading else { return }
        await flight.runAfter { await self.perform(load) }
    }

    /// Loads once, and again when another process has written since; a
    /// failed load is tried again by the next caller. Throws the error of
    /// the load when there is still nothing loaded.
    public func ensureLoaded(_ load: @escaping @MainActor () async throws -> Void) async throws {
        if hasLoaded, Self.command == nil || askedInCommand != Self.command {
            askedInCommand = Self.command
            if await hasExternalChanges() { await reload(load) }
        }
        if !hasLoaded { await reload(load) }
        if !hasLoaded, let lastError { throw lastError }
    }

    private func hasExternalChanges() async -> Bool {
        // A failure to ask keeps what is loaded on screen; the next read or write reports the storage error.
        guard let current = try? await version() else { return false }
        return current != loadedVersion
    }

    private func perform(_ load: @MainActor () async throws -> Void) async {
        isLoading = true
        defer { isLoading = false }
        do {
            let current = try await version()
            askedInCommand = Self.command
            try await load()
            loadedVersion = current
            lastError = nil
            hasLoaded = true
        } catch {
            lastError = error
        }
    }
}
