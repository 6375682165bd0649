import Vocabulary

/// How fast the weight moves, one rule for every screen that says it
/// (`progress`, `summary`, the Monday review, the reset verdict, the pep
/// talks): a least-squares line through the daily means (not the trend) of
/// the days looked at. The trend lags the weight by about 9 days and jumps
/// after a gap; a line through whole weeks of means has no lag and averages
/// out weekend bumps. Its level is where a projection starts, its slope
/// (clamped to ±0.15 kg a day) the weekly rate and the calories, and the
/// slope's standard error the range around a goal date.
///
/// A rate needs enough history to be honest: at least
/// `minimumWeighedDays` weighed days spread over at least `minimumSpanDays`
/// days. A week, or five days of a new log, is too short: a one-week line
/// is tilted by a weekend. The current rate also needs
/// `minimumRecentDays` weighed days among the last `recentDays`, so a
/// rate is never from weeks ago.
public struct WeightRate: Sendable, Equatable {
    /// Where the line is on the origin day (kg).
    public let level: Double
    /// Its slope, kg a day, clamped to ±`maximumSlopeKilogramsPerDay`.
    public let slope: Double
    /// The slope's standard error, kg a day; nil with only two days.
    public let slopeStandardError: Double?

    public init(level: Double, slope: Double, slopeStandardError: Double?) {
        self.level = level
        self.slope = slope
        self.slopeStandardError = slopeStandardError
    }

    /// The slope per week.
    public var weeklyKilograms: Double { 7 * slope }

    /// The days the current rate looks back over: eight whole weeks.
    public static let windowDays = 56
    /// The least history a rate is drawn from.
    public static let minimumWeighedDays = 8
    public static let minimumSpanDays = 14
    /// The current rate's recent days.
    public static let recentDays = 14
    public static let minimumRecentDays = 3
    public static let maximumSlopeKilogramsPerDay = 0.15

    /// Why there is no rate: how much history there is, and how much more it needs.
    public struct Shortfall: Sendable, Equatable, CustomStringConvertible {
        /// Weighed days among the days looked at, and the days of them the log covers (from its first weigh-in,
        /// or the first day looked at when the log is older, to the last day looked at).
        public let weighedDays: Int
        public let spanDays: Int
        /// Weighed days among the recent ones, for the current rate; nil for a period.
        public let recentWeighedDays: Int?

        public init(weighedDays: Int, spanDays: Int, recentWeighedDays: Int?) {
            self.weighedDays = weighedDays
            self.spanDays = spanDays
            self.recentWeighedDays = recentWeighedDays
        }

        /// More weighed days needed (0 when there are enough).
        public var moreWeighedDays: Int {
            max(WeightRate.minimumWeighedDays - weighedDays, (recentWeighedDays.map { WeightRate.minimumRecentDays - $0 }) ?? 0, 0)
        }

        /// More days of history needed (0 when the span is long enough).
        public var moreDays: Int { max(WeightRate.minimumSpanDays - spanDays, 0) }

        /// What a goal date still needs, in words: `A goal date needs 3 more weighed days and 9 more days.`
        public var goalDateNeeds: String {
            let parts = [(moreWeighedDays, "more weighed day"), (moreDays, "more day")].filter { $0.0 > 0 }.map { counted($0.0, $0.1) }
            return "A goal date needs " + (parts.isEmpty ? "a few more weigh-ins" : parts.joined(separator: " and ")) + "."
        }

        /// `too few days for a rate: 3 weighed over 5 days (it needs 8 over 2 weeks)`.
        public var description: String {
            if let recent = recentWeighedDays, recent < WeightRate.minimumRecentDays,
               weighedDays >= WeightRate.minimumWeighedDays, spanDays >= WeightRate.minimumSpanDays {
                return "too few recent days for a rate: \(recent) of the last \(WeightRate.recentDays) weighed (a rate needs \(WeightRate.minimumRecentDays))"
            }
            return "too few days for a rate: \(weighedDays) weighed over \(counted(spanDays, "day")) (it needs \(WeightRate.minimumWeighedDays) over \(WeightRate.minimumSpanDays / 7) weeks)"
        }
    }

    /// The rate, or why there is none.
    public enum Reading: Sendable, Equatable {
        case rate(WeightRate)
        case tooFewDays(Shortfall)

        public var rate: WeightRate? {
            if case let .rate(rate) = self { return rate }
            return nil
        }

        public var shortfall: Shortfall? {
            if case let .tooFewDays(shortfall) = self { return shortfall }
            return nil
        }
    }
}

extension DailySeries {
    /// The current rate on `today`: the line through the last
    /// `WeightRate.windowDays` days up to today, its level at today.
    /// - Complexity: O(log days + days in the window).
    public func currentRate(today: Int) -> WeightRate.Reading {
        let end = firstIndex(onOrAfter: today + 1)
        let recent = end - firstIndex(onOrAfter: today - (WeightRate.recentDays - 1))
        return rate(from: today - (WeightRate.windowDays - 1), through: today, origin: today, recentWeighedDays: recent)
    }

    /// The rate of the days `firstDay...lastDay` (a summary's period, a review's week), its level at `lastDay`.
    /// - Complexity: O(log days + days in the period).
    public func rate(from firstDay: Int, through lastDay: Int) -> WeightRate.Reading {
        rate(from: firstDay, through: lastDay, origin: lastDay, recentWeighedDays: nil)
    }

    private func rate(from firstDay: Int, through lastDay: Int, origin: Int, recentWeighedDays: Int?) -> WeightRate.Reading {
        let first = firstIndex(onOrAfter: firstDay), end = firstIndex(onOrAfter: lastDay + 1)
        let weighed = max(end - first, 0)
        // The days of the span the log covers: a fortnight whose first day went unweighed is still a fortnight.
        let shortfall = WeightRate.Shortfall(weighedDays: weighed, spanDays: weighed == 0 ? 0 : lastDay - max(firstDay, days[0]) + 1,
                                             recentWeighedDays: recentWeighedDays)
        guard shortfall.moreWeighedDays == 0, shortfall.moreDays == 0 else { return .tooFewDays(shortfall) }
        let n = Double(weighed)
        var sumX = 0.0, sumY = 0.0
        for index in first..<end {
            sumX += Double(days[index] - origin)
            sumY += kilograms[index]
        }
        let meanX = sumX / n, meanY = sumY / n
        var sxx = 0.0, sxy = 0.0
        for index in first..<end {
            let dx = Double(days[index] - origin) - meanX
            sxx += dx * dx
            sxy += dx * (kilograms[index] - meanY)
        }
        guard sxx > 0 else { return .tooFewDays(shortfall) }
        let slope = sxy / sxx
        let level = meanY - slope * meanX
        var residuals = 0.0
        for index in first..<end {
            let residual = kilograms[index] - (level + slope * Double(days[index] - origin))
            residuals += residual * residual
        }
        let limit = WeightRate.maximumSlopeKilogramsPerDay
        return .rate(WeightRate(level: level, slope: min(max(slope, -limit), limit),
                                slopeStandardError: n > 2 ? (residuals / (n - 2) / sxx).squareRoot() : nil))
    }
}
