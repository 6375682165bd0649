import Foundation
import Observation
import Settings
import Storage
import Vocabulary

/// Today at a glance: what the check-in shows after a weigh-in and on `today`.
public struct CheckIn: Sendable, Equatable {
    public let day: Int
    /// The latest weigh-in up to now.
    public let latestEntry: WeightEntry?
    /// The latest weigh-in's weight, at its time.
    public var latestKilograms: Double? { latestEntry?.kilograms }
    /// Today's mean, when today holds more than one weigh-in.
    public let dayMeanKilograms: Double?
    /// How many weigh-ins the latest day holds.
    public let weighInsOnLatestDay: Int
    public let trendKilograms: Double?
    public let verdict: DailyVerdict?
    public let currentStreak: Int
    /// The latest day's mean minus the previous weighed day's: what the verdict compares.
    public let changeSincePreviousKilograms: Double?
    /// The day of the latest entry.
    public let latestDay: Int?
    /// The goal minus the trend: what is left to lose (negative) or gain; nil without a goal.
    public let toGoalKilograms: Double?
    /// The trend's BMI, with a height set.
    public let bodyMassIndex: BodyMassIndex?
    /// The goal in force; nil without one.
    public let goalKilograms: Double?
    /// The first weighed day, and its weight: where the trend started.
    public let firstDay: Int?
    public let startKilograms: Double?
    /// The best trend of the days before the latest one (lowest, or highest
    /// when the goal lies above the start): what a new best must beat.
    public let previousBestTrendKilograms: Double?
    /// The weighed day before the latest one: a long gap means a return.
    public let previousWeighedDay: Int?
    /// The latest weigh-in dated after now (the clock was set back, or a file brought one): what `today`
    /// names when nothing up to now is there, rather than "no weigh-ins".
    public var laterEntry: WeightEntry? = nil

    /// Whether progress means gaining: a goal above where the trend started (`DailySeries.isGaining(toward:)`, the
    /// reference point of `verdict` too, so the two agree).
    public var isGaining: Bool { WeightGoal.isGaining(goal: goalKilograms, from: startKilograms) }

    /// The trend's progress from its start toward the goal (down without a
    /// goal); negative when it went the other way.
    public var progressKilograms: Double? {
        guard let trendKilograms, let startKilograms else { return nil }
        return isGaining ? trendKilograms - startKilograms : startKilograms - trendKilograms
    }

    /// Within `WeightGoal.atGoalKilograms` of the goal: the trend is at the goal.
    public var isNearGoal: Bool {
        guard let trendKilograms, let goalKilograms else { return false }
        return WeightGoal.isAtGoal(trendKilograms, goal: goalKilograms)
    }

    /// Whether today's weigh-in took the trend to a new best: beyond every
    /// earlier day's trend by `DailyTrendManager.newBestKilograms`, after
    /// `DailyTrendManager.plateauHistoryDays` of history (before that every
    /// day is a best).
    public var isNewBestTrend: Bool {
        guard latestDay == day, let firstDay, day - firstDay >= DailyTrendManager.plateauHistoryDays,
              let trendKilograms, let previousBestTrendKilograms else { return false }
        return isGaining ? trendKilograms > previousBestTrendKilograms + DailyTrendManager.newBestKilograms
                         : trendKilograms < previousBestTrendKilograms - DailyTrendManager.newBestKilograms
    }

    /// The days without a weigh-in just before the latest weighed day; nil with fewer than two weighed days.
    public var daysAwayBeforeLatest: Int? {
        guard let latestDay, let previousWeighedDay else { return nil }
        return latestDay - previousWeighedDay - 1
    }

    /// Whether the trend has reached the goal (at or past it, from its start).
    public var hasReachedGoal: Bool {
        guard let goalKilograms, let trendKilograms else { return false }
        return isGaining ? trendKilograms >= goalKilograms : trendKilograms <= goalKilograms
    }
}

