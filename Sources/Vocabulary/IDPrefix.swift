import Foundation

/// The start of an id as typed (`edit d7e3 82.1`, `delete #d7e3`, `restore sync 3f2a`): at least four characters,
/// any case, an optional `#`; or `last`/`latest` for the newest. The one rule for naming a thing by its id.
public struct IDPrefix: Sendable, Equatable {
    /// In lower case, the `#` gone.
    public let text: String

    /// The fewest characters that name an id.
    public static let minimumLength = 4

    public init(_ typed: String) {
        text = typed.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "#"))
    }

    /// `last` or `latest`: the newest (ids are hexadecimal, so no id reads so).
    public var meansLatest: Bool { ["last", "latest"].contains(text) }

    /// Long enough to name an id.
    public var isLongEnough: Bool { text.count >= Self.minimumLength }

    /// Whether `id` starts with it (never for one too short).
    public func matches(_ id: String) -> Bool { isLongEnough && id.hasPrefix(text) }

    /// The prefixes that name `id` and `other` apart: eight characters, or as many more as they share.
    public static func telling(_ id: String, from other: String) -> (String, String) {
        let shared = zip(id, other).prefix { $0 == $1 }.count
        let length = max(8, shared + 1)
        return (String(id.prefix(length)), String(other.prefix(length)))
    }
}
