import Foundation
import Observation
import Settings
import Storage
import Vocabulary

/// What `today` says of the tape measures and the shape they give: each
/// recent measure's trend, the waist-to-height ratio with a height set, and
/// the US-Navy estimate of body fat with a sex set.
public struct BodyShape: Sendable, Equatable {
    /// The trends of the measures taken in the last `MeasureTrend.recentDays`, in `BodyMeasure` order.
    public let recent: [MeasureTrend]
    /// The waist trend over the height; nil without both.
    public let waistToHeight: Double?
    /// The US-Navy estimate from the trends of the neck, waist (and hips) and the height; nil without them or a sex.
    public let navyBodyFatPercent: Double?

    public var isEmpty: Bool { recent.isEmpty }
}

/// Tape measures: `measure waist 84 cm`, their listing, edits and deletes
/// (journaled, so `undo` takes them back), and their trends. It owns the
/// `measurements` table through its repository and keeps every measurement
/// loaded: a person takes a few a week.
@MainActor
@Observable
public final class MeasurementsFeature {
    public private(set) var measurements: [BodyMeasurement] = []
    @ObservationIgnored private let repository: any MeasurementRepository
    @ObservationIgnored private let settings: UserSettingsStore
    @ObservationIgnored private let currentDate: @MainActor () -> Date
    @ObservationIgnored private let loader: FreshLoader
    public let calendar: Calendar

    public init(repository: any MeasurementRepository, settings: UserSettingsStore, calendar: Calendar,
                currentDate: @escaping @MainActor () -> Date) {
        self.repository = repository
        self.settings = settings
        self.calendar = calendar
        self.currentDate = currentDate
        loader = FreshLoader(version: { try await repository.externalVersion() })
    }

    public var isLoading: Bool { loader.isLoading }
    public var lastError: (any Error)? { loader.lastError }
    /// The unit tape measures are typed and shown in (`set measure-unit`).
    public var unit: LengthUnit { settings.settings.tapeUnit }
    public var localDays: LocalDays { LocalDays.shared(for: calendar.timeZone) }
    public var today: Int { localDays.day(of: currentDate()) }

    /// Waits for the measurements and settings; throws when storage cannot be read.
    public func load() async throws {
        try await settings.ensureLoaded()
        try await loader.ensureLoaded(performLoad)
    }

    /// Reads again after a restore, an undo or a sync, when anything was read.
    public func reload() async {
        await loader.refresh(performLoad)
    }

    private func performLoad() async throws {
        measurements = try await repository.allMeasurements()
    }

    /// Records each measure typed at `when` (now by default), in one change; refuses them all when one breaks a rule.
    public func record(_ input: MeasureInput, when: WhenInput = .current, note: String? = nil) async throws -> [BodyMeasurement] {
        try PlausibleTime.checkClock(currentDate())
        try await load()
        let date = try when.resolve(now: currentDate(), calendar: calendar).wholeSecond
        let note = try WeightNote.typed(note)
        let made = input.values.map { BodyMeasurement(date: date, kind: $0.kind, centimetres: $0.centimetres, typedUnit: $0.unit, note: note) }
        for measurement in made { try measurement.validate() }
        let summary = made.map(describe).joined(separator: ", ")
        try await repository.insert(made, journal: journal("measure", "measure \(summary) at \(localDays.localMinute(date))"))
        await reload()
        return made
    }

    /// The measurement whose id starts with `prefix`, or the latest one for `last`.
    public func measurement(matching prefix: String) async throws -> BodyMeasurement {
        try await load()
        return try Self.measurement(matching: prefix, in: measurements)
    }

    /// The measurement of `measurements` (oldest first) whose id starts with `prefix`, or the latest one for `last`.
    public static func measurement(matching prefix: String, in measurements: [BodyMeasurement]) throws -> BodyMeasurement {
        let typed = IDPrefix(prefix)
        if typed.meansLatest {
            guard let latest = measurements.last else { throw MeasurementError.noMeasurements }
            return latest
        }
        let matches = measurements.filter { typed.matches($0.id) }
        guard let first = matches.first else { throw MeasurementError.noSuchMeasurement(prefix) }
        guard matches.count == 1 else { throw MeasurementError.ambiguous(prefix, matches: WeightEntry.distinguishingPrefixes(of: matches.map(\.id))) }
        return first
    }

