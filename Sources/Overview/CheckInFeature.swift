import DailyTips
import Foundation
import Insights
import Observation
import WeightLog

/// The morning check-in as `today` and `weigh` both show it: the weight and its trend, the tip of the day and the
/// Monday review, recent body composition and tape measures, and an association that became clear this week.
public struct DailyCheckIn: Sendable {
    public let checkIn: CheckIn
    /// The tip of the day, a pep talk, the Monday review; empty when the deck cannot be read (`tip` says why).
    public let cards: CheckInCards
    /// The trend of the last 14 days (fewer while it is younger), a day at a time; empty without a trend.
    public let recentTrend: [Double?]
    /// Body fat and lean mass, when a recent weigh-in carries body fat.
    public let composition: BodyComposition?
    /// The recent tape measures and what they give, when any were taken lately.
    public let shape: BodyShape?
    /// With the Monday review, an association that became clear this week.
    public let newInsight: Insight?
}

/// Assembles the check-in from the Features that own its parts, so no screen puts it together (DESIGN §1): what
/// cannot be read leaves its part out, and the check-in stands.
@MainActor
@Observable
public final class CheckInFeature {
    @ObservationIgnored private let weightEntryFeature: WeightEntryFeature
    @ObservationIgnored private let dailyTipsFeature: DailyTipsFeature
    @ObservationIgnored private let measurementsFeature: MeasurementsFeature
    @ObservationIgnored private let insightsFeature: InsightsFeature

    public init(weightEntryFeature: WeightEntryFeature, dailyTipsFeature: DailyTipsFeature, measurementsFeature: MeasurementsFeature,
                insightsFeature: InsightsFeature) {
        self.weightEntryFeature = weightEntryFeature
        self.dailyTipsFeature = dailyTipsFeature
        self.measurementsFeature = measurementsFeature
        self.insightsFeature = insightsFeature
    }

    /// Today's check-in; throws only when the weigh-ins cannot be read.
    public func today() async throws -> DailyCheckIn {
        try await weightEntryFeature.load()
        return await assemble(weightEntryFeature.checkIn())
    }

    /// The check-in around `checkIn` (a fresh weigh-in's).
    public func assemble(_ checkIn: CheckIn) async -> DailyCheckIn {
        // The check-in stands without its cards: a deck that cannot be read leaves them out ('tip' reports why).
        let cards = (try? await dailyTipsFeature.checkInCards(facts: CheckInFacts(checkIn, unit: weightEntryFeature.unit))) ?? CheckInCards()
        let trend = checkIn.trendKilograms == nil ? [] : weightEntryFeature.recentTrend(days: 14)
        // Body fat and lean mass when they are recent; an unreadable row is 'entries'' to report.
        let composition = (try? await weightEntryFeature.bodyComposition())
            .flatMap { $0 }.flatMap { checkIn.day - $0.latestDay < BodyComposition.recentDays ? $0 : nil }
        // The Monday review may name one association that became clear this week; an unreadable log leaves it out ('insights' says why).
        let insight = cards.weekReview == nil ? nil : (try? await insightsFeature.newlyClear()) ?? nil
        // The tape measures when they are recent ('measurements' reports a read that fails).
        let shape = (try? await measurementsFeature.shape()).flatMap { $0.isEmpty ? nil : $0 }
        return DailyCheckIn(checkIn: checkIn, cards: cards, recentTrend: trend, composition: composition, shape: shape, newInsight: insight)
    }
}
