import Foundation
import Vocabulary

/// The decks tips are dealt from: a tip's category decides its deck.
public enum TipDeckKind: String, Sendable, Codable, CaseIterable {
    /// Every other day: at least 366 tips, so none repeats within a year.
    case everyday
    /// Plateau days (a `timeForReset` verdict), from the first tip of the day.
    case reset
    /// Days the trend is within `WeightGoal.atGoalKilograms` of the goal.
    case maintenance
}

/// One short, practical tip.
public struct Tip: Sendable, Equatable, Codable, Identifiable {
    /// What a tip is about. `reset` and `maintenance` tips make decks of
    /// their own; every other category belongs to the everyday deck.
    public enum Category: String, Sendable, Codable, CaseIterable {
        case nutrition, cooking, movement, sleep, mindset, measuring, stress, social, travel, habits
        case maintenance, reset

        public var deck: TipDeckKind {
            switch self {
            case .reset: .reset
            case .maintenance: .maintenance
            default: .everyday
            }
        }
    }

    /// Stable for good: a stored deck remembers tips by id, so an id is never given to another text.
    public let id: String
    public let category: Category
    public let text: String
    /// The catalogue edition that added the tip (1, the first, when absent).
    public let since: Int?
    /// The months (1–12) it belongs to, for a tip of one season ("the holidays" in November to January);
    /// every month when absent. Out of season it is not dealt.
    public let months: [Int]?

    public init(id: String, category: Category, text: String, since: Int? = nil, months: [Int]? = nil) {
        self.id = id
        self.category = category
        self.text = text
        self.since = since
        self.months = months
    }

    public var edition: Int { since ?? 1 }

    /// Tips of one category, numbered in order from `first`: the id is the category and the number in three
    /// digits (`reset-036`), so a text's id follows from where it stands and is never typed twice.
    static func numbered(_ category: Category, from first: Int = 1, since: Int? = nil, months: [Int]? = nil,
                         _ texts: [String]) -> [Tip] {
        texts.enumerated().map { offset, text in
            Tip(id: "\(category.rawValue)-\(zeroPadded(first + offset, digits: 3))", category: category, text: text, since: since, months: months)
        }
    }

    /// Whether it may be dealt in `month` (1–12).
    public func isInSeason(month: Int) -> Bool { months?.contains(month) ?? true }
}

/// What a pep talk celebrates. Each is raised once per occurrence (see `PepTalkRules`).
public enum PepTalkEvent: String, Sendable, Codable, CaseIterable {
    /// The trend at a new best (lowest; highest for a gain goal).
    case newBestTrend
    /// The first 1, 5 and 10 kg toward the goal (2, 10 and 20 lb for pounds and stones).
    case towardGoal1, towardGoal5, towardGoal10
    /// Weigh-in streaks.
    case streak7, streak30, streak100, streak365
    /// A weigh-in after 3 or more days away.
    case backAfterBreak
    /// The trend reached the goal.
    case goalReached
    /// A week (Monday to Sunday) in which every due habit was done.
    case habitWeek
}

/// A card dealt when something worth celebrating happened.
public struct PepTalk: Sendable, Equatable, Codable, Identifiable {
    public let id: String
    public let event: PepTalkEvent
    public let text: String

    /// Pep talks of one event, numbered in order from 1: `pep-newBestTrend-01`.
    static func numbered(_ event: PepTalkEvent, _ texts: [String]) -> [PepTalk] {
        texts.enumerated().map { offset, text in
            PepTalk(id: "pep-\(event.rawValue)-\(zeroPadded(offset + 1, digits: 2))", event: event, text: text)
        }
    }
}

/// `number` in at least `digits` digits, zeros in front.
private func zeroPadded(_ number: Int, digits: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// Why a catalogue file (an older version's, in tests) could not be read.
public enum TipCatalogueError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)

    public var description: String {
        switch self {
        case let .unreadable(reason): "the tip catalogue cannot be read (\(reason))"
        }
    }
}

/// A set of tips and pep talks; `shipped` is the one compiled into Trend.
public struct TipCatalogue: Sendable, Equatable {
    public let tips: [Tip]
    public let pepTalks: [PepTalk]
    private let byID: [String: Int]
    private let deckIDs: [TipDeckKind: [String]]
    private let eventIDs: [PepTalkEvent: [String]]

    public init(tips: [Tip], pepTalks: [PepTalk] = []) {
        self.tips = tips
        self.pepTalks = pepTalks
        byID = Dictionary(tips.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Sorted, so a seed means the same order everywhere.
        deckIDs = Dictionary(grouping: tips, by: \.category.deck).mapValues { $0.map(\.id).sorted() }
        eventIDs = Dictionary(grouping: pepTalks, by: \.event).mapValues { $0.map(\.id).sorted() }
    }

    public static func == (lhs: TipCatalogue, rhs: TipCatalogue) -> Bool {
        lhs.tips == rhs.tips && lhs.pepTalks == rhs.pepTalks
    }

    private struct File: Decodable {
        let tips: [Tip]
        let pepTalks: [PepTalk]?
    }

    /// Reads a catalogue file in the JSON form Trend 0.2 shipped (`{"tips": [...], "pepTalks": [...]}`).
    public static func decode(_ data: Data) throws -> TipCatalogue {
        do {
            let file = try JSONDecoder().decode(File.self, from: data)
            return TipCatalogue(tips: file.tips, pepTalks: file.pepTalks ?? [])
        } catch {
            throw TipCatalogueError.unreadable("\(error)")
        }
    }

    public func tip(id: String) -> Tip? { byID[id].map { tips[$0] } }

    public func pepTalk(id: String) -> PepTalk? { pepTalks.first { $0.id == id } }

    /// The ids a deck deals, sorted.
    public func ids(in deck: TipDeckKind) -> [String] { deckIDs[deck] ?? [] }

    /// Whether a tip may be dealt on `day` (a local day number): a tip of one season only in it.
    public func inSeason(onDay day: Int) -> (String) -> Bool {
        let month = DayNumber.civil(day).month
        return { [self] id in tip(id: id)?.isInSeason(month: month) ?? true }
    }

    /// The ids of the first edition's tips in a deck: what a deck state saved by Trend 0.2 counted positions in.
    func firstEditionIDs(in deck: TipDeckKind) -> [String] {
        ids(in: deck).filter { tip(id: $0)?.edition == 1 }
    }

    /// The pep talks for an event, sorted by id.
    public func ids(for event: PepTalkEvent) -> [String] { eventIDs[event] ?? [] }
}
