import AppCore
import DailyTips

/// The `tip` screen: today's tip, or another with `tip next`.
@MainActor
struct TipViewModel {
    private let dailyTipsFeature: DailyTipsFeature

    init(dailyTipsFeature: DailyTipsFeature = AppModel.shared.dailyTipsFeature) {
        self.dailyTipsFeature = dailyTipsFeature
    }

    func show(_ arguments: [String], style: TerminalStyle) async throws -> CommandOutput {
        let tip: Tip?
        switch arguments.map({ $0.lowercased() }) {
        case []: tip = try await dailyTipsFeature.todaysTip()
        case ["next"]: tip = try await dailyTipsFeature.anotherTip()
        default: throw CommandFailure(.usage, "tip: use 'tip' or 'tip next'")
        }
        guard let tip else { return CommandOutput(text: "No tips available.", json: .object([("tip", .null)])) }
        return CommandOutput(text: Self.line(tip, style: style), json: .object([("tip", Self.json(tip))]))
    }

    static func line(_ tip: Tip, style: TerminalStyle) -> String {
        style.paint("Tip (\(tip.category.rawValue)):", .cyan) + " " + tip.text
    }

    static func json(_ tip: Tip?) -> JSON {
        guard let tip else { return .null }
        return .object([("id", .string(tip.id)), ("text", .string(tip.text)), ("category", .string(tip.category.rawValue))])
    }
}
