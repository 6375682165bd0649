import Foundation
import Vocabulary

/// One association tested: what was compared, the estimate with its 95 %
/// interval, the sizes of both groups, and whether it survived.
public struct Insight: Sendable, Equatable {
    /// Which test it is: the morning after the habit, its weeks, its evenings, its weekends.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The next morning's change after days the habit was done, against days it was not (kg).
        case nextMorning
        /// A week's drift in weeks the habit met its quota, against weeks it did not (kg a week).
        case weekly
        /// A weekday's morning weight against the local line (kg).
        case weekday
        /// The same day's last weigh-in in the evening against its first in the morning (kg).
        case timeOfDay
        /// Friday morning to Monday morning, against Monday to Thursday of the same week (kg).
        case weekendBump
    }

    public let kind: Kind
    /// The habit, for `nextMorning` and `weekly`.
    public let habit: String?
    /// 0 Monday … 6 Sunday, for `weekday`.
    public let weekday: Int?
    public let estimate: Statistics.Estimate
    /// The group with (done days, met weeks, the weekday's days, evening days, weekends) and the one without.
    public let count: Int
    public let otherCount: Int
    /// Whether it survived Benjamini–Hochberg at `InsightsCalculator.falseDiscoveryRate` with an interval that leaves zero out.
    public internal(set) var reported: Bool = false
}

/// A test that was not run for want of data: what it needs.
public struct InsightShortage: Sendable, Equatable {
    public let kind: Insight.Kind
    public let habit: String?
    /// The smaller group's size, and the least size tested.
    public let have: Int
    public let need: Int
    /// The two groups' sizes (days or weeks with the habit, and without): where one is empty and the other
    /// is not, the habit was kept (or left) every time, and there is nothing to compare it with.
    public var with = 0, without = 0

    /// Whether it can never be tested as it stands: every counted morning or week falls on one side.
    public var isOneSided: Bool { (with == 0) != (without == 0) }

    /// Why the test could not be run.
    public enum Reason: String, Sendable, Equatable {
        /// A side has fewer than `need`.
        case tooFew
        /// Every counted morning or week had the habit (or met its quota): none to compare with.
        case neverWithout
        /// None had it.
        case neverWith
        /// Both sides have enough, but not in a form the test compares: the next-morning test compares within a
        /// weekday, the weekly one takes out the drift of the month around each pair of weeks.
        case notComparable
    }

    public var reason: Reason {
        if with == 0, without > 0 { return .neverWith }
        if without == 0, with > 0 { return .neverWithout }
        return min(with, without) < need ? .tooFew : .notComparable
    }

    /// The reason in words, with counts that never pass their totals: "6 weighed days with it and 11 without
    /// (after a day without it); 10 of each are needed".
    public var explanation: String {
        switch (kind, reason) {
        case (.weekly, .tooFew) where with == 0 && without == 0:
            "no weighed week (4 mornings or more) yet; \(need) that meet its quota and \(need) that do not are needed"
        case (_, .tooFew) where with == 0 && without == 0:
            "no weighed day to count yet; \(need) with it and \(need) without, each after a day without it, are needed"
        case (.weekly, .tooFew):
            "\(with) weighed \(with == 1 ? "week" : "weeks") met its quota and \(without) did not; \(need) of each are needed"
        case (.weekly, .neverWithout):
            "every weighed week (4 mornings or more) met its quota, so there is none without it to compare with"
        case (.weekly, .neverWith):
            "no weighed week (4 mornings or more) has met its quota yet"
        case (.weekly, .notComparable):
            "too few of its weeks have a month of weighed weeks on either side, which the test needs to take out the drift"
        case (_, .tooFew):
            "\(with) weighed \(with == 1 ? "day" : "days") with it and \(without) without, after a day without it; \(need) of each are needed"
        case (_, .neverWithout):
            "it was done on every weighed day that followed a day without it, so there is none without it to compare with"
        case (_, .neverWith):
            "no weighed day with it has followed a day without it yet"
        case (_, .notComparable):
            "its days and the others never fall twice on one weekday, and the test compares within a weekday"
        }
    }
}

/// Everything one `insights` run found.
public struct InsightsReport: Sendable, Equatable {
    public let firstDay: Int?
    public let lastDay: Int
    /// Every test that had enough data, reported or not, in the order run.
    public let tested: [Insight]
    public let shortages: [InsightShortage]

