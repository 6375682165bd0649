import Foundation
import Habits
import Progress
import Vocabulary
import WeightLog

/// Every kind of value a command's words are read into, typed: what `ParsedArguments` holds by placeholder and a
/// handler takes back by its type (`arguments.value("WHEN") as WhenInput?`). A new kind of value is a case here.
enum ArgumentValue {
    case text(String)
    case count(Int)
    case number(Double)
    case file(URL)
    case when(WhenInput)
    case range(NamedRange)
    case periods(ComparedPeriods)
    case weight(WeightInput.Reading)
    case measures(MeasureInput)
    case bodyMeasure(BodyMeasure)
    case chartMeasure(ProgressMeasure)
    case habit(Habit)
    case habitPlan(name: String, plan: HabitPlan)
    case habitEdit(HabitEdit)
    case markValue(number: Double, adding: Bool)
    case times([TimeOfDay])
    case editTarget(EditTarget)
    case editAmount(EditAmount)

    /// The value as `Value`, when it is one.
    func value<Value>(as type: Value.Type) -> Value? {
        switch self {
        case let .text(value): value as? Value
        case let .count(value): value as? Value
        case let .number(value): value as? Value
        case let .file(value): value as? Value
        case let .when(value): value as? Value
        case let .range(value): value as? Value
        case let .periods(value): value as? Value
        case let .weight(value): value as? Value
        case let .measures(value): value as? Value
        case let .bodyMeasure(value): value as? Value
        case let .chartMeasure(value): value as? Value
        case let .habit(value): value as? Value
        case let .habitPlan(name, plan): (name: name, plan: plan) as? Value
        case let .habitEdit(value): value as? Value
        case let .markValue(number, adding): (number: number, adding: adding) as? Value
        case let .times(value): value as? Value
        case let .editTarget(value): value as? Value
        case let .editAmount(value): value as? Value
        }
    }
}

/// Each kind of value read, as its grammar makes it: the overload chosen by the value's type.
extension ArgumentReading {
    init(_ text: String, consumed: Int) { self.init(ArgumentValue.text(text), consumed: consumed) }
    init(_ count: Int, consumed: Int) { self.init(ArgumentValue.count(count), consumed: consumed) }
    init(_ number: Double, consumed: Int) { self.init(ArgumentValue.number(number), consumed: consumed) }
    init(_ file: URL, consumed: Int) { self.init(ArgumentValue.file(file), consumed: consumed) }
    init(_ when: WhenInput, consumed: Int) { self.init(ArgumentValue.when(when), consumed: consumed) }
    init(_ range: NamedRange, consumed: Int) { self.init(ArgumentValue.range(range), consumed: consumed) }
    init(_ periods: ComparedPeriods, consumed: Int) { self.init(ArgumentValue.periods(periods), consumed: consumed) }
    init(_ weight: WeightInput.Reading, consumed: Int) { self.init(ArgumentValue.weight(weight), consumed: consumed) }
    init(_ measures: MeasureInput, consumed: Int) { self.init(ArgumentValue.measures(measures), consumed: consumed) }
    init(_ kind: BodyMeasure, consumed: Int) { self.init(ArgumentValue.bodyMeasure(kind), consumed: consumed) }
    init(_ measure: ProgressMeasure, consumed: Int) { self.init(ArgumentValue.chartMeasure(measure), consumed: consumed) }
    init(_ habit: Habit, consumed: Int) { self.init(ArgumentValue.habit(habit), consumed: consumed) }
    init(_ plan: (name: String, plan: HabitPlan), consumed: Int) { self.init(ArgumentValue.habitPlan(name: plan.name, plan: plan.plan), consumed: consumed) }
    init(_ edit: HabitEdit, consumed: Int) { self.init(ArgumentValue.habitEdit(edit), consumed: consumed) }
    init(_ mark: (number: Double, adding: Bool), consumed: Int) { self.init(ArgumentValue.markValue(number: mark.number, adding: mark.adding), consumed: consumed) }
    init(_ times: [TimeOfDay], consumed: Int) { self.init(ArgumentValue.times(times), consumed: consumed) }
    init(_ target: EditTarget, consumed: Int) { self.init(ArgumentValue.editTarget(target), consumed: consumed) }
    init(_ amount: EditAmount, consumed: Int) { self.init(ArgumentValue.editAmount(amount), consumed: consumed) }
}
