import Foundation

extension LocalDays {
    /// The instant as `2026-01-04T07:30:00Z` or `…T08:30:00+01:00` in this
    /// zone: what ISO8601DateFormatter writes with `.withInternetDateTime`
    /// (seconds in the offset too, for the local mean time of old dates),
    /// without a formatter per date.
    public func internetDateTime(_ date: Date) -> String {
        let (day, secondOfDay, offset) = localParts(date)
        var text = DayNumber.string(day) + "T" + Self.two(secondOfDay / 3_600) + ":" + Self.two(secondOfDay / 60 % 60)
            + ":" + Self.two(secondOfDay % 60)
        if offset == 0 { return text + "Z" }
        let minutes = abs(offset) / 60
        text += (offset < 0 ? "-" : "+") + Self.two(minutes / 60) + ":" + Self.two(minutes % 60)
        if abs(offset) % 60 != 0 { text += ":" + Self.two(abs(offset) % 60) }
        return text
    }

    /// The local date and time to the minute, `2026-06-01 07:30`.
    public func localMinute(_ date: Date) -> String {
        let (day, secondOfDay, _) = localParts(date)
        return DayNumber.string(day) + " " + Self.two(secondOfDay / 3_600) + ":" + Self.two(secondOfDay / 60 % 60)
    }

    /// `Tue 5 Jan 07:12`: a moment as a person names it in a sentence.
    public func spokenMinute(_ date: Date) -> String {
        let (day, secondOfDay, _) = localParts(date)
        return DayNumber.spoken(day) + " " + Self.two(secondOfDay / 3_600) + ":" + Self.two(secondOfDay / 60 % 60)
    }

    /// The local day, the second of that day and the offset in force, for whole seconds.
    private func localParts(_ date: Date) -> (day: Int, secondOfDay: Int, offset: Int) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let offset = Int(offset(at: seconds))
        let local = Int(seconds) + offset
        let day = Int((Double(local) / 86_400).rounded(.down))
        return (day, local - day * 86_400, offset)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
}
