/// AppCore is the composition root: it imports every feature target, builds
/// the production graph (`AppModel.live(dataDirectory:)`, wired in `AppModel.assemble(_:)`), and forwards the application's
/// lifecycle to the Features. Nothing below it may import it.
import Backup
import DailyTips
import Exports
import Foundation
import Habits
import History
import Insights
import Observation
import Overview
import Progress
import Settings
import Sync
import WeightImport
import WeightLog

/// The catalogue of what Trend can do: one property per Feature.
@MainActor
public final class AppModel {
    /// The production graph, on the data directory the executable parsed from
    /// its arguments (`configure(dataDirectory:)`, before the first use), else
    /// the default one. Only the executable uses it; tests build their own with `assemble(_:)`.
    public static let shared = live(dataDirectory: configuredDataDirectory
        ?? DataDirectory.resolve(flag: nil, environment: ProcessInfo.processInfo.environment))
    private static var configuredDataDirectory: URL?

    /// Names the data directory `shared` is built on: the executable calls it
    /// once, with what it parsed from its command line, before anything uses `shared`.
    public static func configure(dataDirectory: URL) {
        configuredDataDirectory = dataDirectory
    }

    public let weightEntryFeature: WeightEntryFeature
    public let measurementsFeature: MeasurementsFeature
    public let progressFeature: ProgressFeature
    public let settingsFeature: SettingsFeature
    public let habitsFeature: HabitsFeature
    public let remindersFeature: RemindersFeature
    public let dailyTipsFeature: DailyTipsFeature
    public let backupFeature: BackupFeature
    public let weightImportFeature: WeightImportFeature
    public let exportsFeature: ExportsFeature
    public let changeHistoryFeature: ChangeHistoryFeature
    public let insightsFeature: InsightsFeature
    public let checkInFeature: CheckInFeature
    public let summaryFeature: SummaryFeature
    public let syncFeature: SyncFeature
    public let reportFeature: ReportFeature
    private var hasLaunched = false

    /// The version written into backups and shown by `--version`.
    nonisolated public static let version = "0.3.0"

    public init(weightEntryFeature: WeightEntryFeature, measurementsFeature: MeasurementsFeature, progressFeature: ProgressFeature,
                settingsFeature: SettingsFeature, habitsFeature: HabitsFeature, remindersFeature: RemindersFeature,
                dailyTipsFeature: DailyTipsFeature,
                backupFeature: BackupFeature, weightImportFeature: WeightImportFeature, exportsFeature: ExportsFeature,
                changeHistoryFeature: ChangeHistoryFeature, insightsFeature: InsightsFeature, checkInFeature: CheckInFeature,
                summaryFeature: SummaryFeature, syncFeature: SyncFeature, reportFeature: ReportFeature) {
        self.weightEntryFeature = weightEntryFeature
        self.measurementsFeature = measurementsFeature
        self.progressFeature = progressFeature
        self.settingsFeature = settingsFeature
        self.habitsFeature = habitsFeature
        self.remindersFeature = remindersFeature
        self.dailyTipsFeature = dailyTipsFeature
        self.backupFeature = backupFeature
        self.weightImportFeature = weightImportFeature
        self.exportsFeature = exportsFeature
        self.changeHistoryFeature = changeHistoryFeature
        self.insightsFeature = insightsFeature
        self.checkInFeature = checkInFeature
        self.summaryFeature = summaryFeature
        self.syncFeature = syncFeature
        self.reportFeature = reportFeature
    }

    /// The production graph: the real clock, calendar and seed, with data in
    /// `dataDirectory`. The one place that chooses them.
    public static func live(dataDirectory: URL) -> AppModel {
        assemble(.live(dataDirectory: dataDirectory))
    }

