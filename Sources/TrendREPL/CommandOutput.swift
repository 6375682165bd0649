/// What one command printed: text for a person, one JSON document for a script.
public struct CommandOutput: Sendable {
    public var text: String
    public var json: JSON
    /// The command asked the REPL to end (quit, exit).
    public var endsSession = false

    public init(text: String, json: JSON, endsSession: Bool = false) {
        self.text = text
        self.json = json
        self.endsSession = endsSession
    }
}

/// A command that did not do what was asked; nothing was changed.
public struct CommandFailure: Error, Equatable, Sendable {
    /// A stable word scripts can branch on: `usage`, `unknown_command`, `storage`, …
    public let code: String
    public let message: String

    public init(_ code: String, _ message: String) {
        self.code = code
        self.message = message
    }

    public var json: JSON {
        .object([("error", .object([("code", .string(code)), ("message", .string(message))]))])
    }
}