/// Why a weigh-in about to be recorded looks like a slip, before it is.
public enum WeighInConcern: Sendable, Equatable {
    /// More than max(3 kg, 4 % of the trend) from the trend: a typo or a unit mix-up.
    case farFromTrend(trendKilograms: Double)
    /// The same weight as a weigh-in less than two minutes before or after it.
    case repeated(WeightEntry)

    public static let farFromTrendKilograms = 3.0
    public static let farFromTrendShare = 0.04
    public static let repeatSeconds: TimeInterval = 120

    /// Whether `kilograms` is far enough from `trend` to ask.
    public static func isFar(_ kilograms: Double, fromTrend trend: Double) -> Bool {
        abs(kilograms - trend) > max(farFromTrendKilograms, farFromTrendShare * trend)
    }

    /// The number a slipped decimal point most likely meant: the digits typed
    /// (`917`, `9.17`) with the point moved, when that lands near the trend
    /// in the same unit (`91.7`); nil when no placement does.
    public static func decimalSlip(of typed: String, unit: WeightUnit, trendKilograms trend: Double) -> String? {
        let digits = typed.filter(\.isNumber)
        guard digits.count >= 2, digits.count <= 6, typed.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," }) else { return nil }
        let candidates = (1..<digits.count).map { cut in String(digits.prefix(cut)) + "." + String(digits.dropFirst(cut)) } + [digits]
        let near = candidates.compactMap { text -> (String, Double)? in
            guard text != typed, let value = Double(text), case let kilograms = unit.kilograms(from: value),
                  WeightUnit.acceptedKilograms.contains(kilograms), !isFar(kilograms, fromTrend: trend) else { return nil }
            return (text.hasSuffix(".0") ? String(text.dropLast(2)) : text, abs(kilograms - trend))
        }
        return near.min { $0.1 < $1.1 }?.0
    }
}

/// The week view with the streak.
public struct StreakSummary: Sendable, Equatable {
    public let currentStreak: Int
    public let bestStreak: Int
    public let week: [WeekDay]
}

/// Recording weigh-ins: record, edit, delete and undo, and the check-in
/// that follows. Progress and streak refresh through `onChange`, wired in
/// `AppModel.assemble(_:)`, so this target never imports Progress.
@MainActor
@Observable
public final class WeightEntryFeature {
    @ObservationIgnored private let weightLog: WeightLogManager
    @ObservationIgnored private let settings: UserSettingsStore
    @ObservationIgnored private let dailyTrend: DailyTrendManager
    @ObservationIgnored private let dailyStreak: DailyStreakManager
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    public var now: Date { currentDate() }  // The injected clock's moment (a report's "made at").
    @ObservationIgnored private let onChange: @MainActor () async -> Void
    public let calendar: Calendar

    public init(weightLog: WeightLogManager, settings: UserSettingsStore, dailyTrend: DailyTrendManager,
                dailyStreak: DailyStreakManager, calendar: Calendar, currentDate: @escaping @MainActor () -> Date,
                onChange: @escaping @MainActor () async -> Void = {}) {
        self.weightLog = weightLog
        self.settings = settings
        self.dailyTrend = dailyTrend
        self.dailyStreak = dailyStreak
        self.calendar = calendar
        self.currentDate = currentDate
        self.onChange = onChange
    }

    /// Every entry in full, oldest first (read on first use; the check-in does not need them).
    public func allEntries() async throws -> [WeightEntry] {
        try await load()
        return try await weightLog.allEntries()
    }

    public var isLoading: Bool { weightLog.isLoading }
    public var lastError: (any Error)? { weightLog.lastError }
    public var unit: WeightUnit { settings.unit }

    /// Starts loading the log; returns at once.
    public func startLoading() {
        weightLog.startLoading()
        settings.startLoading()
    }

    /// Reads the log again (another process may have written) and tells the dependants.
    public func refresh() async {
        await weightLog.reload()
        await onChange()
    }

    /// Refuses any change while the clock is wrong, then loads.
    private func prepareChange() async throws {
        try PlausibleTime.checkClock(currentDate())
        try await load()
    }

    /// Waits for the log and settings; throws when storage cannot be read.
    public func load() async throws {
        try await settings.ensureLoaded()
        try await weightLog.ensureLoaded()
        try await weightLog.ensureLatest(upTo: currentDate())
    }

