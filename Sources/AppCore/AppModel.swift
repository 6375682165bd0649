/// AppCore is the composition root: it imports every feature target, builds
/// the production graph in `AppModel.live()`, and forwards the application's
/// lifecycle to the Features. Nothing below it may import it.
import Foundation
import Observation
import Settings
import Storage

/// The catalogue of what Trend can do: one property per Feature.
@MainActor
public final class AppModel {
    /// The production graph. Only the REPL's entry points use it; tests build their own.
    public static let shared = live()

    public let settingsFeature: SettingsFeature
    private var hasLaunched = false

    public init(settingsFeature: SettingsFeature) {
        self.settingsFeature = settingsFeature
    }

    /// Builds the real graph in one visible place.
    public static func live() -> AppModel {
        // A function rather than a stored Date keeps production time moving
        // while tests pass a fixed clock.
        let currentDate: @MainActor () -> Date = { .now }
        _ = currentDate
        let directory = DataDirectory.resolve(environment: ProcessInfo.processInfo.environment)
        let storage = LocalDataStore(directory: directory)
        let settings = UserSettingsStore(repository: LocalSettingsRepository(store: storage))

        let settingsFeature = SettingsFeature(settings: settings, dataDirectory: directory)
        return AppModel(settingsFeature: settingsFeature)
    }

    /// Starts each Feature's independent launch work once. Awaits nothing.
    public func applicationDidFinishLaunching() {
        guard !hasLaunched else { return }
        hasLaunched = true
        settingsFeature.startLoading()
    }

    /// The process was resumed, or a command arrived after a long idle time.
    public func applicationDidBecomeActive() {
        settingsFeature.startLoading()
    }

    /// The local date changed (midnight, or a time-zone change).
    public func applicationSignificantTimeChange() {
    }
}
