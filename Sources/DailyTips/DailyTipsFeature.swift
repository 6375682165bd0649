import Foundation
import Observation
import Storage
import Vocabulary

/// What the check-in (`today`, `weigh`) shows below the figures: the tip of
/// the day, a pep talk when something happened, and on the first check-in
/// of a Monday the review of last week with one suggestion for this one.
public struct CheckInCards: Sendable, Equatable {
    public var tip: Tip?
    public var pepTalk: PepTalk?
    public var weekReview: WeekReview?
    /// The suggestion for the week ahead, from the deck that fits (with the review).
    public var weekAhead: String?

    public init(tip: Tip? = nil, pepTalk: PepTalk? = nil, weekReview: WeekReview? = nil, weekAhead: String? = nil) {
        self.tip = tip
        self.pepTalk = pepTalk
        self.weekReview = weekReview
        self.weekAhead = weekAhead
    }
}

/// The tip of the day: drawn once per local day from the deck that fits the
/// day (reset on a plateau, maintenance near the goal, everyday otherwise)
/// and kept across restarts; `anotherTip()` for more; pep talks raised once
/// per occurrence; and the Monday review of last week.
@MainActor
@Observable
public final class DailyTipsFeature {
    public private(set) var currentTip: Tip?
    public private(set) var isLoading = false
    public private(set) var lastError: (any Error)?

    @ObservationIgnored private let repository: any TipDeckRepository
    @ObservationIgnored private let loadCatalogue: @Sendable () throws -> TipCatalogue
    @ObservationIgnored private var loadedCatalogue: Result<TipCatalogue, any Error>?
    @ObservationIgnored private let calendar: Calendar
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    @ObservationIgnored private let checkInFacts: @MainActor () async throws -> CheckInFacts
    @ObservationIgnored private let weekFigures: @MainActor (ClosedRange<Int>) async throws -> WeekFigures
    @ObservationIgnored private let seed: UInt64
    @ObservationIgnored private let loading = SingleFlight()

    /// - Parameters:
    ///   - repository: where the decks' state is kept.
    ///   - catalogue: reads the catalogue, on first use (not at start-up).
    ///   - calendar: the person's calendar: a tip belongs to a local day.
    ///   - currentDate: the clock.
    ///   - checkInFacts: what the weight log says today (the deck that fits,
    ///     milestones), once it has loaded; wired in `AppModel.assemble(_:)`.
    ///   - weekFigures: a week's weight and habit figures, for the Monday review
    ///     and the habit-week pep talk; asked for only then.
    ///   - seed: the shuffle seed for a new installation (a stored seed wins); tests fix it.
    public init(repository: any TipDeckRepository, catalogue: @escaping @Sendable () throws -> TipCatalogue, calendar: Calendar,
                currentDate: @escaping @MainActor () -> Date,
                checkInFacts: @escaping @MainActor () async throws -> CheckInFacts,
                weekFigures: @escaping @MainActor (ClosedRange<Int>) async throws -> WeekFigures,
                seed: UInt64) {
        self.repository = repository
        self.loadCatalogue = catalogue
        self.calendar = calendar
        self.currentDate = currentDate
        self.checkInFacts = checkInFacts
        self.weekFigures = weekFigures
        self.seed = seed
    }

    /// Launch: draws (or reads back) today's tip; returns at once.
    public func startLoading() {
        loading.start { await self.performRefresh() }
    }

    /// Makes `currentTip` today's tip, joining a refresh in flight.
    public func refresh() async {
        await loading.run { await self.performRefresh() }
    }

    /// Today's tip; throws when the deck cannot be read or saved.
    public func todaysTip() async throws -> Tip? {
        await refresh()
        if let lastError { throw lastError }
        return currentTip
    }