    /// Today's local day number.
    public var today: Int { localDays.day(of: currentDate()) }

    /// The period `word` names today and the one a look back compares it with (`ComparedPeriods`).
    public func comparedPeriods(named word: String) -> ComparedPeriods? {
        ComparedPeriods.named(word, today: today)
    }

    /// Every weigh-in's instant and weight, as loaded (`load()` first).
    public var samples: WeightSamples { weightLog.samples }

    /// The day table of the calendar's time zone.
    public var localDays: LocalDays { weightLog.localDays(for: calendar.timeZone) }

    /// The instant a typed `WhenInput` means now, in the person's calendar: a command finds it once and hands it to
    /// `concerns` and `record`.
    public func instant(of when: WhenInput) throws -> Date {
        try when.resolve(now: currentDate(), calendar: calendar)
    }

    /// Records a weigh-in at `when` (found now: for a caller with words only, a script or a test).
    @discardableResult
    public func record(kilograms: Double, when: WhenInput = .current, note: String? = nil, bodyFatPercent: Double? = nil,
                       typedUnit: WeightUnit? = nil) async throws -> WeightEntry {
        try await record(kilograms: kilograms, at: try instant(of: when), note: note, bodyFatPercent: bodyFatPercent, typedUnit: typedUnit)
    }

    /// Records a weigh-in at `instant`; refuses one that breaks `WeightEntry.validate()` or `WeightNote`.
    @discardableResult
    public func record(kilograms: Double, at instant: Date, note: String? = nil, bodyFatPercent: Double? = nil,
                       typedUnit: WeightUnit? = nil) async throws -> WeightEntry {
        try await prepareChange()
        // Whole seconds: what exports write and what duplicate checks compare.
        let date = instant.wholeSecond
        let entry = WeightEntry(date: date, kilograms: kilograms, note: try WeightNote.typed(note), bodyFatPercent: bodyFatPercent,
                                typedUnit: typedUnit)
        try entry.validate()
        try await weightLog.record(entry, journal: journal("weigh", "weigh-in \(describe(entry))"))
        // A weigh-in older than the tail held (one dated ahead is there) is still today's latest: read it in.
        try await weightLog.ensureLatest(upTo: currentDate())
        await onChange()
        return entry
    }

    /// What looks wrong about a weigh-in of `kilograms` at `when`, before it
    /// is recorded: far from the trend, or the same as one just made.
    public func concerns(kilograms: Double, at date: Date) async throws -> [WeighInConcern] {
        try await load()
        var concerns: [WeighInConcern] = []
        if let trend = latestTrendKilograms(), WeighInConcern.isFar(kilograms, fromTrend: trend) {
            concerns.append(.farFromTrend(trendKilograms: trend))
        }
        let near = try await weightLog.entries(from: date.addingTimeInterval(-WeighInConcern.repeatSeconds),
                                               to: date.addingTimeInterval(WeighInConcern.repeatSeconds))
        if let twin = near.last(where: {
            abs($0.date.timeIntervalSince(date)) < WeighInConcern.repeatSeconds && abs($0.kilograms - kilograms) < 1e-6
        }) {
            concerns.append(.repeated(twin))
        }
        return concerns
    }

    /// Changes the entry whose id starts with `id`: its weight, its moment
    /// (`when`), its note — whichever are given — under the same rules as a
    /// new weigh-in.
    public func edit(id: String, kilograms: Double? = nil, typedUnit: WeightUnit? = nil, when: WhenInput? = nil, note: NoteEdit? = nil) async throws
        -> (before: WeightEntry, after: WeightEntry) {
        try await prepareChange()
        let edit = ReadingEdit(amount: kilograms.map { (kilograms: $0, unit: typedUnit) }, when: when, note: note)
        let entry = try edit.applied(to: try await weightLog.entry(matching: id), now: currentDate(), calendar: calendar)
        let original = try await weightLog.entry(matching: entry.id)
        let before = try await weightLog.replace(entry, journal: journal("edit", "edit of \(entry.shortID): \(describe(original)) → \(describe(entry))"))
        await onChange()
        return (before, entry)
    }

