import Vocabulary

/// The state of the tip decks, saved after every draw so a restart neither
/// repeats nor skips. A deck remembers the ids it has dealt in its current
/// cycle, so a catalogue that grows between versions keeps every stored
/// position valid: new tips join the cycle under way, and nothing repeats.
public struct TipDeckState: Sendable, Equatable, Codable {
    /// One deck's place: which shuffle (cycle) and what it has dealt.
    public struct Deck: Sendable, Equatable, Codable {
        public var cycle = 0
        /// The ids dealt in this cycle.
        public var dealt: [String] = []
        /// The last tip dealt, so a reshuffle never opens with it.
        public var lastDealt: String?
        /// How far a deck saved by Trend 0.2 had dealt (it kept a position,
        /// not ids); turned into `dealt` on the next draw.
        var legacyPosition: Int?

        public init() {}

        /// Written as the compiler writes them (in this order, a nil left out); read with every version's defaults.
        enum CodingKeys: String, CodingKey { case cycle, dealt, lastDealt, legacyPosition = "position" }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cycle = try container.decodeIfPresent(Int.self, forKey: .cycle) ?? 0
            lastDealt = try container.decodeIfPresent(String.self, forKey: .lastDealt)
            if let dealt = try container.decodeIfPresent([String].self, forKey: .dealt) {
                self.dealt = dealt
            } else {
                legacyPosition = try container.decodeIfPresent(Int.self, forKey: .legacyPosition).flatMap { $0 > 0 ? $0 : nil }
            }
        }
    }

    public var seed: UInt64
    public var everyday = Deck()
    public var reset = Deck()
    public var maintenance = Deck()
    /// Monday's suggestions: a deck of their own over the fitting deck's tips,
    /// so they never take a tip from the days ahead.
    public var weekAhead = Deck()
    /// One deck per pep-talk event, by the event's name.
    public var pepTalks: [String: Deck] = [:]
    /// The local day the current tip belongs to, that tip, and its deck.
    public var day: Int?
    public var tipID: String?
    public var tipDeck: TipDeckKind?
    /// The occurrences already celebrated (see `PepTalkRules`), newest last, at most `raisedLimit`.
    public var raised: [String] = []
    /// The Monday whose review has been shown.
    public var reviewDay: Int?
    /// The Monday of the last week whose habits were checked for a pep talk.
    public var habitWeekChecked: Int?

    public static let raisedLimit = 200

    public init(seed: UInt64) {
        self.seed = seed
    }

    enum CodingKeys: String, CodingKey {
        case seed, everyday, reset, maintenance, weekAhead, pepTalks, day, tipID, tipDeck, tipIsReset, raised, reviewDay, habitWeekChecked
    }

    /// Reads states written by every version: Trend 0.2 kept `tipIsReset` and positions.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        seed = try container.decode(UInt64.self, forKey: .seed)
        everyday = try container.decodeIfPresent(Deck.self, forKey: .everyday) ?? Deck()
        reset = try container.decodeIfPresent(Deck.self, forKey: .reset) ?? Deck()
        maintenance = try container.decodeIfPresent(Deck.self, forKey: .maintenance) ?? Deck()
        weekAhead = try container.decodeIfPresent(Deck.self, forKey: .weekAhead) ?? Deck()
        pepTalks = try container.decodeIfPresent([String: Deck].self, forKey: .pepTalks) ?? [:]
        day = try container.decodeIfPresent(Int.self, forKey: .day)
        tipID = try container.decodeIfPresent(String.self, forKey: .tipID)
        if let deck = try container.decodeIfPresent(TipDeckKind.self, forKey: .tipDeck) {
            tipDeck = deck
        } else if let isReset = try container.decodeIfPresent(Bool.self, forKey: .tipIsReset) {
            tipDeck = isReset ? .reset : .everyday
        }
        raised = try container.decodeIfPresent([String].self, forKey: .raised) ?? []
        reviewDay = try container.decodeIfPresent(Int.self, forKey: .reviewDay)
        habitWeekChecked = try container.decodeIfPresent(Int.self, forKey: .habitWeekChecked)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(seed, forKey: .seed)
        try container.encode(everyday, forKey: .everyday)
        try container.encode(reset, forKey: .reset)
        try container.encode(maintenance, forKey: .maintenance)
        try container.encode(weekAhead, forKey: .weekAhead)
        if !pepTalks.isEmpty { try container.encode(pepTalks, forKey: .pepTalks) }
        try container.encodeIfPresent(day, forKey: .day)
        try container.encodeIfPresent(tipID, forKey: .tipID)
        try container.encodeIfPresent(tipDeck, forKey: .tipDeck)
        if !raised.isEmpty { try container.encode(raised, forKey: .raised) }
        try container.encodeIfPresent(reviewDay, forKey: .reviewDay)
        try container.encodeIfPresent(habitWeekChecked, forKey: .habitWeekChecked)
    }

    subscript(deck: TipDeckKind) -> Deck {
        get {
            switch deck {
            case .everyday: everyday
            case .reset: reset
            case .maintenance: maintenance
            }
        }
        set {
            switch deck {
            case .everyday: everyday = newValue
            case .reset: reset = newValue
            case .maintenance: maintenance = newValue
            }
        }
    }

    /// Notes an occurrence as celebrated. Beyond the limit it forgets the
    /// oldest of those bound to one day or week (a past day cannot come back);
    /// once-ever milestones and streak runs are kept.
    mutating func raise(_ key: String) {
        raised.append(key)
        let passing = [PepTalkEvent.newBestTrend, .backAfterBreak, .habitWeek].map { $0.rawValue + "@" }
        while raised.count > Self.raisedLimit, let oldest = raised.firstIndex(where: { key in passing.contains { key.hasPrefix($0) } }) {
            raised.remove(at: oldest)
        }
    }
}

