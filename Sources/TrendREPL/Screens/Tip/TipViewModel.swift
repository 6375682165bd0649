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
        return CommandOutput(Answer(tip: tip), style: style)
    }

    /// `tip [next]`: the tip, or none.
    struct Answer: CommandAnswer {
        let tip: Tip?

        func encode(to encoder: any Encoder) throws {
            try JSON.object([("tip", TipViewModel.json(tip))]).encode(to: encoder)
        }

        func text(style: TerminalStyle) -> String {
            tip.map { TipViewModel.line($0, style: style) } ?? "No tips available."
        }
    }

    /// `Tip (movement): …`, as `tip` and `today` show it.
    nonisolated static func line(_ tip: Tip, style: TerminalStyle) -> String {
        style.paint("Tip (\(tip.category.rawValue)):", .cyan) + " " + tip.text
    }

    nonisolated static func json(_ tip: Tip?) -> JSON {
        // A tip as scripts read it: what it says and what it is about.
        tip.map { .object([("id", .string($0.id)), ("text", .string($0.text)), ("category", .string($0.category.rawValue))]) } ?? .null
    }
}
