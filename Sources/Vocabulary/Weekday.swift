/// The days of the week, named once, Monday first (0 Monday … 6 Sunday, as `DayNumber.weekdayFromMonday` counts):
/// as the screens show them, as a habit's schedule stores them, and as a person types them.
public enum Weekday {
    /// `Monday` … `Sunday`.
    public static let names = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// `Mon` … `Sun`: the screens' dates, and (lowercased) a habit's stored schedule (`weekdays:mon,wed,fri`).
    public static let shortNames = names.map { String($0.prefix(3)) }
    /// `Mondays` … `Sundays`: a weekday as a habit of the week is named.
    public static let plurals = names.map { $0 + "s" }

    /// The weekday a typed word names, in any case: its name or the first three letters or more of it (`mon`, `tues`,
    /// `thurs`, `friday`); nil for any other word.
    public static func index(of word: String) -> Int? {
        let typed = word.lowercased()
        guard typed.count >= 3 else { return nil }
        return names.firstIndex { $0.lowercased().hasPrefix(typed) }
    }
}
