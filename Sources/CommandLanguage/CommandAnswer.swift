
/// One command's answer as one value: `Encodable` for `--json`, and rendered
/// as text for a person, so the two never say different things. Its members
/// are the JSON document's, in the order they are declared; an optional
/// without a value is `null`, as scripts read every key.
public protocol CommandAnswer: Encodable, Sendable {
    /// The answer as a person reads it.
    func text(style: TerminalStyle) -> String
}

/// An answer that is a small document for a script and one sentence for a person (`delete`, `undo`, `goal`,
/// `quit`, `export chart.svg`): the many small answers with no layout of their own.
public struct Said: CommandAnswer {
    public let document: JSON
    public let sentence: String

    public init(_ document: JSON, sentence: String) {
        self.document = document
        self.sentence = sentence
    }

    /// A document of one member.
    public init(key: String, value: some Encodable, sentence: String) {
        self.init(.object([(key, JSON(encoding: value))]), sentence: sentence)
    }

    public func encode(to encoder: any Encoder) throws { try document.encode(to: encoder) }

    public func text(style: TerminalStyle) -> String { sentence }
}
