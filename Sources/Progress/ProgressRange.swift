/// Progress owns the progress screen: ranges, the pure calculation from
/// weigh-ins to `WeightHistoryData` (the benchmarked hot path), the tracker
/// that runs it, and ProgressFeature. It imports WeightLog (for the entry
/// and daily series) and Settings; no other feature target.

/// The span of days the progress screen shows, ending today.
public enum ProgressRange: String, Sendable, CaseIterable, Equatable {
    case week = "1w", month = "1m", quarter = "3m", halfYear = "6m", year = "1y", all = "all"

    public static let `default` = ProgressRange.quarter

    /// Days in the window `[today − (N − 1), today]`; nil for all history.
    public var days: Int? {
        switch self {
        case .week: return 7
        case .month: return 30
        case .quarter: return 90
        case .halfYear: return 180
        case .year: return 365
        case .all: return nil
        }
    }

    /// Reads `1w`, `1m`, `3m`, `6m`, `1y`, `all` (and a few spelled-out forms).
    public init?(name: String) {
        let lower = name.lowercased()
        if let range = ProgressRange(rawValue: lower) {
            self = range
            return
        }
        switch lower {
        case "week", "7d": self = .week
        case "month", "30d": self = .month
        case "90d": self = .quarter
        case "year", "12m", "365d": self = .year
        default: return nil
        }
    }

    public var title: String {
        switch self {
        case .week: return "1 week"
        case .month: return "1 month"
        case .quarter: return "3 months"
        case .halfYear: return "6 months"
        case .year: return "1 year"
        case .all: return "all time"
        }
    }
}