    /// Whether `prefix` names one of `measurements` (a `delete` or an `edit` tells weigh-ins from measurements by it).
    public static func hasMeasurement(matching prefix: String, in measurements: [BodyMeasurement]) -> Bool {
        let typed = IDPrefix(prefix)
        return measurements.contains { typed.matches($0.id) }
    }

    public func delete(id: String) async throws -> BodyMeasurement {
        try PlausibleTime.checkClock(currentDate())
        let measurement = try await measurement(matching: id)
        guard try await repository.deleteMeasurement(id: measurement.id, journal: journal("delete", "delete of \(measurement.shortID): \(describe(measurement))"))
        else { throw MeasurementError.noSuchMeasurement(id) }
        await reload()
        return measurement
    }

    /// Changes a measurement's girth (typed in `unit`), its moment or its note, under the rules of a new one.
    public func edit(id: String, centimetres: Double? = nil, typedUnit: LengthUnit? = nil, when: WhenInput? = nil,
                     note: WeightEntryFeature.NoteEdit? = nil) async throws -> (before: BodyMeasurement, after: BodyMeasurement) {
        try PlausibleTime.checkClock(currentDate())
        let original = try await measurement(matching: id)
        let edit = ReadingEdit(amount: centimetres.map { (centimetres: $0, unit: typedUnit) }, when: when, note: note)
        let changed = try edit.applied(to: original, now: currentDate(), calendar: calendar)
        guard try await repository.update(changed, journal: journal("edit", "edit of \(changed.shortID): \(describe(original)) → \(describe(changed))"))
        else { throw MeasurementError.noSuchMeasurement(id) }
        await reload()
        return (original, changed)
    }

    /// The measurements of `range` (local days), oldest first; of one kind when `kind` is given.
    public func measurements(in range: DayRange, kind: BodyMeasure? = nil) async throws -> [BodyMeasurement] {
        try await load()
        let localDays = self.localDays
        return measurements.filter { measurement in
            let day = localDays.day(of: measurement.date)
            return (kind == nil || measurement.kind == kind) && range.firstDay.map { day >= $0 } ?? true && range.lastDay.map { day <= $0 } ?? true
        }
    }

    /// The measurements whose note holds `text` (in any case), newest first, at most `limit`.
    public func find(_ text: String, limit: Int) async throws -> [BodyMeasurement] {
        try await load()
        return Array(measurements.reversed().filter { $0.note?.localizedCaseInsensitiveContains(text) ?? false }.prefix(limit))
    }

    /// The trend of one measure, up to today; nil before its first measurement.
    public func trend(of kind: BodyMeasure) async throws -> MeasureTrend? {
        try await load()
        let now = currentDate()
        return MeasureTrend(kind, measurements: measurements.filter { $0.date <= now }, localDays: localDays)
    }

    /// Every measure's trend up to now, in `BodyMeasure` order (what `summary` sets period against period).
    public func trends() async throws -> [MeasureTrend] {
        try await load()
        let localDays = self.localDays, now = currentDate()
        let upToNow = measurements.filter { $0.date <= now }
        return BodyMeasure.allCases.compactMap { MeasureTrend($0, measurements: upToNow, localDays: localDays) }
    }

    /// The recent measures and the shape they give (see `BodyShape`).
    public func shape() async throws -> BodyShape {
        let today = self.today
        let trends = try await trends()
        let recent = trends.filter { today - $0.latestDay < MeasureTrend.recentDays }
        func trend(_ kind: BodyMeasure) -> Double? { recent.first { $0.kind == kind }?.trendCentimetres }
        let height = settings.settings.heightMetres
        let ratio = height.flatMap { height in trend(.waist).map { WaistToHeight.ratio(waistCentimetres: $0, heightMetres: height) } }
        var navy: Double?
        if let sex = settings.settings.sex, let height, let neck = trend(.neck), let waist = trend(.waist) {
            navy = NavyBodyFat.percent(sex: sex, heightCentimetres: height * 100, neck: neck, waist: waist, hips: trend(.hips))
        }
        return BodyShape(recent: recent, waistToHeight: ratio, navyBodyFatPercent: navy)
    }

    /// The height set, for the screens that explain the waist-to-height ratio.
    public var heightMetres: Double? { settings.settings.heightMetres }

    private func journal(_ action: String, _ summary: String) -> JournalEntry {
        JournalEntry(action: action, summary: summary, at: currentDate())
    }

    /// `waist 84.0 cm`, in the unit in force: how the history names a measurement.
    private func describe(_ measurement: BodyMeasurement) -> String {
        "\(measurement.kind.name) \(unit.format(measurement.centimetres))"
    }
}
