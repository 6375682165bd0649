import Foundation
import WeightLog

/// What `progress` can draw besides the weight: body fat %, lean mass, fat mass and each tape measure.
public enum ProgressMeasure: Equatable, Sendable {
    case bodyFat, leanMass, fatMass
    case tape(BodyMeasure)

    public init?(word: String) {
        switch word.lowercased() {
        case "fat", "bodyfat", "body-fat", "bf": self = .bodyFat
        case "lean", "lean-mass", "leanmass", "muscle": self = .leanMass
        case "fat-mass", "fatmass": self = .fatMass
        default:
            guard let kind = BodyMeasure(word: word) else { return nil }
            self = .tape(kind)
        }
    }

    /// `body fat`, `lean mass`, `waist`.
    public var name: String {
        switch self {
        case .bodyFat: "body fat"
        case .leanMass: "lean mass"
        case .fatMass: "fat mass"
        case let .tape(kind): kind.name
        }
    }

    /// The words that name one, as `progress` and `export` take them.
    public static let words = ["fat", "lean", "fat-mass"] + BodyMeasure.allCases.map(\.word)

    /// A change within this is steady: body fat's points, the weight's kilograms for the masses, a girth's centimetres.
    var steadyWithin: Double {
        switch self {
        case .bodyFat: BodyFat.steadyPercentPoints
        case .leanMass, .fatMass: WeightGoal.steadyKilograms
        case .tape: BodyMeasure.steadyCentimetres
        }
    }

    /// Whether less of it is progress (all but lean mass, and the girths that are not the waist's or the hips').
    var lowerIsBetter: Bool {
        switch self {
        case .bodyFat, .fatMass: true
        case .leanMass: false
        case let .tape(kind): kind.lowerIsBetter
        }
    }
}

/// A measure's history over a range: what `progress … waist`, `export waist.svg` and the report each draw, made
/// once here so they cannot disagree.
public struct MeasureHistory: Sendable {
    public let measure: ProgressMeasure
    /// Its days and trend over the range, in percent, kilograms or centimetres (`WeightHistoryData.measure`).
    public let data: WeightHistoryData
    /// For the waist, when the height is known: its latest trend over the height (`WaistToHeight`).
    public let waistToHeight: Double?
}

extension ProgressFeature {
    /// A measure's history over `range` (the chosen one by default), from the weigh-ins' body fat and the tape
    /// measures their Features hold.
    public func history(of measure: ProgressMeasure, range: ProgressRange?, weights: WeightEntryFeature,
                        measurements: MeasurementsFeature) async throws -> MeasureHistory {
        try await loadSettings()
        let range = range ?? selectedProgressRange
        let today = range.endDay.map { min($0, self.today) } ?? self.today
        let series: DailySeries
        switch measure {
        case .bodyFat: series = try await weights.bodyCompositionSeries().percent
        case .leanMass: series = try await weights.bodyCompositionSeries().lean
        case .fatMass: series = try await weights.bodyCompositionSeries().fat
        case let .tape(kind): series = try await measurements.trend(of: kind)?.series ?? DailySeries()
        }
        let data = WeightHistoryData.measure(series, range: range, today: today, lowerIsBetter: measure.lowerIsBetter,
                                             steadyWithin: measure.steadyWithin)
        let ratio = measure == .tape(.waist) ? measurements.heightMetres.flatMap { height in
            data.latestTrendKilograms.map { WaistToHeight.ratio(waistCentimetres: $0, heightMetres: height) }
        } : nil
        return MeasureHistory(measure: measure, data: data, waistToHeight: ratio)
    }

    /// What the lean mass did over the weight chart's days, when the latest weigh-ins carry body fat (a history
    /// without it reads nothing more): nil when it cannot be said.
    public func leanMassChange(over data: WeightHistoryData, weights: WeightEntryFeature) async throws -> Double? {
        guard weights.recentlyMeasuresBodyFat, data.changeKilograms != nil else { return nil }
        return WeightHistoryData.measure(try await weights.bodyCompositionSeries().lean, range: data.range, today: data.today,
                                         lowerIsBetter: false, steadyWithin: 0).changeKilograms
    }
}
