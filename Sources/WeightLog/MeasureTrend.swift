import Foundation
import Settings
import Vocabulary

/// One tape measure's history: its daily means and the trend through them,
/// with the weight's gap-aware 10 % smoothing (`DailySeries`), in centimetres.
public struct MeasureTrend: Sendable, Equatable {
    public let kind: BodyMeasure
    /// The days with a measurement, their means (cm) and the trend (cm); `DailySeries` names its values kilograms.
    public let series: DailySeries

    /// The trend of `measurements` of `kind` (any order); nil when there are none.
    public init?(_ kind: BodyMeasure, measurements: [BodyMeasurement], localDays: LocalDays) {
        let ofKind = measurements.filter { $0.kind == kind }.sorted { ($0.date, $0.id) < ($1.date, $1.id) }
        guard !ofKind.isEmpty else { return nil }
        self.kind = kind
        series = DailySeries(sortedSeconds: ofKind.map(\.date.timeIntervalSince1970), kilograms: ofKind.map(\.centimetres), localDays: localDays)
    }

    public var latestDay: Int { series.days[series.count - 1] }
    /// The last day's mean.
    public var latestCentimetres: Double { series.kilograms[series.count - 1] }
    public var trendCentimetres: Double { series.smoothedKilograms[series.count - 1] }

    /// The trend as of the end of `day`; nil before the first measurement.
    public func trend(onOrBefore day: Int) -> Double? { series.trend(onOrBefore: day) }

    /// How recent a measurement must be for `today` to show its trend: tape measures are taken weekly or monthly.
    public static let recentDays = 35
}

/// The waist-to-height ratio: the waist over the height, both in the same unit. Above 0.5 the waist
/// carries a raised health risk at any height (Ashwell & Gibson; NICE's "keep your waist to less than half your height").
public enum WaistToHeight {
    public static let threshold = 0.5

    public static func ratio(waistCentimetres: Double, heightMetres: Double) -> Double {
        waistCentimetres / (heightMetres * 100)
    }
}

/// The US Navy's circumference estimate of body fat (Hodgdon & Beckett, 1984), from the neck, the waist,
/// the hips (for women) and the height, in centimetres. An estimate: screens label it so, beside a measured
/// body fat and never mixed into it.
public enum NavyBodyFat {
    /// The estimate in percent, or nil when the girths cannot give one (a waist no wider than the neck)
    /// or it lands outside what a body can have (`BodyFat.acceptedPercent`).
    public static func percent(sex: Sex, heightCentimetres height: Double, neck: Double, waist: Double, hips: Double?) -> Double? {
        let denominator: Double
        switch sex {
        case .male:
            guard waist - neck > 1 else { return nil }
            denominator = 1.0324 - 0.19077 * log10(waist - neck) + 0.15456 * log10(height)
        case .female:
            guard let hips, waist + hips - neck > 1 else { return nil }
            denominator = 1.29579 - 0.35004 * log10(waist + hips - neck) + 0.22100 * log10(height)
        }
        guard denominator > 0 else { return nil }
        return BodyFat.checked(495 / denominator - 450)
    }
}
