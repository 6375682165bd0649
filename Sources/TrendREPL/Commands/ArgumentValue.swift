import Foundation
import Habits
import Progress
import Vocabulary
import WeightLog

/// Every kind of value a command's words are read into, typed: what `ParsedArguments` holds and a handler takes back
/// by its typed key (`arguments[.when]`, a `WhenInput?`; each screen declares its keys beside its commands).
/// A new kind of value is a case here.
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
    case schedule(HabitSchedule)
    case habitTarget(HabitKind, unit: String)
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
        case let .schedule(value): value as? Value
        case let .habitTarget(kind, unit): (kind: kind, unit: unit) as? Value
        case let .markValue(number, adding): (number: number, adding: adding) as? Value
        case let .times(value): value as? Value
        case let .editTarget(value): value as? Value
        case let .editAmount(value): value as? Value
        }
    }
}