/// Deals tips and pep talks from seeded, shuffled decks: every card once per
/// cycle, then a fresh shuffle. Pure: the caller loads and saves the state.
public struct TipDeck: Sendable {
    public let catalogue: TipCatalogue

    public init(catalogue: TipCatalogue) {
        self.catalogue = catalogue
    }

    /// The tip of `day`: the one already drawn that day, or a new draw from
    /// `deck`. A reset or maintenance day replaces an everyday tip drawn
    /// earlier that day once (the weigh-in that made it such a day came later).
    public func tip(for day: Int, deck: TipDeckKind, state: inout TipDeckState) -> Tip? {
        if state.day == day, let id = state.tipID, let tip = catalogue.tip(id: id),
           state.tipDeck == deck || deck == .everyday || state.tipDeck != .everyday {
            return tip
        }
        guard let id = draw(from: deck, day: day, state: &state) ?? (deck == .everyday ? nil : draw(from: .everyday, day: day, state: &state)) else {
            return nil
        }
        state.day = day
        state.tipID = id
        state.tipDeck = deck
        return catalogue.tip(id: id)
    }

    /// Another tip from the deck of the day's tip (`deck` when none was
    /// drawn yet); the tip of the day stays. Repeated, it walks on through the deck.
    public func another(for day: Int, deck: TipDeckKind, state: inout TipDeckState) -> Tip? {
        let kind = state.day == day ? state.tipDeck ?? deck : deck
        return (draw(from: kind, day: day, state: &state) ?? draw(from: .everyday, day: day, state: &state)).flatMap(catalogue.tip(id:))
    }

    /// A suggestion for the week ahead from the tips of `deck`, dealt from a
    /// deck of its own so the tips of the days ahead stay as they are; never
    /// the tip of the day.
    public func suggestion(from deck: TipDeckKind, day: Int, state: inout TipDeckState) -> Tip? {
        let ids = catalogue.ids(in: deck).filter { $0 != state.tipID }
        var suggestions = state.weekAhead
        guard let id = Self.deal(ids, seed: state.seed ^ Self.salt("weekAhead"), deck: &suggestions, allowed: catalogue.inSeason(onDay: day))
        else { return nil }
        state.weekAhead = suggestions
        return catalogue.tip(id: id)
    }

    /// A pep talk for `event`, from that event's deck.
    public func pepTalk(for event: PepTalkEvent, state: inout TipDeckState) -> PepTalk? {
        let ids = catalogue.ids(for: event)
        var deck = state.pepTalks[event.rawValue] ?? TipDeckState.Deck()
        guard let id = Self.deal(ids, seed: state.seed ^ Self.salt(event.rawValue), deck: &deck) else { return nil }
        state.pepTalks[event.rawValue] = deck
        return catalogue.pepTalk(id: id)
    }

    /// The next tip of `kind`'s deck that may be dealt on `day`.
    private func draw(from kind: TipDeckKind, day: Int, state: inout TipDeckState) -> String? {
        var deck = state[kind]
        let seed = state.seed ^ Self.salt(kind)
        if let position = deck.legacyPosition {
            // Trend 0.2 counted a position in the shuffle of its own tips; those are the ones dealt.
            let legacy = Self.order(of: catalogue.firstEditionIDs(in: kind), seed: seed, cycle: deck.cycle, avoidingFirst: nil)
            deck.dealt = Array(legacy.prefix(position))
            deck.legacyPosition = nil
        }
        let id = Self.deal(catalogue.ids(in: kind), seed: seed, deck: &deck, allowed: catalogue.inSeason(onDay: day))
        state[kind] = deck
        return id
    }

    /// The next id of `ids` not yet dealt in the deck's cycle, starting a new cycle when all were.
    /// Only ids `allowed` are dealt (a tip of one season out of it): the shuffle is of every id, so the
    /// order of the others stays what it was.
    static func deal(_ ids: [String], seed: UInt64, deck: inout TipDeckState.Deck, allowed: (String) -> Bool = { _ in true }) -> String? {
        guard ids.contains(where: allowed) else { return nil }
        var dealt = Set(deck.dealt)
        if ids.allSatisfy({ dealt.contains($0) || !allowed($0) }) {
            deck.cycle += 1
            deck.dealt = []
            dealt = []
        }
        let order = order(of: ids, seed: seed, cycle: deck.cycle, avoidingFirst: deck.dealt.isEmpty ? deck.lastDealt : nil)
        guard let id = order.first(where: { !dealt.contains($0) && allowed($0) }) else { return nil }
        deck.dealt.append(id)
        deck.lastDealt = id
        return id
    }

    /// The seed's variation per deck; the everyday and reset values are those Trend 0.2 used.
    static func salt(_ kind: TipDeckKind) -> UInt64 {
        switch kind {
        case .everyday: 0
        case .reset: 0x5EED_5EED
        case .maintenance: 0x3A1E_7A1E
        }
    }

    /// A stable variation per pep-talk event (FNV-1a of its name).
    static func salt(_ name: String) -> UInt64 {
        name.utf8.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// A Fisher–Yates shuffle driven by SplitMix64 from the seed and cycle.
    static func order(of ids: [String], seed: UInt64, cycle: Int, avoidingFirst avoided: String?) -> [String] {
        var generator = SplitMix64(seed: seed &+ UInt64(truncatingIfNeeded: cycle) &* 0x9E37_79B9_7F4A_7C15)
        var order = ids
        if order.count > 1 {
            for index in stride(from: order.count - 1, to: 0, by: -1) {
                let other = Int(generator.next() % UInt64(index + 1))
                order.swapAt(index, other)
            }
            if order[0] == avoided { order.swapAt(0, 1) }
        }
        return order
    }
}