    /// `fat 23.5%`: body fat onto the latest weigh-in of `when`'s local day
    /// (today by default), under the same rule as one typed with a weigh-in;
    /// undo takes it back. A day with no weigh-in has nothing to carry it.
    public func recordBodyFat(percent: Double, when: WhenInput = .current) async throws -> (before: WeightEntry, after: WeightEntry) {
        try await prepareChange()
        let day = localDays.day(of: try when.resolve(now: currentDate(), calendar: calendar))
        let onDay = try await weightLog.entries(from: localDays.startOfDay(day), to: localDays.startOfDay(day + 1).addingTimeInterval(-1))
        guard var entry = onDay.max(by: { $0.date < $1.date }) else { throw WeightLogError.noWeighInOnDay(DayNumber.string(day)) }
        let original = entry
        entry.bodyFatPercent = percent
        try entry.validate()
        let before = try await weightLog.replace(entry, journal: journal("fat", "body fat \(BodyFat.text(percent)) on \(entry.shortID): \(describe(original))"))
        await onChange()
        return (before, entry)
    }

    /// The body composition of the last `days` days (their weigh-ins read by instant), nil without body
    /// fat in them; of the log as loaded (`load()` first: a check-in has just read it).
    public func bodyComposition(days: Int = 120) async throws -> BodyComposition? {
        let localDays = self.localDays, today = self.today
        // The latest weigh-ins are in memory: without body fat among them, nothing recent is measured, and nothing is read.
        guard weightLog.latestEntries.contains(where: { $0.bodyFatPercent != nil && today - localDays.day(of: $0.date) < days }) else { return nil }
        let entries = try await weightLog.entries(from: localDays.startOfDay(today - days + 1), to: localDays.startOfDay(today + 1))
        return BodyComposition.of(entries, localDays: localDays)
    }

    /// Whether any of the latest weigh-ins (in memory) carries body fat: the cheap sign that body composition is being measured.
    public var recentlyMeasuresBodyFat: Bool { weightLog.latestEntries.contains { $0.bodyFatPercent != nil } }

    /// Body fat %, lean mass and fat mass trended over every weigh-in with body fat up to now (`BodyComposition.Series`).
    public func bodyCompositionSeries() async throws -> BodyComposition.Series {
        try await load()
        let samples = try await weightLog.bodyFatSamples(from: .distantPast, before: currentDate().addingTimeInterval(1))
        return BodyComposition.Series(samples, localDays: localDays)
    }

    /// The lean-mass trend's change over the days `firstDay...lastDay` (`DailySeries.trendChange`), when the latest
    /// weigh-ins carry body fat; nil otherwise, and then nothing is read.
    public func leanMassChange(from firstDay: Int, through lastDay: Int) async throws -> Double? {
        guard recentlyMeasuresBodyFat else { return nil }
        return try await bodyCompositionSeries().lean.trendChange(from: firstDay, through: lastDay)
    }

    /// The entries whose note holds `text` (ASCII letters in any case), newest first, at most `limit`.
    public func find(_ text: String, limit: Int) async throws -> [WeightEntry] {
        try await load()
        return try await weightLog.entries(noteContaining: text, limit: limit)
    }

    public func delete(id: String) async throws -> WeightEntry {
        try await prepareChange()
        let entry = try await weightLog.entry(matching: id)
        let deleted = try await weightLog.delete(id: entry.id, journal: journal("delete", "delete of \(entry.shortID): \(describe(entry))"))
        await onChange()
        return deleted
    }

    /// A journal entry made now (see `ChangeJournal` in Storage).
    private func journal(_ action: String, _ summary: String) -> JournalEntry {
        JournalEntry(action: action, summary: summary, at: currentDate())
    }

    /// `81.45 kg at 2026-11-30 07:30`, in the unit in force: how the history names a weigh-in.
    private func describe(_ entry: WeightEntry) -> String {
        "\(unit.formatWeighIn(entry.kilograms)) at \(localDays.localMinute(entry.date))"
    }

