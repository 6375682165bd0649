import Foundation
import Habits
import Insights
import Observation
import Progress
import Settings
import Vocabulary
import WeightLog

/// The report's content (DESIGN §10), a typed value: every figure is the one the screens give, from the same
/// Features. The period is the range asked for, or the history when the range reaches back before it.
public struct Report: Sendable {
    /// The first and last day it covers, and how they are said ("3 months", "since your first weigh-in, 7 weeks").
    public let firstDay: Int, lastDay: Int
    public let periodTitle: String
    /// The weight over the period: the chart's data, whose `changeKilograms` is the period's trend change.
    public let weight: WeightHistoryData
    /// The period against the one before it, as `summary` gives them; `hasPeriodBefore` is false when nothing was
    /// weighed before it (then there is nothing to compare with, and no column is shown for it).
    public let summary: PeriodSummary?
    public var hasPeriodBefore: Bool { (summary?.before.daysWeighed ?? 0) > 0 }
    /// The trend at the start (just before the period) and at the end.
    public var startTrendKilograms: Double? { weight.latestTrendKilograms.flatMap { end in weight.changeKilograms.map { end - $0 } } }
    public var endTrendKilograms: Double? { weight.points.last?.smoothedKilograms }
    /// The person, where set: their name, the age band in the period's last year, the height the BMI uses, the sex.
    public let personName: String?
    public let ageBand: String?
    public let heightMetres: Double?
    public let sex: Sex?
    /// The BMI of the end trend, with the height it used.
    public var bodyMassIndex: BodyMassIndex? {
        guard let metres = heightMetres, let trend = endTrendKilograms else { return nil }
        return BodyMassIndex(kilograms: trend, metres: metres)
    }
    /// Body fat and the tape measures measured in the period, each with its chart's data.
    public let measures: [MeasureHistory]
    /// Each habit (not archived): its period figures and its calendar and strength (`habit show`'s detail).
    public let habits: [HabitPart]
    /// The insights of the period.
    public let insights: InsightsReport
    public let unit: WeightUnit, lengthUnit: LengthUnit
    public let goalKilograms: Double?

    /// One habit as the report shows it: its calendar and strength, and how it went in the period.
    public struct HabitPart: Sendable {
        public let detail: HabitDetail
        /// Due days done, days due, in the period.
        public let done: Int, due: Int
    }

    /// The days of a habit's calendar: the whole period up to 13 weeks, else its last 13 weeks.
    public static let calendarDays = 91
}

/// Assembles the report from the Features that own its parts, as the check-in is assembled: no screen puts it
/// together (DESIGN §1, §10).
@MainActor
@Observable
public final class ReportFeature {
    @ObservationIgnored private let progressFeature: ProgressFeature
    @ObservationIgnored private let weightEntryFeature: WeightEntryFeature
    @ObservationIgnored private let measurementsFeature: MeasurementsFeature
    @ObservationIgnored private let habitsFeature: HabitsFeature
    @ObservationIgnored private let summaryFeature: SummaryFeature
    @ObservationIgnored private let insightsFeature: InsightsFeature
    @ObservationIgnored private let settingsFeature: SettingsFeature

    /// The habits a report draws at most.
    public static let habitLimit = 40

    public init(progressFeature: ProgressFeature, weightEntryFeature: WeightEntryFeature, measurementsFeature: MeasurementsFeature,
                habitsFeature: HabitsFeature, summaryFeature: SummaryFeature, insightsFeature: InsightsFeature, settingsFeature: SettingsFeature) {
        self.progressFeature = progressFeature
        self.weightEntryFeature = weightEntryFeature
        self.measurementsFeature = measurementsFeature
        self.habitsFeature = habitsFeature
        self.summaryFeature = summaryFeature
        self.insightsFeature = insightsFeature
        self.settingsFeature = settingsFeature
    }

    /// The report of `range` (the chosen one when nil).
    public func report(range: ProgressRange?) async throws -> Report {
        let range = range ?? progressFeature.selectedProgressRange
        let weight = try await progressFeature.prepare(range: range)
        let lastDay = weight.today
        let firstDay = weight.reachesBeforeHistory ? (weight.firstWeighInDay ?? lastDay)
            : (range.days.map { lastDay - ($0 - 1) } ?? weight.firstWeighInDay ?? lastDay)
        let length = lastDay - firstDay + 1
        let periods = ComparedPeriods(name: weight.periodTitle, current: firstDay...lastDay, previous: (firstDay - length)...(firstDay - 1))
        let summary = try await summaryFeature.summary(of: periods)
        var measures: [MeasureHistory] = []
        for measure in [ProgressMeasure.bodyFat, .leanMass] + BodyMeasure.allCases.map({ .tape($0) }) {
            let history = try await progressFeature.history(of: measure, range: range, weights: weightEntryFeature, measurements: measurementsFeature)
            if !history.data.points.isEmpty { measures.append(history) }
        }
        try await habitsFeature.load()
        let calendarDays = min(Report.calendarDays, max(7, length))
        var habits: [Report.HabitPart] = []
        let figures = summary?.habits.habits ?? []
        for habit in habitsFeature.habits.filter({ !$0.archived }).prefix(Self.habitLimit) {
            let detail = try habitsFeature.detail(of: habit.name, days: calendarDays)
            let own = figures.first { $0.name == habit.name }
            habits.append(Report.HabitPart(detail: detail, done: own?.done ?? 0, due: own?.due ?? 0))
        }
        let settings = settingsFeature.current
        let ageBand = settings.birthYear.flatMap { BirthYear.ageBand(born: $0, in: DayNumber.civil(lastDay).year) }
        return Report(firstDay: firstDay, lastDay: lastDay, periodTitle: weight.periodTitle, weight: weight, summary: summary,
                      personName: settings.personName, ageBand: ageBand, heightMetres: settings.heightMetres, sex: settings.sex,
                      measures: measures, habits: habits,
                      insights: try await insightsFeature.report(from: firstDay, through: lastDay),
                      unit: weightEntryFeature.unit, lengthUnit: measurementsFeature.unit, goalKilograms: weight.goalKilograms)
    }
}
