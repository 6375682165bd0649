import Observation

/// `insights`: what a person's habits go with in their weight, and their
/// own patterns, said only when the statistics hold (`InsightsCalculator`).
/// It owns no table: AppCore passes the weigh-ins and habits in as values.
@MainActor
@Observable
public final class InsightsFeature {
    @ObservationIgnored private let input: @MainActor () async throws -> InsightsInput
    @ObservationIgnored private let habitInput: @MainActor (_ id: String?, _ name: String) async throws -> InsightsInput
    @ObservationIgnored private let kept: KeptReports?

    /// Where one habit's report is kept between runs while the data it was computed from stays as it was, as the
    /// habits' checkpoints are: `read` gives the report kept for the habit of that name (nil: none, or the data
    /// changed) and a version to keep a new one under, or nil when nothing can be kept; `keep` keeps it, unless the
    /// data changed since that version.
    public struct KeptReports {
        public let read: @MainActor (String) async -> (report: InsightsReport?, version: Int)?
        public let keep: @MainActor (String, InsightsReport, Int) async -> Void

        public init(read: @escaping @MainActor (String) async -> (report: InsightsReport?, version: Int)?,
                    keep: @escaping @MainActor (String, InsightsReport, Int) async -> Void) {
            (self.read, self.keep) = (read, keep)
        }
    }

    /// - Parameters:
    ///   - input: reads the weigh-ins and habits as they are now.
    ///   - habitInput: the same with only one habit (`habit show` reads no other habit's days): the one with the id
    ///     its owner knows it by, when the caller has it; otherwise the one of that name.
    ///   - kept: where `habit show`'s report is kept while nothing changes (nil: it is computed every time).
    public init(input: @escaping @MainActor () async throws -> InsightsInput,
                habitInput: (@MainActor (_ id: String?, _ name: String) async throws -> InsightsInput)? = nil, kept: KeptReports? = nil) {
        self.input = input
        self.kept = kept
        // Without a reader of one habit, the whole input with the others left out.
        self.habitInput = habitInput ?? { _, name in
            let all = try await input()
            return InsightsInput(weighIns: all.weighIns, habits: all.habits.filter { $0.name == name }, today: all.today)
        }
    }

    /// One habit's tests alone, their false-discovery rate controlled among them: what `habit show` says.
    /// Kept between runs while nothing changes (`KeptReports`). `id` is the habit's own, as the grammar found it:
    /// its days are read by it, never by the name again; nil for a caller holding only a name.
    public func report(forHabitWithID id: String?, named name: String) async throws -> InsightsReport {
        // The version is read before the data, so a report is never kept under a version older than what it read.
        let known = await kept?.read(name)
        if let report = known?.report { return report }
        let report = await Self.compute(try await habitInput(id, name), from: nil, through: nil, patterns: false)
        if let kept, let version = known?.version { await kept.keep(name, report, version) }
        return report
    }

    /// The same for a caller holding only a name (a test, a script's words).
    public func report(forHabitNamed name: String) async throws -> InsightsReport {
        try await report(forHabitWithID: nil, named: name)
    }

    /// The report over `firstDay...lastDay` (nil: all history up to today).
    public func report(from firstDay: Int? = nil, through lastDay: Int? = nil) async throws -> InsightsReport {
        await Self.compute(try await input(), from: firstDay, through: lastDay)
    }

    /// An association that holds now and did not a week ago (on the history up to then), habits
    /// first: what the Monday review may name. Nil when none became clear this week.
    public func newlyClear() async throws -> Insight? {
        let input = try await input()
        async let now = Self.compute(input, from: nil, through: nil)
        async let before = Self.compute(input, from: nil, through: input.today - 7)
        let (current, earlier) = await (now, before)
        func key(_ insight: Insight) -> String { "\(insight.kind)|\(insight.habit ?? "")|\(insight.weekday ?? -1)" }
        let known = Set(earlier.reported.map(key))
        let fresh = current.reported.filter { !known.contains(key($0)) }
        return fresh.first { $0.habit != nil } ?? fresh.first
    }

    /// Off the main actor: ten years of weigh-ins and twenty habits never hold up the prompt.
    nonisolated static func compute(_ input: InsightsInput, from firstDay: Int?, through lastDay: Int?, patterns: Bool = true) async -> InsightsReport {
        InsightsCalculator.report(input, from: firstDay, through: lastDay, patterns: patterns)
    }
}