    /// Builds the graph from an environment, in one visible place. `live()`
    /// passes the real one; tests pass theirs and so run the same wiring.
    public static func assemble(_ environment: AppEnvironment) -> AppModel {
        let storage = environment.store
        let calendar = environment.calendar
        let currentDate = environment.currentDate
        let settings = UserSettingsStore(repository: environment.settingsRepository)
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
        let measurementsFeature = MeasurementsFeature(repository: weightRepository, settings: settings,
                                                      calendar: calendar, currentDate: currentDate)
        let settingsFeature = SettingsFeature(settings: settings, dataDirectory: environment.dataDirectory, currentDate: currentDate)
        let habitsFeature = HabitsFeature(storage: LocalHabitsRepository(store: storage), calendar: calendar,
                                          currentDate: currentDate, dayStartMinutes: { settingsFeature.current.dayStartMinutes },
                                          isWeightDatabase: WeightImportFeature.isWeightDatabase)
        // A habit's reminders reach the desktop through the environment's notification client; the watcher starts
        // with the session through its service manager.
        let remindersFeature = RemindersFeature(habitsFeature: habitsFeature, store: storage, notifications: environment.notifications,
                                                serviceManager: environment.serviceManager, executable: environment.executablePath)
        let dailyTipsFeature = DailyTipsFeature(
            repository: LocalTipDeckRepository(store: storage), catalogue: environment.tipCatalogue,
            calendar: calendar, currentDate: currentDate,
            // The deck of the day needs the weight log: the tip waits for it, so a reset day opens with a reset tip.
            checkInFacts: {
                try await weightEntryFeature.load()
                return CheckInFacts(weightEntryFeature.checkIn(), unit: weightEntryFeature.unit)
            },
            weekFigures: { days in
                try await weightEntryFeature.load()
                return WeekFigures(weight: weightEntryFeature.figures(from: days.lowerBound, through: days.upperBound),
                                   habits: try await habitsFeature.figures(from: days.lowerBound, through: days.upperBound),
                                   leanMassChangeKilograms: try await weightEntryFeature.leanMassChange(from: days.lowerBound, through: days.upperBound))
            },
            seed: environment.tipSeed
        )
        // The other devices' changes come in through the sync folder, a device-local setting; they may touch any table.
        // The backups are made after the sync (they tell it when this device leaves), so the sync reaches them through this.
        var backups: BackupFeature?
        let syncFeature = SyncFeature(
            storage: storage,
            // As the settings were last read: every command that reads shared data reads them first (`ReplSession`).
            folder: { settingsFeature.current.syncFolder },
            deviceName: { settingsFeature.current.deviceName ?? environment.hostName },
            currentDate: currentDate, timeZone: calendar.timeZone,
            // A folder gone private keeps no snapshot in plain: the backups' mirror there goes.
            movedIn: { await backups?.removePlainMirror() }
        ) {
            await refreshTravelling()
        }
        let backupFeature = BackupFeature(
            storage: storage, schema: .trend,
            files: RecoveryBackupFiles(folder: environment.dataDirectory.appendingPathComponent("Backups")),
            settings: settings, calendar: calendar, currentDate: currentDate, appVersion: environment.appVersion,
            debounce: environment.backupDebounce, sleep: environment.backupSleep,
            // Deleting all data on this device alone leaves the sync; everywhere, the others are told.
            acrossDevices: DeletionAcrossDevices(leave: {
                try await syncFeature.leave()
                try await settingsFeature.setSyncFolder(nil)
            }, announceDeletedEverywhere: { try await syncFeature.announceDeletedEverywhere() })
        ) {
            await refreshEverything()
        }
        backups = backupFeature
        let weightImportFeature = WeightImportFeature(
            weightLog: weightLog, repository: weightRepository, settings: settings, calendar: calendar,
            currentDate: currentDate, scratchFolder: environment.dataDirectory.appendingPathComponent(".import")
        ) {
            await weightEntryFeature.refresh()
            await measurementsFeature.reload()
        }
        let exportsFeature = ExportsFeature(weightLog: weightLog, repository: weightRepository, settings: settings, calendar: calendar,
                                            currentDate: currentDate)
        // An undo may touch any table: every Feature reads again, as after a restore.
        let changeHistoryFeature = ChangeHistoryFeature(storage: storage, calendar: calendar, currentDate: currentDate) {
            await refreshEverything()
        }
        // Insights own no table: they read the weigh-ins and habits as values; `habit show`'s report is kept in `meta`
        // while nothing changes.
        let keptInsights = KeptHabitInsights(store: storage)
        let moment = { KeptHabitInsights.Moment(day: weightEntryFeature.today, zone: calendar.timeZone.identifier) }
        let insightsFeature = InsightsFeature(
            input: { try await InsightsInput.read(weights: weightEntryFeature, habits: habitsFeature) },
            habitInput: { try await InsightsInput.read(weights: weightEntryFeature, habits: habitsFeature, onlyHabit: ($0, $1)) },
            kept: .init(read: { await keptInsights.read($0, at: moment()) },
                        keep: { await keptInsights.keep($1, for: $0, version: $2, at: moment()) }))
        // What `today` and `weigh` both show, assembled from the Features that own its parts.
        let summaryFeature = SummaryFeature(weightEntryFeature: weightEntryFeature, habitsFeature: habitsFeature,
                                            measurementsFeature: measurementsFeature)
        // The report: a typed value from the Features the screens use (DESIGN §10).
        let reportFeature = ReportFeature(progressFeature: progressFeature, weightEntryFeature: weightEntryFeature,
                                          measurementsFeature: measurementsFeature, habitsFeature: habitsFeature, summaryFeature: summaryFeature,
                                          insightsFeature: insightsFeature, settingsFeature: settingsFeature)
        let checkInFeature = CheckInFeature(weightEntryFeature: weightEntryFeature, dailyTipsFeature: dailyTipsFeature,
                                            measurementsFeature: measurementsFeature, insightsFeature: insightsFeature)
        // A sync touches only the tables that travel. The tip deck does not, and the tip of the day is made from
        // the weigh-ins whenever it is shown (`todaysTip`): made after a sync it read every weigh-in for nothing.
        @MainActor func refreshTravelling() async {
            await settingsFeature.reload()
            await weightEntryFeature.refresh()
            await measurementsFeature.reload()
            await habitsFeature.reload()
        }
        @MainActor func refreshEverything() async {
            await refreshTravelling()
            await dailyTipsFeature.refresh()
        }
        return AppModel(weightEntryFeature: weightEntryFeature, measurementsFeature: measurementsFeature, progressFeature: progressFeature,
                        settingsFeature: settingsFeature, habitsFeature: habitsFeature, remindersFeature: remindersFeature,
                        dailyTipsFeature: dailyTipsFeature, backupFeature: backupFeature,
                        weightImportFeature: weightImportFeature, exportsFeature: exportsFeature, changeHistoryFeature: changeHistoryFeature,
                        insightsFeature: insightsFeature, checkInFeature: checkInFeature, summaryFeature: summaryFeature,
                        syncFeature: syncFeature, reportFeature: reportFeature)
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
    /// another process may have written meanwhile. Returns when the Features
    /// have read again, so the command that follows sees fresh data.
    public func applicationDidBecomeActive() async {
        await syncFeature.syncIfOn()
        await weightEntryFeature.refresh()
        await habitsFeature.reload()
        await backupFeature.triggerDataBackupIfNeeded()
    }

    /// A command is about to run: the other devices' changes come in first, and this device's go out,
    /// so it reads one history. With no sync folder set it costs nothing.
    public func commandWillRun() async {
        await syncFeature.syncIfOn()
    }

    /// The process is about to exit: a change made in it gets its backup
    /// check now, then the database is closed (no `-wal` stays behind).
    /// Returns what the person should still hear (a failed snapshot).
    @discardableResult
    public func applicationWillTerminate() async -> [String] {
        // This run's changes go out to the other devices before it exits.
        await syncFeature.sendIfChanged()
        await backupFeature.flushPendingBackup()
        let warnings = await backupFeature.pendingWarnings()
        await backupFeature.closeStorage()
        return warnings
    }

    /// The local date changed (midnight, or a time-zone change). Returns when
    /// every Feature that depends on "today" has moved to the new day.
    public func applicationSignificantTimeChange() async {
        await habitsFeature.updateCurrentDay()
        await progressFeature.refresh()
        await dailyTipsFeature.refresh()
    }
}
