import Habits
import Observation
import Vocabulary
import WeightLog

/// A period's figures beside the period before it, as `summary` and the report both show them: the weigh-ins'
/// (`WeightPeriodFigures`, the Monday review's computations), the habits', and the body's changes.
public struct PeriodSummary: Sendable, Equatable {
    public let periods: ComparedPeriods
    public let now: WeightPeriodFigures
    public let before: WeightPeriodFigures
    public let habits: HabitPeriodFigures
    /// Body fat, lean mass and the tape measures, period against period.
    public let body: BodyChanges
    /// The units the person reads weights and lengths in.
    public let unit: WeightUnit, lengthUnit: LengthUnit
}

/// Assembles a period's summary from the Features that own its parts, so no screen puts it together (DESIGN §1).
@MainActor
@Observable
public final class SummaryFeature {
    @ObservationIgnored private let weightEntryFeature: WeightEntryFeature
    @ObservationIgnored private let habitsFeature: HabitsFeature
    @ObservationIgnored private let measurementsFeature: MeasurementsFeature

    public init(weightEntryFeature: WeightEntryFeature, habitsFeature: HabitsFeature, measurementsFeature: MeasurementsFeature) {
        self.weightEntryFeature = weightEntryFeature
        self.habitsFeature = habitsFeature
        self.measurementsFeature = measurementsFeature
    }

    /// `periods` (this week against the one before, by default); nil when this week cannot be compared.
    public func summary(of periods: ComparedPeriods?) async throws -> PeriodSummary? {
        guard let periods = periods ?? weightEntryFeature.comparedPeriods(named: "week") else { return nil }
        let (current, previous) = (periods.current, periods.previous)
        let body = BodyChanges(composition: try await weightEntryFeature.bodyCompositionSeries(), tapes: try await measurementsFeature.trends(),
                               current: current, previous: previous)
        return PeriodSummary(periods: periods, now: weightEntryFeature.figures(from: current.lowerBound, through: current.upperBound),
                             before: weightEntryFeature.figures(from: previous.lowerBound, through: previous.upperBound),
                             habits: try await habitsFeature.figures(from: current.lowerBound, through: current.upperBound),
                             body: body, unit: weightEntryFeature.unit, lengthUnit: measurementsFeature.unit)
    }
}
