
/// What one command printed: text for a person, one JSON document for a script. An answer is rendered only in the
/// form that is read: a prompt never encodes the JSON it does not print, and `--json` never lays out the text.
public struct CommandOutput: Sendable {
    /// The answer, or its two forms as given.
    private var content: Content
    /// The command asked the REPL to end (quit, exit).
    public var endsSession = false
    /// Things the person should hear besides the answer (a likely typo recorded in a
    /// script); printed on standard error, and in the JSON document's `warnings`.
    public var warnings: [String] = []
    /// The end of a JSON document whose start was emitted already (see
    /// `CommandContext.emit`); used in place of `json`.
    public var rawJSON: String?

    private enum Content: Sendable {
        case given(text: String, json: JSON)
        /// Rendered when read, in `style`.
        case answer(any CommandAnswer, style: TerminalStyle)
    }

    public init(text: String, json: JSON, endsSession: Bool = false, warnings: [String] = []) {
        self.content = .given(text: text, json: json)
        self.endsSession = endsSession
        self.warnings = warnings
    }

    /// The text and the JSON document of one answer, each made when it is first read.
    public init(_ answer: some CommandAnswer, style: TerminalStyle, warnings: [String] = []) {
        self.content = .answer(answer, style: style)
        self.warnings = warnings
    }

    public var text: String {
        get {
            switch content {
            case let .given(text, _): text
            case let .answer(answer, style): answer.text(style: style)
            }
        }
        set { content = .given(text: newValue, json: json) }
    }

    public var json: JSON {
        get {
            switch content {
            case let .given(_, json): json
            case let .answer(answer, _): JSON(encoding: answer)
            }
        }
        set { content = .given(text: text, json: newValue) }
    }
}

/// The kind of a failure: its raw value is the JSON `error.code` scripts
/// branch on, so the raw values never change once shipped.
public enum ErrorCode: String, Sendable, CaseIterable {
    /// The command was written wrong (missing or extra words, an unknown subcommand).
    case usage
    /// No command of that name.
    case unknownCommand = "unknown_command"
    /// The database could not be opened, read or written.
    case storage
    /// A weight that cannot be read or kept (no number, an unknown unit, out of range).
    case invalidWeight = "invalid_weight"
    /// A setting's value refused (`set goal 900`, an unknown time zone).
    case invalidSetting = "invalid_setting"
    /// A date or time that cannot be read, or that the clock refuses.
    case invalidDate = "invalid_date"
    /// No entry, habit or backup of that name.
    case notFound = "not_found"
    /// Nothing in the history to undo (or to redo).
    case nothingToUndo = "nothing_to_undo"
    /// A snapshot file that was refused (damaged, changed, newer, out of range).
    case invalidBackup = "invalid_backup"
    /// A file could not be read or written.
    case file
    /// A file to import in no format Trend reads, or empty.
    case invalidFile = "invalid_file"
    /// A name already taken.
    case duplicate
    /// A habit's name, schedule, target or reminder times refused.
    case invalidHabit = "invalid_habit"
    /// Anything else.
    case failed
    /// An undo or redo refused: the data no longer holds what the change wrote.
    case conflict
    /// A tape measure that cannot be read or kept (an unknown measure, a girth out of range).
    case invalidMeasurement = "invalid_measurement"
}

/// A command that did not do what was asked; nothing was changed.
public struct CommandFailure: Error, Equatable, Sendable {
    public let code: ErrorCode
    public let message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var json: JSON {
        .object([("error", .object([("code", .string(code.rawValue)), ("message", .string(message))]))])
    }
}