    /// Another tip from the deck of the day; the tip of the day stays.
    public func anotherTip() async throws -> Tip? {
        let deck = TipDeck(catalogue: try catalogue.get())
        let facts = try await checkInFacts()
        let day = facts.day
        return try await repository.update(seed: seed, at: currentDate()) { state in
            _ = deck.tip(for: day, deck: facts.deck, state: &state)
            return deck.another(for: day, deck: facts.deck, state: &state)
        }
    }

    /// The cards of a check-in: the tip of the day, a pep talk for the most
    /// important occurrence not yet celebrated, and on the first check-in of
    /// a Monday the review of last week with a suggestion. Throws when the
    /// catalogue or the deck state cannot be read. `given`: the facts of a check-in the caller made already (they are
    /// not made again).
    public func checkInCards(facts given: CheckInFacts? = nil) async throws -> CheckInCards {
        let deck = TipDeck(catalogue: try catalogue.get())
        let facts: CheckInFacts
        if let given { facts = given } else { facts = try await checkInFacts() }
        let day = facts.day
        let monday = day - DayNumber.weekdayFromMonday(day)
        let lastWeek = (monday - 7)...(monday - 1)
        // What the stored state already settles, read without writing.
        let stored = try await repository.update(seed: seed, at: currentDate()) { state in state }

        var occurrences = PepTalkRules.occurrences(facts)
        var figures: WeekFigures?
        let wantsReview = monday == day && stored.reviewDay != day
        if wantsReview || stored.habitWeekChecked != lastWeek.lowerBound {
            let week = try await weekFigures(lastWeek)
            figures = week
            if PepTalkRules.isPerfectHabitWeek(done: week.habitsDone, due: week.habitsDue) {
                occurrences.append(PepTalkRules.habitWeek(startingOn: lastWeek.lowerBound))
            }
        }
        var review: WeekReview?
        // A week with nothing in it (a new installation) gets the suggestion without a review.
        if wantsReview, let figures, figures.daysWeighed > 0 || figures.habitsDue > 0 {
            let before = try await weekFigures((monday - 14)...(monday - 8))
            review = WeekReview(start: lastWeek.lowerBound, week: figures, previousWeek: before, gaining: facts.isGaining)
        }
        let checkedWeek = figures == nil ? nil : lastWeek.lowerBound
        let candidates = occurrences
        let dealt = try await repository.update(seed: seed, at: currentDate()) { state in
            let tip = deck.tip(for: day, deck: facts.deck, state: &state)
            if let checkedWeek { state.habitWeekChecked = checkedWeek }
            var pepTalk: PepTalk?
            // The state is read again inside the write: another process may have celebrated meanwhile.
            if let occurrence = candidates.first(where: { !PepTalkRules.wasRaised($0, in: state.raised, day: day) }) {
                pepTalk = deck.pepTalk(for: occurrence.event, state: &state)
                for key in [occurrence.key] + occurrence.covers where !state.raised.contains(key) { state.raise(key) }
            }
            var suggestion: Tip?
            var reviewed = false
            if wantsReview, state.reviewDay != day {
                state.reviewDay = day
                reviewed = true
                suggestion = deck.suggestion(from: state.tipDeck ?? facts.deck, day: day, state: &state)
            }
            return (tip, pepTalk, reviewed, suggestion?.text)
        }
        currentTip = dealt.0
        return CheckInCards(tip: dealt.0, pepTalk: dealt.1, weekReview: dealt.2 ? review : nil, weekAhead: dealt.3)
    }

    /// The catalogue, read once on first use.
    private var catalogue: Result<TipCatalogue, any Error> {
        if let loadedCatalogue { return loadedCatalogue }
        let result = Result { try loadCatalogue() }
        loadedCatalogue = result
        return result
    }

    private func performRefresh() async {
        isLoading = true
        defer { isLoading = false }
        do {
            let deck = TipDeck(catalogue: try catalogue.get())
            let facts = try await checkInFacts()
            currentTip = try await repository.update(seed: seed, at: currentDate()) { state in
                deck.tip(for: facts.day, deck: facts.deck, state: &state)
            }
            lastError = nil
        } catch {
            lastError = error
        }
    }
}
