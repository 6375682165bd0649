import CommandLanguage
import AppCore
import DailyTips

/// The `tip` screen: today's tip, or another with `tip next`.
@MainActor
struct TipViewModel {
    private let dailyTipsFeature: DailyTipsFeature

    init(dailyTipsFeature: DailyTipsFeature = AppModel.shared.dailyTipsFeature) {
        self.dailyTipsFeature = dailyTipsFeature
    }

    func show(next: Bool, style: TerminalStyle) async throws -> CommandOutput {
        let tip = next ? try await dailyTipsFeature.anotherTip() : try await dailyTipsFeature.todaysTip()
        return CommandOutput(Answer(tip: tip.map(TipValue.init)), style: style)
    }

    /// `tip [next]`: the tip, or none.
    struct Answer: CommandAnswer {
        let tip: TipValue?

        func text(style: TerminalStyle) -> String {
            tip.map { TipViewModel.line(category: $0.category, text: $0.text, style: style) } ?? "No tips available."
        }
    }

    /// A tip as scripts read it.
    struct TipValue: Encodable {
        let id: String
        let text: String
        let category: String

        init(_ tip: Tip) {
            id = tip.id
            text = tip.text
            category = tip.category.rawValue
        }
    }

    static func line(_ tip: Tip, style: TerminalStyle) -> String {
        line(category: tip.category.rawValue, text: tip.text, style: style)
    }

    /// `Tip (movement): …`, as `tip` and `today` show it.
    nonisolated static func line(category: String, text: String, style: TerminalStyle) -> String {
        style.paint("Tip (\(category)):", .cyan) + " " + text
    }

    nonisolated static func json(_ tip: Tip?) -> JSON {
        tip.map { JSON(encoding: TipValue($0)) } ?? .null
    }
}
