/// DailyTips owns the tip catalogue (a JSON resource), the shuffled deck and
/// its persisted state, and DailyTipsFeature: the tip of the day, `tip next`,
/// reset tips and Monday's week-ahead note. It imports Storage and Settings.
import Foundation

/// One short, practical tip.
public struct Tip: Sendable, Equatable, Codable, Identifiable {
    /// What a tip is about; `reset` tips are dealt on plateau days from a deck of their own.
    public enum Category: String, Sendable, Codable, CaseIterable {
        case nutrition, movement, sleep, mindset, measuring, reset
    }

    public let id: String
    public let category: Category
    public let text: String
}

/// Why the catalogue could not be used.
public enum TipCatalogueError: Error, Equatable, CustomStringConvertible {
    case missing
    case unreadable(String)

    public var description: String {
        switch self {
        case .missing: "the tip catalogue is missing from this installation; reinstall Trend"
        case let .unreadable(reason): "the tip catalogue cannot be read (\(reason)); reinstall Trend"
        }
    }
}

/// Every tip Trend ships, and the week-ahead notes for Mondays.
public struct TipCatalogue: Sendable, Equatable {
    public let tips: [Tip]
    public let weekAhead: [String]

    public init(tips: [Tip], weekAhead: [String]) {
        self.tips = tips
        self.weekAhead = weekAhead
    }

    private struct File: Decodable {
        let tips: [Tip]
        let weekAhead: [String]
    }

    /// The catalogue shipped as this target's resource.
    public static func bundled() throws -> TipCatalogue {
        guard let url = Bundle.module.url(forResource: "tips", withExtension: "json") else { throw TipCatalogueError.missing }
        do {
            return try decode(Data(contentsOf: url))
        } catch let error as TipCatalogueError {
            throw error
        } catch {
            throw TipCatalogueError.unreadable(error.localizedDescription)
        }
    }

    public static func decode(_ data: Data) throws -> TipCatalogue {
        do {
            let file = try JSONDecoder().decode(File.self, from: data)
            return TipCatalogue(tips: file.tips, weekAhead: file.weekAhead)
        } catch {
            throw TipCatalogueError.unreadable("\(error)")
        }
    }

    public func tip(id: String) -> Tip? { tips.first { $0.id == id } }

    /// The ids dealt by the everyday deck and by the reset deck, sorted so a seed means the same order everywhere.
    var everydayIDs: [String] { tips.filter { $0.category != .reset }.map(\.id).sorted() }
    var resetIDs: [String] { tips.filter { $0.category == .reset }.map(\.id).sorted() }
}
