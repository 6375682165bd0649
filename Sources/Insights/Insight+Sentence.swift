import Vocabulary

extension Insight {
    /// The finding in one sentence, its sizes in `unit` to two decimals (insights are tenths of a kilogram, which one
    /// decimal would round away), with its 95 % interval and what it was counted over: what `insights`, the check-in's
    /// "New this week" and the report each say.
    public func sentence(unit: WeightUnit) -> String {
        func size(_ kilograms: Double) -> String { String(unit.formatChange(abs(kilograms), decimals: 2).dropFirst()) }
        let interval = "\(unit.formatChange(estimate.lower, decimals: 2)) to \(unit.formatChange(estimate.upper, decimals: 2))"
        let more = estimate.value >= 0 ? "more" : "less"
        let habit = self.habit ?? ""
        switch kind {
        case .nextMorning:
            return "On mornings after \(habit), you weighed \(size(estimate.value)) \(more) (\(interval); \(count) mornings against \(otherCount))."
        case .weekly:
            return "Weeks with \(habit) done to its quota drifted \(size(estimate.value)) a week \(estimate.value >= 0 ? "up" : "down") against the others "
                + "(\(interval); \(count) weeks against \(otherCount))."
        case .weekday:
            let days = Weekday.plurals[weekday ?? 0]
            return "\(days): \(size(estimate.value)) \(estimate.value >= 0 ? "above" : "below") the line through the days around them (\(interval); \(count) \(days))."
        case .timeOfDay:
            return "In the evening you weigh \(size(estimate.value)) \(more) than that morning (\(interval); \(count) days)."
        case .weekendBump:
            return "Friday to Monday you gain \(size(estimate.value)) \(more) than Monday to Thursday (\(interval); \(count) weekends)."
        }
    }
}