    /// One page of the entries of `range` (local days), past `cursor` (nil:
    /// from the end), newest or oldest first.
    public func entriesPage(in range: DayRange, after cursor: WeightEntry?, newestFirst: Bool, limit: Int) async throws -> [WeightEntry] {
        try await load()
        let start = range.firstDay.map { localDays.startOfDay($0) } ?? .distantPast
        let end = range.lastDay.map { localDays.startOfDay($0 + 1) } ?? .distantFuture
        return try await weightLog.page(after: cursor, newestFirst: newestFirst, from: start, before: end, limit: limit)
    }

    /// The trend as of today's latest weighed day (the check-in's `trendKilograms`), without the rest of the check-in.
    public func latestTrendKilograms() -> Double? {
        let series = weightLog.dailySeries(in: calendar.timeZone)
        let last = series.firstIndex(onOrAfter: today + 1) - 1
        return last >= 0 ? series.smoothedKilograms[last] : nil
    }

    public func checkIn() -> CheckIn {
        let series = weightLog.dailySeries(in: calendar.timeZone)
        let today = self.today
        let upTo = series.firstIndex(onOrAfter: today + 1)
        let last = upTo - 1
        let now = currentDate()
        let latestEntry = weightLog.latestEntry(upTo: now, today: today, localDays: localDays)
        let trend = last >= 0 ? series.smoothedKilograms[last] : nil
        let onLatestDay = last >= 0 ? series.entryCounts[last] : 0
        let goal = settings.goalKilograms
        let gaining = series.isGaining(toward: goal)
        return CheckIn(
            day: today,
            latestEntry: latestEntry,
            dayMeanKilograms: last >= 0 && series.days[last] == today && onLatestDay > 1 ? series.kilograms[last] : nil,
            weighInsOnLatestDay: onLatestDay,
            trendKilograms: trend,
            verdict: last >= 0 ? dailyTrend.verdict(at: last, for: series, goalKilograms: goal) : nil,
            currentStreak: dailyStreak.currentStreak(in: series, today: today),
            changeSincePreviousKilograms: last >= 1 ? series.kilograms[last] - series.kilograms[last - 1] : nil,
            latestDay: last >= 0 ? series.days[last] : nil,
            toGoalKilograms: goal.flatMap { goal in trend.map { goal - $0 } },
            bodyMassIndex: settings.settings.heightMetres.flatMap { metres in trend.map { BodyMassIndex(kilograms: $0, metres: metres) } },
            goalKilograms: goal,
            firstDay: series.days.first,
            startKilograms: series.smoothedKilograms.first,
            previousBestTrendKilograms: series.bestTrend(before: last, gaining: gaining),
            previousWeighedDay: last >= 1 ? series.days[last - 1] : nil,
            laterEntry: weightLog.latestEntries.last.flatMap { $0.date > now ? $0 : nil }
        )
    }

    /// The trend on each of the last `days` local days up to today, oldest first; nil on a day without a
    /// weigh-in (a trip, a gap), which the sparkline leaves as a gap rather than a bar.
    public func recentTrend(days: Int) -> [Double?] {
        let series = weightLog.dailySeries(in: calendar.timeZone)
        let today = self.today
        return ((today - days + 1)...today).map { series.trend(on: $0) }
    }

    /// The figures of the local days `firstDay...lastDay` (see `WeightPeriodFigures`).
    public func figures(from firstDay: Int, through lastDay: Int) -> WeightPeriodFigures {
        let series = weightLog.dailySeries(in: calendar.timeZone)
        return series.figures(from: firstDay, through: lastDay, gaining: series.isGaining(toward: settings.goalKilograms))
    }

    public func streak() -> StreakSummary {
        let series = weightLog.dailySeries(in: calendar.timeZone)
        return StreakSummary(currentStreak: dailyStreak.currentStreak(in: series, today: today),
                             bestStreak: dailyStreak.bestStreak(in: series),
                             week: dailyStreak.week(in: series, today: today, goalKilograms: settings.goalKilograms))
    }
}
