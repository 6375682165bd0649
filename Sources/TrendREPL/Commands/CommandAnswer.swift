import CommandLanguage

/// One command's answer as one value: `Encodable` for `--json`, and rendered
/// as text for a person, so the two never say different things. Its members
/// are the JSON document's, in the order they are declared; an optional
/// without a value is `null`, as scripts read every key.
protocol CommandAnswer: Encodable {
    /// The answer as a person reads it.
    func text(style: TerminalStyle) -> String
}

extension CommandOutput {
    /// The text and the JSON document of one answer.
    init(_ answer: some CommandAnswer, style: TerminalStyle, warnings: [String] = []) {
        self.init(text: answer.text(style: style), json: JSON(encoding: answer), warnings: warnings)
    }
}

/// An answer that is one member for a script and one sentence for a person (`delete`, `undo`, `goal`,
/// `quit`): the many small answers with no layout of their own.
struct Said<Value: Encodable>: CommandAnswer {
    let key: String
    let value: Value
    let sentence: String

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnswerKey.self)
        try container.encode(value, forKey: AnswerKey(key))
    }

    func text(style: TerminalStyle) -> String { sentence }
}