    /// The associations that survived.
    public var reported: [Insight] { tested.filter(\.reported) }
}

/// The statistics of insights, pure over values (DESIGN §3 Insights; the
/// methods and minimum sizes are stated in docs/numbers.md, "Insights: how"):
///
/// - Mornings are each day's first weigh-in; evenings the day's last one,
///   after 17:00 and at least 6 hours after the first.
/// - Next-morning effect: over consecutive weighed days, the change from one
///   morning to the next, from a clean morning only (the day before was not
///   done, so the morning does not still carry the effect), less the mean
///   done against not done within each weekday (so a weekend habit is not
///   credited with the weekend bump; see `nextMorningEffect`), skipped days
///   and days before the habit existed left out, at least `minimumDays` in
///   each group.
/// - Weekly effect: the change of the weekly mean morning weight (weeks of
///   4 mornings or more) from one week to the next, regressed on how many of
///   the two weeks met the habit's quota (see `weeklyEffect`): the drift of a
///   met week against an unmet one, at least `minimumWeeks` of each.
/// - Weekday effect: each morning's deviation from the least-squares line
///   through the mornings of the 7 days around it (5 weighed); a one-sample
///   interval per weekday, at least `minimumWeeks` mornings.
/// - Time of day: evening minus morning of the same day, at least `minimumDays` days.
/// - Weekend bump: Friday to Monday mornings less the Monday to Thursday
///   after it, one value a weekend, at least `minimumWeeks` weekends.
/// - Every test run is one family: Benjamini–Hochberg at 10 % false
///   discovery rate, and only an interval that leaves zero out, and an effect
///   at least `smallestThatMatters`, is reported.
///   There is no resampling, so a run is reproducible without a seed.
public enum InsightsCalculator {
    public static let falseDiscoveryRate = 0.10

    /// The smallest effect worth a sentence, in kg (kg a week for `weekly`):
    /// years of data make a 50 g weekday difference "significant", and it is
    /// still not worth knowing.
    public static func smallestThatMatters(_ kind: Insight.Kind) -> Double {
        switch kind {
        case .nextMorning, .weekly, .weekday: 0.1
        case .timeOfDay, .weekendBump: 0.2
        }
    }
    public static let minimumDays = 10
    /// How far before the first weigh-in a habit's day can still count: the Monday of the first weigh-in's week is at
    /// most six days before it, and a morning's day before is one. Days earlier meet no weigh-in, and need not be read.
    public static let daysBeforeFirstWeighIn = 7
    public static let minimumWeeks = 8
    static let eveningMinute = 17 * 60
    static let eveningGapMinutes = 6 * 60

    /// The insights of the days `firstDay...lastDay` (nil: from the first weigh-in).
    /// - Complexity: O(weigh-ins + days × habits).
    /// `patterns`: the weekday, time-of-day and weekend tests too (false: the habits' alone, what `habit show` asks).
    public static func report(_ input: InsightsInput, from firstDay: Int? = nil, through lastDay: Int? = nil,
                              patterns: Bool = true) -> InsightsReport {
        let last = min(lastDay ?? input.today, input.today)
        let earliest = firstDay ?? .min
        // All of them, as a rule: then they are not copied (eighteen thousand weigh-ins copied cost more than the tests).
        let inRange = input.weighIns.allSatisfy { $0.day <= last && $0.day >= earliest } ? input.weighIns
            : input.weighIns.filter { $0.day <= last && $0.day >= earliest }
        let days = Days(inRange)
        var tested: [Insight] = []
        var shortages: [InsightShortage] = []
        func add(_ insight: Insight?, _ kind: Insight.Kind, habit: String?, sides: (with: Int, without: Int), need: Int) {
            guard let insight else {
                var shortage = InsightShortage(kind: kind, habit: habit, have: min(sides.with, sides.without), need: need)
                (shortage.with, shortage.without) = sides
                return shortages.append(shortage)
            }
            tested.append(insight)
        }
        let changes = days.nextMorningChanges()
        let weeks = days.weeklyDrifts()
        for habit in input.habits {
            // From a clean morning only: after a done day the morning may still carry its effect.
            let counted = changes.filter {
                $0.day > habit.firstDay && !habit.skippedDays.contains($0.day) && !habit.doneDays.contains($0.day - 1)
                    && !habit.skippedDays.contains($0.day - 1)
            }
            let done = counted.filter { habit.doneDays.contains($0.day) }, other = counted.filter { !habit.doneDays.contains($0.day) }
            add(nextMorningEffect(habit: habit.name, done: done, other: other), .nextMorning, habit: habit.name,
                sides: (done.count, other.count), need: minimumDays)
            let countedWeeks = weeks.filter { $0.monday >= habit.firstDay }
            let met = Dictionary(uniqueKeysWithValues: countedWeeks.map { week -> (Int, Bool) in
                (week.monday, (0..<7).count { habit.doneDays.contains(week.monday + $0) } >= habit.weeklyQuota)
            })
            let metWeeks = met.values.count { $0 }, unmetWeeks = met.count - metWeeks
            add(weeklyEffect(habit: habit.name, weeks: countedWeeks, met: met, metWeeks: metWeeks, unmetWeeks: unmetWeeks), .weekly,
                habit: habit.name, sides: (metWeeks, unmetWeeks), need: minimumWeeks)
        }
        if patterns { testPatterns(days, into: &tested) }
        let survived = Statistics.benjaminiHochberg(tested.map(\.estimate.pValue), q: falseDiscoveryRate)
        for index in tested.indices {
            let estimate = tested[index].estimate
            tested[index].reported = survived[index] && estimate.excludesZero && abs(estimate.value) >= smallestThatMatters(tested[index].kind)
        }
        return InsightsReport(firstDay: firstDay, lastDay: last, tested: tested, shortages: shortages)
    }

