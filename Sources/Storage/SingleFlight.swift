/// Runs at most one operation at a time for a Feature: a caller that asks
/// while one is in flight awaits that one instead of starting another, so
/// launch and a command asking for the same refresh share the work.
@MainActor
public final class SingleFlight {
    private var task: Task<Void, Never>?

    public init() {}

    /// Starts `operation` unless one is already running; does not wait.
    public func start(_ operation: @escaping @MainActor () async -> Void) {
        guard task == nil else { return }
        launch(operation)
    }

    /// Runs `operation`, or joins the one already running, and waits for it.
    public func run(_ operation: @escaping @MainActor () async -> Void) async {
        if task == nil { launch(operation) }
        await task?.value
    }

    /// Waits for the operation in flight, which may have begun before what the
    /// caller knows has changed, then runs `operation` (or joins one begun since).
    public func runAfter(_ operation: @escaping @MainActor () async -> Void) async {
        if let task { await task.value }
        await run(operation)
    }

    private func launch(_ operation: @escaping @MainActor () async -> Void) {
        // The task body runs after this assignment: both are on the main actor.
        task = Task { @MainActor in
            await operation()
            self.task = nil
        }
    }
}
