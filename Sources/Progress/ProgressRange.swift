/// Progress owns the progress screen: ranges, the pure calculation from
/// weigh-ins to `WeightHistoryData` (the benchmarked hot path), the tracker
/// that runs it, and ProgressFeature. It imports WeightLog (for the entry
/// and daily series) and Settings; no other feature target.
import Vocabulary

/// The span of days the progress screen shows: the last N days up to today
/// (`1w`, `3m`, `30d`, `2y`…), all history, or a span that ended in the past
/// (`2026-02`, `2025`, `2026-01-01..2026-01-31`), which is then shown as of
/// its last day.
public struct ProgressRange: Sendable, Equatable {
    /// The range as typed and kept in the settings (`3m`, `2026-02`).
    public let rawValue: String
    /// Days in the window `[end − (N − 1), end]`; nil for all history.
    public let days: Int?
    /// The window's last local day; nil for today.
    public let endDay: Int?
    public let title: String

    public static let week = ProgressRange(preset: "1w", days: 7, title: "1 week")
    public static let month = ProgressRange(preset: "1m", days: 30, title: "1 month")
    public static let quarter = ProgressRange(preset: "3m", days: 90, title: "3 months")
    public static let halfYear = ProgressRange(preset: "6m", days: 180, title: "6 months")
    public static let year = ProgressRange(preset: "1y", days: 365, title: "1 year")
    public static let all = ProgressRange(preset: "all", days: nil, title: "all time")
    public static let `default` = ProgressRange.quarter

    /// The named ranges, as completion offers them.
    public static let allCases = [week, month, quarter, halfYear, year, all]

    private init(preset: String, days: Int?, title: String) {
        rawValue = preset
        self.days = days
        endDay = nil
        self.title = title
    }

    /// Reads any RANGE (`DayRange`) and a few spelled-out forms (`week`,
    /// `month`, `year`); `today` places a span that ends in the past.
    public init?(name: String, today: Int) {
        let lower = name.lowercased()
        if let preset = Self.allCases.first(where: { $0.rawValue == lower }) {
            self = preset
            return
        }
        switch lower {
        case "week", "7d": self = .week; return
        case "month", "30d": self = .month; return
        case "90d": self = .quarter; return
        case "year", "12m", "365d": self = .year; return
        default: break
        }
        guard let span = DayRange.parse(lower, today: today) else { return nil }
        rawValue = lower
        title = span.title
        switch (span.firstDay, span.lastDay) {
        case (nil, nil):
            days = nil
            endDay = nil
        case let (first?, nil):
            days = today - first + 1
            endDay = nil
        case let (first, last?):
            // A span that ends before today is shown as of its last day (one that starts open reaches back to the
            // start); one that reaches today or later is shown up to today.
            let end = min(last, today)
            days = first.map { end - $0 + 1 }
            endDay = last >= today ? nil : last
        }
        guard (days ?? 1) >= 1 else { return nil }
    }
}