    /// The person's own patterns: each weekday against the days around it, the evening against the morning, the weekend bump.
    private static func testPatterns(_ days: Days, into tested: inout [Insight]) {
        let deviations = days.weekdayDeviations()
        for weekday in 0..<7 {
            let values = deviations[weekday]
            if values.count >= minimumWeeks, let estimate = Statistics.oneSample(Statistics.Summary(values)) {
                tested.append(Insight(kind: .weekday, habit: nil, weekday: weekday, estimate: estimate, count: values.count, otherCount: 0))
            }
        }
        let evenings = days.eveningDifferences()
        if evenings.count >= minimumDays, let estimate = Statistics.oneSample(Statistics.Summary(evenings)) {
            tested.append(Insight(kind: .timeOfDay, habit: nil, weekday: nil, estimate: estimate, count: evenings.count, otherCount: 0))
        }
        let bumps = days.weekendBumps()
        if bumps.count >= minimumWeeks, let estimate = Statistics.oneSample(Statistics.Summary(bumps)) {
            tested.append(Insight(kind: .weekendBump, habit: nil, weekday: nil, estimate: estimate, count: bumps.count, otherCount: 0))
        }
    }

    /// The next-morning effect: done against not-done changes within each
    /// weekday (so a habit of Fridays is not credited with the weekend), the
    /// weekdays' differences combined with weights n₁n₀/(n₁+n₀) and a pooled
    /// within-group variance. Unbiased when the effect is the same on every
    /// weekday, however unevenly the habit falls across the week.
    static func nextMorningEffect(habit: String, done: [(day: Int, value: Double)], other: [(day: Int, value: Double)]) -> Insight? {
        guard done.count >= minimumDays, other.count >= minimumDays else { return nil }
        var groups = [[[Double]]](repeating: [[], []], count: 7)
        for change in done { groups[DayNumber.weekdayFromMonday(change.day)][0].append(change.value) }
        for change in other { groups[DayNumber.weekdayFromMonday(change.day)][1].append(change.value) }
        var weighted = 0.0, weights = 0.0, squares = 0.0, degrees = 0
        for group in groups where group[0].count >= 2 && group[1].count >= 2 {
            let a = Statistics.Summary(group[0]), b = Statistics.Summary(group[1])
            let weight = Double(a.count * b.count) / Double(a.count + b.count)
            weighted += weight * (a.mean - b.mean)
            weights += weight
            squares += a.variance * Double(a.count - 1) + b.variance * Double(b.count - 1)
            degrees += a.count + b.count - 2
        }
        guard weights > 0, degrees > 0 else { return nil }
        let standardError = (squares / Double(degrees) / weights).squareRoot()
        guard standardError > 0, standardError.isFinite else { return nil }
        let estimate = Statistics.estimate(weighted / weights, standardError: standardError, degreesOfFreedom: Double(degrees), confidence: 0.95)
        return Insight(kind: .nextMorning, habit: habit, weekday: nil, estimate: estimate, count: done.count, otherCount: other.count)
    }

