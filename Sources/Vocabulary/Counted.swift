/// A count with its noun in agreement: `1 weigh-in`, `2 weigh-ins`, `1 new habit`, `3 changes`; `plural` for a
/// noun whose plural is not the singular and an `s`.
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
}
