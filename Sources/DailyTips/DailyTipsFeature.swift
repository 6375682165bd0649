import Foundation
import Observation
import Settings
import Storage

/// The tip of the day: drawn once per local day and kept across restarts,
/// `nextTip()` for another, a reset tip after a `timeForReset` verdict, and a
/// week-ahead note on Mondays.
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
    @ObservationIgnored private let needsReset: @MainActor () async throws -> Bool
    @ObservationIgnored private let seed: UInt64
    @ObservationIgnored private let loading = SingleFlight()

    /// - Parameters:
    ///   - repository: where the decks' state is kept.
    ///   - catalogue: reads the catalogue, on first use (not at start-up).
    ///   - calendar: the person's calendar: a tip belongs to a local day.
    ///   - currentDate: the clock.
    ///   - needsReset: whether today's weigh-in verdict asks for a reset tip, once the
    ///     weight log has loaded; wired in `AppModel.assemble(_:)`.
    ///   - seed: the shuffle seed for a new installation (a stored seed wins); tests fix it.
    public init(repository: any TipDeckRepository, catalogue: @escaping @Sendable () throws -> TipCatalogue, calendar: Calendar,
                currentDate: @escaping @MainActor () -> Date, needsReset: @escaping @MainActor () async throws -> Bool,
                seed: UInt64) {
        self.repository = repository
        self.loadCatalogue = catalogue
        self.calendar = calendar
        self.currentDate = currentDate
        self.needsReset = needsReset
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

    /// Deals another tip from the everyday deck; it stays for the rest of the day.
    public func nextTip() async throws -> Tip? {
        let deck = TipDeck(catalogue: try catalogue.get())
        let day = today
        do {
            currentTip = try await repository.update(seed: seed) { state in deck.next(for: day, state: &state) }
            lastError = nil
        } catch {
            lastError = error
            throw error
        }
        return currentTip
    }

    /// The week-ahead note on Mondays (local), nil on other days.
    public var weekAhead: String? {
        // No catalogue, no note: 'tip' reports the missing catalogue.
        guard let notes = try? catalogue.get().weekAhead, !notes.isEmpty else { return nil }
        let day = today
        guard DayNumber.weekdayFromMonday(day) == 0 else { return nil }
        return notes[(day / 7) % notes.count]
    }

    /// The catalogue, read once on first use.
    private var catalogue: Result<TipCatalogue, any Error> {
        if let loadedCatalogue { return loadedCatalogue }
        let result = Result { try loadCatalogue() }
        loadedCatalogue = result
        return result
    }

    private var today: Int {
        LocalDays.shared(for: calendar.timeZone).day(of: currentDate())
    }

    private func performRefresh() async {
        isLoading = true
        defer { isLoading = false }
        do {
            let deck = TipDeck(catalogue: try catalogue.get())
            let day = today
            let reset = try await needsReset()
            currentTip = try await repository.update(seed: seed) { state in
                deck.tip(for: day, needsReset: reset, state: &state)
            }
            lastError = nil
        } catch {
            lastError = error
        }
    }
}
