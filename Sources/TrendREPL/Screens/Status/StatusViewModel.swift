import CommandLanguage
import AppCore
import Habits
import WeightLog

/// `status` (and `trend status`): one line for a shell prompt or a tmux
/// status bar, at most 40 characters — the trend with the day's direction,
/// the weigh-in streak, and the habits still due today.
@MainActor
struct StatusViewModel {
    let weightEntryFeature: WeightEntryFeature
    let habitsFeature: HabitsFeature

    static let width = 40

    func show() async throws -> CommandOutput {
        let checkIn = weightEntryFeature.checkIn()
        let (due, shown) = try await habitsFeature.dueTodayReadingLittle()
        let unit = weightEntryFeature.unit
        var parts: [String] = []
        if let trend = checkIn.trendKilograms {
            parts.append(unit.format(trend) + (checkIn.verdict.flatMap(Self.arrow).map { " " + $0 } ?? ""))
            parts.append("\(checkIn.currentStreak)d")
        } else {
            parts.append("no weigh-ins")
        }
        if shown > 0 { parts.append(due == 0 ? "habits done" : "\(due) due") }
        var line = parts.joined(separator: " · ")
        if line.count > Self.width { line = String(line.prefix(Self.width - 1)) + "…" }
        return CommandOutput(Answer(trendKilograms: checkIn.trendKilograms, unit: unit.rawValue, verdict: checkIn.verdict?.rawValue,
                                    currentStreak: checkIn.currentStreak, habitsDue: due, habits: shown, line: line), style: .plain)
    }

    /// `status`: the line, and what it says, for a script.
    struct Answer: CommandAnswer {
        let trendKilograms: Double?
        let unit: String
        let verdict: String?
        let currentStreak: Int
        let habitsDue: Int
        let habits: Int
        let line: String

        func text(style: TerminalStyle) -> String { line }
    }

    /// The day's direction as one character; none on the first day.
    static func arrow(_ verdict: DailyVerdict) -> String? {
        switch verdict {
        case .firstEntry: nil
        case .movingDownward: "↓"
        case .holdingSteady: "→"
        case .needsAttention: "↑"
        case .timeForReset: "↻"
        }
    }
}
