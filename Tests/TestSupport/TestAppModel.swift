import AppCore
import Backup
import DailyTips
import Habits
import Foundation
import Progress
import Settings
import Storage
import WeightLog

/// The pieces of an isolated graph a test may want to reach.
@MainActor
public struct TestGraph {
    public let app: AppModel
    public let store: LocalDataStore
    public let clock: TestClock
    public let calendar: Calendar
    public let directory: URL
}

/// Builds an `AppModel` with the explicit initialiser on real SQLite (in
/// memory unless a store is given) and a clock the test moves. It mirrors
/// `AppModel.live()` with the production clock and files replaced.
@MainActor
public func makeTestApp(
    store: LocalDataStore = .inMemory(),
    clock: TestClock = TestClock(date("2026-06-15 08:00")),
    calendar: Calendar = calendar(zone: "UTC"),
    // A folder of its own, so Backups/ of one test never meets another's.
    directory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("trend-graph-\(UUID().uuidString)"),
    settingsRepository: (any SettingsRepository)? = nil,
    tipSeed: UInt64 = 7,
    tipCatalogue: TipCatalogue? = nil
) -> TestGraph {
    let currentDate = clock.currentDate
    let settings = UserSettingsStore(repository: settingsRepository ?? LocalSettingsRepository(store: store))
    let weightRepository = LocalWeightRepository(store: store)
    let weightLog = WeightLogManager(repository: weightRepository)
    let dailyTrend = DailyTrendManager()
    let progressFeature = ProgressFeature(progress: ProgressTracker(), weightLog: weightLog, settings: settings,
                                          calendar: calendar, currentDate: currentDate)
    let weightEntryFeature = WeightEntryFeature(
        weightLog: weightLog, settings: settings, dailyTrend: dailyTrend,
        dailyStreak: DailyStreakManager(trend: dailyTrend), calendar: calendar, currentDate: currentDate,
        onChange: { await progressFeature.refresh() }
    )
    let catalogue: @Sendable () throws -> TipCatalogue = { try tipCatalogue ?? TipCatalogue.bundled() }
    let dailyTipsFeature = DailyTipsFeature(
        repository: LocalTipDeckRepository(store: store), catalogue: catalogue, calendar: calendar,
        currentDate: currentDate, needsReset: { weightEntryFeature.checkIn().verdict == .timeForReset }, seed: tipSeed
    )
    let settingsFeature = SettingsFeature(settings: settings, dataDirectory: directory)
    let habitsFeature = HabitsFeature(storage: LocalHabitsRepository(store: store), calendar: calendar, currentDate: currentDate)
    let backupFeature = BackupFeature(
        storage: store, files: RecoveryBackupFiles(folder: directory.appendingPathComponent("Backups")),
        settings: settings, calendar: calendar, currentDate: currentDate, appVersion: "test", debounce: .seconds(3600)
    ) {
        await settingsFeature.reload()
        await weightEntryFeature.refresh()
        await habitsFeature.reload()
        await dailyTipsFeature.refresh()
    }
    let app = AppModel(
        weightEntryFeature: weightEntryFeature,
        progressFeature: progressFeature,
        settingsFeature: settingsFeature,
        habitsFeature: habitsFeature,
        dailyTipsFeature: dailyTipsFeature,
        backupFeature: backupFeature,
        weightImportFeature: WeightImportFeature(weightLog: weightLog, repository: weightRepository, settings: settings,
                                                 calendar: calendar, currentDate: currentDate) { await weightEntryFeature.refresh() }
    )
    return TestGraph(app: app, store: store, clock: clock, calendar: calendar, directory: directory)
}
