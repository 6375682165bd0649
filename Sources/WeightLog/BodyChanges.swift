import Foundation
import Vocabulary

/// How the body moved over a period and the one before it, beside the weight:
/// body fat %, lean mass and each tape measure, each by the one rule of a
/// period's trend change (`DailySeries.trendChange`). What `summary` shows.
public struct BodyChanges: Sendable, Equatable {
    /// What a row's values are in: percentage points, kilograms or centimetres.
    public enum Quantity: String, Sendable, Equatable {
        case percent, kilograms, centimetres
    }

    /// One measure's change in the period (`now`) and in the one before (`before`); nil where it has no value.
    public struct Row: Sendable, Equatable {
        /// `body fat`, `lean mass`, `waist`.
        public let name: String
        public let quantity: Quantity
        public let now: Double?
        public let before: Double?
    }

    /// The measures with a change in either period, body fat and lean mass first, then the tape in `BodyMeasure` order.
    public let rows: [Row]

    public var isEmpty: Bool { rows.isEmpty }

    /// - Parameters:
    ///   - composition: body fat %, lean mass and fat mass as daily series (`BodyComposition.Series`).
    ///   - tapes: each tape measure's trend.
    ///   - current: the period's local days.
    ///   - previous: the days it is set against.
    public init(composition: BodyComposition.Series, tapes: [MeasureTrend], current: ClosedRange<Int>, previous: ClosedRange<Int>) {
        let series: [(String, Quantity, DailySeries)] = [("body fat", .percent, composition.percent), ("lean mass", .kilograms, composition.lean)]
            + tapes.sorted { $0.kind < $1.kind }.map { ($0.kind.name, .centimetres, $0.series) }
        rows = series.compactMap { name, quantity, series in
            let now = series.trendChange(from: current.lowerBound, through: current.upperBound)
            let before = series.trendChange(from: previous.lowerBound, through: previous.upperBound)
            // A measure taken in either period has its row, even when a first value alone has no change to tell yet.
            let measured = series.firstIndex(onOrAfter: previous.lowerBound) < series.firstIndex(onOrAfter: current.upperBound + 1)
            return measured ? Row(name: name, quantity: quantity, now: now, before: before) : nil
        }
    }
}

/// What a flat weight line hides: the lean mass's change said beside the weight's, in one sentence that
/// `progress` and the Monday review share.
public enum LeanMassChange {
    /// A lean-mass change this large is said; below it a scale's noise may be all it is.
    public static let worthSaying = 0.5
    /// A weight change within this is "held" (the weight's steady band, DESIGN §3).
    public static let heldWithin = WeightGoal.steadyKilograms

    /// `Your weight held, your lean mass rose 0.6 kg.`; nil when the lean mass moved less than `worthSaying`.
    /// - Parameters:
    ///   - weightChange: the weight trend's change over the same days.
    ///   - leanChange: the lean-mass trend's change over them.
    ///   - unit: the unit the amount is said in.
    public static func sentence(weightChange: Double, leanChange: Double, unit: WeightUnit) -> String? {
        guard abs(leanChange) >= worthSaying else { return nil }
        let amount = unit.formatChange(abs(leanChange)).dropFirst()
        let lean = "your lean mass \(leanChange > 0 ? "rose" : "fell") \(amount)"
        guard abs(weightChange) > heldWithin else { return "Your weight held, \(lean)." }
        let moved = weightChange < 0 ? "went down" : "went up"
        return "Your weight \(moved) and \(lean)" + (leanChange > 0 && weightChange < 0 ? ": muscle kept while you lose is the change that lasts." : ".")
    }
}