    /// The weekly effect: the change of the weekly mean morning weight from
    /// one week to the next, regressed on how many of the two weeks met the
    /// quota (0, ½ or 1), less the local drift (the weeks 2 to 5 away): its
    /// slope is the drift of a met week against an unmet one, in kg a week. A week's mean changes by half of each of the
    /// two weeks' drifts, and a level effect (a heavier morning after a done
    /// day) cancels in the change. Consecutive changes share a week, so the
    /// standard error is the larger of the independent one and the one that
    /// counts their lag-1 covariance (Hansen–White, lag 1).
    static func weeklyEffect(habit: String, weeks: [(monday: Int, mean: Double)], met: [Int: Bool], metWeeks: Int, unmetWeeks: Int) -> Insight? {
        guard metWeeks >= minimumWeeks, unmetWeeks >= minimumWeeks else { return nil }
        let byMonday = Dictionary(uniqueKeysWithValues: weeks.map { ($0.monday, $0.mean) })
        var changes: [Int: (x: Double, y: Double)] = [:]
        for week in weeks {
            guard let next = byMonday[week.monday + 7], let thisMet = met[week.monday], let nextMet = met[week.monday + 7] else { continue }
            changes[week.monday] = (((thisMet ? 1 : 0) + (nextMet ? 1 : 0)) / 2, next - week.mean)
        }
        // Less the local drift: the mean change of the weeks 2 to 5 away on either side (none of which shares a
        // week with this one), so a diet phase or a maintenance phase is not read as the habit's.
        var pairs: [(monday: Int, x: Double, y: Double)] = []
        for monday in changes.keys.sorted() {
            let around = [-5, -4, -3, -2, 2, 3, 4, 5].compactMap { changes[monday + 7 * $0]?.y }
            guard around.count >= 4, let change = changes[monday] else { continue }
            pairs.append((monday, change.x, change.y - around.reduce(0, +) / Double(around.count)))
        }
        let n = Double(pairs.count)
        guard pairs.count >= 2 * minimumWeeks else { return nil }
        let meanX = pairs.reduce(0) { $0 + $1.x } / n, meanY = pairs.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, sxy = 0.0
        for pair in pairs {
            sxx += (pair.x - meanX) * (pair.x - meanX)
            sxy += (pair.x - meanX) * (pair.y - meanY)
        }
        guard sxx > 0 else { return nil }
        let slope = sxy / sxx, intercept = meanY - slope * meanX
        let scores = pairs.map { ($0.monday, ($0.x - meanX) * ($0.y - intercept - slope * $0.x)) }
        var meat = scores.reduce(0) { $0 + $1.1 * $1.1 }
        for index in scores.indices.dropFirst() where scores[index].0 == scores[index - 1].0 + 7 {
            meat += 2 * scores[index].1 * scores[index - 1].1
        }
        // The larger of the two: the lag-1 estimate is noisy over a year or two of weeks, and a low draw would overclaim.
        let iid = scores.reduce(0) { $0 + $1.1 * $1.1 }
        let variance = max(meat, iid) / (sxx * sxx) * n / (n - 2)
        guard variance > 0, variance.isFinite else { return nil }
        let estimate = Statistics.estimate(slope, standardError: variance.squareRoot(), degreesOfFreedom: n - 2, confidence: 0.95)
        return Insight(kind: .weekly, habit: habit, weekday: nil, estimate: estimate, count: metWeeks, otherCount: unmetWeeks)
    }

    /// Each weighed day's morning and evening, in arrays by day from the first weighed day (ten years of days are a
    /// few thousand slots; a dictionary of them cost more than every test run on them).
    struct Days {
        let sortedDays: [Int]
        private let first: Int
        /// By `day - first`; NaN where the day has no morning, or no evening.
        private let mornings: [Double], evenings: [Double]

