import CommandLanguage
import Foundation
import Habits
import Progress

/// The words of the progress screen: what each command takes, its help and how it completes.
extension ProgressViewModel {
    static var commands: [CommandSpec] {
        [
            CommandSpec(name: "progress", aliases: ["p", "chart"],
                        syntax: .sequence([.anyOrder([.range, .value(.measure, .words(ProgressMeasure.words), .progressMeasure)]),
                                           .optional(.sequence([.word("with"), .value(.markedHabit, .vocabulary("habits"), .habit(runsToEnd: true))]))]),
                        reads: .habitNames, readsWhenTyped: ["with": .habits],
                        summary: "the chart and numbers (RANGE: 2w 3m 1y all, 2026-02, 2025, START..END; kept); 'with HABIT' marks its days; "
                            + "MEASURE (fat, lean, fat-mass, waist, hips …) draws that instead of the weight",
                        examples: ["progress", "progress 6m", "progress all", "progress 3m with Gym", "progress 6m waist", "progress all fat"]) { context, arguments in
                try await ProgressViewModel(progressFeature: context.app.progressFeature, habitsFeature: context.app.habitsFeature,
                                            weightEntryFeature: context.app.weightEntryFeature, measurementsFeature: context.app.measurementsFeature)
                    .show(ChartRequest(arguments, command: "progress"), style: context.style)
            },
            CommandSpec(name: "goal", syntax: .optional(.choice([.value(.weight, .words([]), .weight()), .value(.clear, .words(["clear"]), .oneOf(["clear"], also: ["none"]))])),
                        summary: "show, set or clear the goal weight",
                        examples: ["goal", "goal 75", "goal 165 lb", "goal clear"]) { context, arguments in
                let change: ProgressViewModel.GoalChange = if let weight = arguments[.weight] {
                    .set(kilograms: weight.kilograms)
                } else if arguments[.clear] != nil { .clear } else { .none }
                return try await ProgressViewModel(progressFeature: context.app.progressFeature).goal(change)
            },
        ]
    }
}

/// `progress [RANGE] [MEASURE] [with HABIT]` (and an SVG export's words after its file), as the declaration read them.
struct ChartRequest {
    let range: NamedRange?
    let measure: ProgressMeasure?
    /// The habit whose done days the chart marks.
    let habit: Habit?

    init(_ arguments: ParsedArguments, command: String) throws {
        range = arguments[.range]
        measure = arguments[.measure]
        habit = arguments[.markedHabit]
        if measure != nil, habit != nil { throw CommandFailure(.usage, "\(command): 'with HABIT' marks the weight chart only") }
    }

    /// The habit's name and the days it was done, as the chart marks them.
    var marked: (name: String, days: Set<Int>)? { habit.map { ($0.name, $0.daysDoneAtAll) } }
}

extension ArgumentGrammar {
    /// What `progress` draws besides the weight (`fat`, `lean`, `waist` …).
    static let progressMeasure = ArgumentGrammar(noun: "a measure", forms: "MEASURE is \(ProgressMeasure.words.joined(separator: ", "))") { words, _, _ in
        guard let first = words.first, let measure = ProgressMeasure(word: first) else { return [] }
        return [ArgumentReading(.chartMeasure(measure), consumed: 1)]
    }

    /// A habit by its name, of any number of words: all the words left (`runsToEnd`), or the longest run of
    /// them that names a habit, else the first word (refused by the habits as unknown, with the names near it).
    static func habit(runsToEnd: Bool) -> ArgumentGrammar {
        ArgumentGrammar(noun: "a habit's name") { words, _, context in
            let habits = context.habits
            guard !runsToEnd else {
                return [ArgumentReading(.habit(try HabitsFeature.habit(named: words.joined(separator: " "), in: habits)), consumed: words.count)]
            }
            for length in stride(from: words.count, through: 1, by: -1) {
                // Only whether these words name a habit matters here; an unknown name is refused below.
                if let habit = try? HabitsFeature.habit(named: words.prefix(length).joined(separator: " "), in: habits) {
                    return [ArgumentReading(.habit(habit), consumed: length)]
                }
            }
            return [ArgumentReading(.habit(try HabitsFeature.habit(named: words[words.startIndex], in: habits)), consumed: 1)]
        }
    }
}

/// What the progress commands read, by key: what a chart draws besides the weight (`fat`, `waist`), the habit whose
/// days it marks (`with HABIT`), and `goal clear`.
extension ArgumentKey where Value == ProgressMeasure { static var measure: Self { .init("MEASURE") } }
extension ArgumentKey where Value == Habit { static var markedHabit: Self { .init("HABIT") } }
extension ArgumentKey where Value == String { static var clear: Self { .init("clear") } }
