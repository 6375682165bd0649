/// AppCore is the composition root: it imports every feature target, builds
/// the production graph in `AppModel.live()`, and forwards the application's
/// lifecycle to the Features. Nothing below it may import it.
import Backup
import DailyTips
import Foundation
import Habits
import Observation
import Progress
import Settings
import Storage
import WeightLog

/// The catalogue of what Trend can do: one property per Feature.
@MainActor
public final class AppModel {
    /// The production graph. Only the REPL's entry points use it; tests build their own.
    public static let shared = live()

    public let weightEntryFeature: WeightEntryFeature
    public let progressFeature: ProgressFeature
    public let settingsFeature: SettingsFeature
    public let habitsFeature: HabitsFeature
    public let dailyTipsFeature: DailyTipsFeature
    public let backupFeature: BackupFeature
    public let weightImportFeature: WeightImportFeature
    private var hasLaunched = false

    /// The version written into backups and shown by `--version`.
    nonisolated public static let version = "0.1.0"

    public init(weightEntryFeature: WeightEntryFeature, progressFeature: ProgressFeature,
                settingsFeature: SettingsFeature, habitsFeature: HabitsFeature, dailyTipsFeature: DailyTipsFeature,
                backupFeature: BackupFeature, weightImportFeature: WeightImportFeature) {
        self.weightEntryFeature = weightEntryFeature
        self.progressFeature = progressFeature
        self.settingsFeature = settingsFeature
        self.habitsFeature = habitsFeature
        self.dailyTipsFeature = dailyTipsFeature
        self.backupFeature = backupFeature
        self.weightImportFeature = weightImportFeature
    }

    /// Builds the real graph in one visible place.
    public static func live() -> AppModel {
        // A function rather than a stored Date keeps production time moving
        // while tests pass a fixed clock.
        let currentDate: @MainActor () -> Date = { .now }
        var calendar = Calendar(identifier: .gregorian)
        // Follows the system's zone when it changes (the REPL re-reads it before each command).
        calendar.timeZone = TimeZone.autoupdatingCurrent
        calendar.firstWeekday = 2

        let directory = DataDirectory.resolve(environment: ProcessInfo.processInfo.environment)
        let storage = LocalDataStore(directory: directory)
        let settings = UserSettingsStore(repository: LocalSettingsRepository(store: storage))
        let weightRepository = LocalWeightRepository(store: storage)
        let weightLog = WeightLogManager(repository: weightRepository)
        let dailyTrend = DailyTrendManager()
        let dailyStreak = DailyStreakManager(trend: dailyTrend)

        let progressFeature = ProgressFeature(progress: ProgressTracker(), weightLog: weightLog, settings: settings,
                                              calendar: calendar, currentDate: currentDate)
        let weightEntryFeature = WeightEntryFeature(
            weightLog: weightLog, settings: settings, dailyTrend: dailyTrend, dailyStreak: dailyStreak,
            calendar: calendar, currentDate: currentDate,
            onChange: { await progressFeature.refresh() }
        )
        let settingsFeature = SettingsFeature(settings: settings, dataDirectory: directory)
        let habitsFeature = HabitsFeature(storage: LocalHabitsRepository(store: storage), calendar: calendar,
                                          currentDate: currentDate)
        let dailyTipsFeature = DailyTipsFeature(
            repository: LocalTipDeckRepository(store: storage), catalogue: { try TipCatalogue.bundled() },
            calendar: calendar, currentDate: currentDate,
            needsReset: { weightEntryFeature.checkIn().verdict == .timeForReset }
        )
        let backupFeature = BackupFeature(
            storage: storage, files: RecoveryBackupFiles(folder: directory.appendingPathComponent("Backups")),
            settings: settings, calendar: calendar, currentDate: currentDate, appVersion: version
        ) {
            await settingsFeature.reload()
            await weightEntryFeature.refresh()
            await habitsFeature.reload()
            await dailyTipsFeature.refresh()
        }
        return AppModel(weightEntryFeature: weightEntryFeature, progressFeature: progressFeature,
                        settingsFeature: settingsFeature, habitsFeature: habitsFeature,
                        dailyTipsFeature: dailyTipsFeature, backupFeature: backupFeature,
                        weightImportFeature: WeightImportFeature(
                            weightLog: weightLog, repository: weightRepository, settings: settings, calendar: calendar,
                            currentDate: currentDate
                        ) { await weightEntryFeature.refresh() })
    }

    /// Starts each Feature's independent launch work once. Awaits nothing.
    public func applicationDidFinishLaunching() {
        guard !hasLaunched else { return }
        hasLaunched = true
        settingsFeature.startLoading()
        weightEntryFeature.startLoading()
        progressFeature.startLoading()
        habitsFeature.startLoading()
        dailyTipsFeature.startLoading()
        backupFeature.observeLocalChanges()
        backupFeature.startLoading()
    }

    /// A one-shot run (`-c`, a script on standard input): nothing is loaded
    /// ahead, each command loads only what it needs, so `trend -c today`
    /// reads no habits; changes are still watched so the process backs them
    /// up before it exits. Shares the launch guard with the interactive launch.
    public func applicationDidFinishLaunchingForCommands() {
        guard !hasLaunched else { return }
        hasLaunched = true
        backupFeature.observeLocalChanges()
    }

    /// The process was resumed, or a command arrived after a long idle time:
    /// another process may have written meanwhile.
    public func applicationDidBecomeActive() {
        Task {
            await weightEntryFeature.refresh()
            await habitsFeature.reload()
            await backupFeature.triggerDataBackupIfNeeded()
        }
    }

    /// The process is about to exit: a change made in it gets its backup check now.
    public func applicationWillTerminate() async {
        await backupFeature.flushPendingBackup()
    }

    /// The local date changed (midnight, or a time-zone change).
    public func applicationSignificantTimeChange() {
        Task {
            await habitsFeature.updateCurrentDay()
            await progressFeature.refresh()
            await dailyTipsFeature.refresh()
        }
    }
}