        init(_ weighIns: [InsightsInput.WeighIn]) {
            // In time order, as the weight log gives them, a day's weigh-ins are one run; otherwise they are put in
            // day order first. A day's first weigh-in is its morning; its last, hours later, its evening.
            let ordered = zip(weighIns, weighIns.dropFirst()).allSatisfy { $0.day <= $1.day } ? weighIns : weighIns.sorted { $0.day < $1.day }
            first = ordered.first?.day ?? 0
            let span = (ordered.last?.day ?? first - 1) - first + 1
            var mornings = [Double](repeating: .nan, count: span), evenings = [Double](repeating: .nan, count: span)
            var days: [Int] = []
            var index = ordered.startIndex
            while index < ordered.endIndex {
                let day = ordered[index].day
                var early = ordered[index], late = ordered[index]
                index += 1
                while index < ordered.endIndex, ordered[index].day == day {
                    if ordered[index].minute < early.minute { early = ordered[index] }
                    if ordered[index].minute > late.minute { late = ordered[index] }
                    index += 1
                }
                mornings[day - first] = early.kilograms
                days.append(day)
                if late.minute >= eveningMinute, late.minute - early.minute >= eveningGapMinutes { evenings[day - first] = late.kilograms }
            }
            (sortedDays, self.mornings, self.evenings) = (days, mornings, evenings)
        }

        /// The day's morning weight, nil when it was not weighed.
        func morning(_ day: Int) -> Double? { Self.value(mornings, day - first) }

        /// The day's evening weight (its last weigh-in, after 17:00 and 6 hours after its first), nil without one.
        func evening(_ day: Int) -> Double? { Self.value(evenings, day - first) }

        private static func value(_ values: [Double], _ index: Int) -> Double? {
            guard values.indices.contains(index), !values[index].isNaN else { return nil }
            return values[index]
        }

        /// The change to the next morning, for each day followed by a weighed day.
        func nextMorningChanges() -> [(day: Int, value: Double)] {
            sortedDays.compactMap { day in morning(day + 1).map { (day, $0 - morning(day)!) } }
        }

        /// Each Monday-to-Sunday week's mean morning weight, by its Monday, for weeks with 4 mornings or more.
        func weeklyDrifts() -> [(monday: Int, mean: Double)] {
            guard let first = sortedDays.first, let last = sortedDays.last else { return [] }
            var result: [(Int, Double)] = []
            var monday = first - DayNumber.weekdayFromMonday(first)
            while monday <= last {
                var sum = 0.0, count = 0
                for day in monday..<(monday + 7) {
                    if let value = morning(day) { (sum, count) = (sum + value, count + 1) }
                }
                if count >= 4 { result.append((monday, sum / Double(count))) }
                monday += 7
            }
            return result
        }

        /// Each morning's deviation from the line through the mornings of the 7 days around it, by weekday.
        func weekdayDeviations() -> [[Double]] {
            var result = [[Double]](repeating: [], count: 7)
            for day in sortedDays {
                let points = (-3...3).compactMap { offset in morning(day + offset).map { (Double(offset), $0) } }
                guard points.count >= 5, let line = Self.line(points) else { continue }
                result[weekday(day)].append(morning(day)! - line.level)
            }
            return result
        }

        func eveningDifferences() -> [Double] {
            sortedDays.compactMap { day in evening(day).flatMap { evening in morning(day).map { evening - $0 } } }
        }

        /// For each weekend, Friday to Monday less the Monday to Thursday that follows:
        /// `2·Monday − Friday − Thursday`. No two weekends share a morning, so they are independent.
        func weekendBumps() -> [Double] {
            sortedDays.filter { DayNumber.weekdayFromMonday($0) == 0 }.compactMap { monday in
                guard let friday = morning(monday - 3), let thursday = morning(monday + 3) else { return nil }
                return 2 * morning(monday)! - friday - thursday
            }
        }

        func weekday(_ day: Int) -> Int { DayNumber.weekdayFromMonday(day) }

        /// The least-squares line; `level` is its value at x = 0.
        static func line(_ points: [(Double, Double)]) -> (level: Double, slope: Double)? {
            let n = Double(points.count)
            let meanX = points.reduce(0) { $0 + $1.0 } / n, meanY = points.reduce(0) { $0 + $1.1 } / n
            var sxx = 0.0, sxy = 0.0
            for (x, y) in points {
                sxx += (x - meanX) * (x - meanX)
                sxy += (x - meanX) * (y - meanY)
            }
            guard sxx > 0 else { return nil }
            let slope = sxy / sxx
            return (meanY - slope * meanX, slope)
        }
    }
}
