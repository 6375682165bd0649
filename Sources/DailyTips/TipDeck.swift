import Settings

/// The state of the tip decks, saved after every draw so a restart neither
/// repeats nor skips. A deck's order for a cycle is a seeded shuffle, so
/// only the seed, the cycle and the position need keeping.
public struct TipDeckState: Sendable, Equatable, Codable {
    /// One deck's place: which shuffle (cycle) and how far into it.
    public struct Deck: Sendable, Equatable, Codable {
        public var cycle = 0
        public var position = 0
        /// The last tip dealt, so a reshuffle never opens with it.
        public var lastDealt: String?
    }

    public var seed: UInt64
    public var everyday = Deck()
    public var reset = Deck()
    /// The local day the current tip belongs to, and that tip.
    public var day: Int?
    public var tipID: String?
    public var tipIsReset = false

    public init(seed: UInt64) {
        self.seed = seed
    }
}

/// Deals tips from seeded, shuffled decks: every tip once per cycle, then a
/// fresh shuffle. Pure: the caller loads and saves the state.
public struct TipDeck: Sendable {
    public let catalogue: TipCatalogue

    public init(catalogue: TipCatalogue) {
        self.catalogue = catalogue
    }

    /// The tip of `day`: the one already drawn that day, or a new draw.
    /// A reset verdict replaces an everyday tip once with one from the reset deck.
    public func tip(for day: Int, needsReset: Bool, state: inout TipDeckState) -> Tip? {
        if state.day == day, let id = state.tipID, let tip = catalogue.tip(id: id), !(needsReset && !state.tipIsReset) {
            return tip
        }
        return draw(for: day, fromReset: needsReset, state: &state)
    }

    /// Another tip for `day` from the everyday deck; it becomes the day's tip.
    public func next(for day: Int, state: inout TipDeckState) -> Tip? {
        draw(for: day, fromReset: false, state: &state)
    }

    private func draw(for day: Int, fromReset: Bool, state: inout TipDeckState) -> Tip? {
        let ids = fromReset ? catalogue.resetIDs : catalogue.everydayIDs
        guard !ids.isEmpty else { return fromReset ? draw(for: day, fromReset: false, state: &state) : nil }
        var deck = fromReset ? state.reset : state.everyday
        if deck.position >= ids.count {
            deck.cycle += 1
            deck.position = 0
        }
        let order = Self.order(of: ids, seed: state.seed ^ (fromReset ? 0x5EED_5EED : 0), cycle: deck.cycle,
                               avoidingFirst: deck.position == 0 ? deck.lastDealt : nil)
        let id = order[deck.position]
        deck.position += 1
        deck.lastDealt = id
        if fromReset { state.reset = deck } else { state.everyday = deck }
        state.day = day
        state.tipID = id
        state.tipIsReset = fromReset
        return catalogue.tip(id: id)
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
