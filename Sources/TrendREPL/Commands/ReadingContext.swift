import Habits
import Vocabulary
import WeightLog

/// What a command reads, declared once (`CommandSpec.reads`): the session loads exactly that, once, before its
/// words are parsed, and parsing and the ViewModel then work on loaded values (DESIGN §1).
public struct CommandReads: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The weigh-ins (the check-in, the trend, the entries).
    public static let weighIns = CommandReads(rawValue: 1 << 0)
    /// The habits with their days.
    public static let habits = CommandReads(rawValue: 1 << 1)
    /// The tape measures.
    public static let measurements = CommandReads(rawValue: 1 << 2)
    /// The habits by name, without their days unless they are loaded already (a name in the words).
    public static let habitNames = CommandReads(rawValue: 1 << 3)
}

/// What parsing may know besides the words: values the session loaded at the command's boundary, never storage.
/// Every grammar reads from it synchronously.
@MainActor
public struct ReadingContext {
    /// The line as typed, for words whose quotes are content (a note).
    public var line = ""
    /// Today's local day, from the clock.
    public var today = 0
    /// The units a bare number is read in.
    public var weightUnit = WeightUnit.kilograms
    public var lengthUnit = LengthUnit.centimetres
    /// The habits, when the command reads them (`CommandReads.habits`), or their names (`habitNames`: without their days).
    public var habits: [Habit] = []
    /// The tape measures, when the command reads them (`CommandReads.measurements`).
    public var measurements: [BodyMeasurement] = []
    /// The trend now, when the command reads the weigh-ins (a slipped point's hint names the weight meant).
    public var trendKilograms: () -> Double? = { nil }

    public init() {}
}
