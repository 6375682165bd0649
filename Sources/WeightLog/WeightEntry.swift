/// WeightLog owns weigh-ins: the entry type, their repository, the log with
/// undo, the daily values and trend they imply, the daily verdict and the
/// weigh-in streak, and the WeightEntryFeature that records them. It imports
/// Storage and Settings; never Progress or another feature target.
import Foundation

/// One weigh-in.
public struct WeightEntry: Sendable, Identifiable, Equatable, Hashable, Codable {
    /// A UUID string; the REPL accepts any unique prefix of it.
    public let id: String
    /// When the weight was taken.
    public var date: Date
    public var kilograms: Double
    public var note: String?

    public init(id: String = UUID().uuidString.lowercased(), date: Date, kilograms: Double, note: String? = nil) {
        self.id = id
        self.date = date
        self.kilograms = kilograms
        self.note = note
    }

    /// The id as shown to people: its first eight characters.
    public var shortID: String { String(id.prefix(8)) }
}
