/// A report in a compact form of lines, to keep between runs and read back exactly (`KeptHabitInsights`): `JSONDecoder`'s
/// first use in a process costs more than the report it would read. Each line is a row of tab-separated fields
/// (`report`, then each test and each shortage); a number is written as Swift reads it back, bit for bit. What is read
/// back is untrusted: a line of any other shape, a field that does not read, gives nil.
extension InsightsReport {
    /// The report as lines.
    public var keptText: String {
        func field(_ value: Int?) -> String { value.map(String.init) ?? "" }
        var lines = ["report\t\(field(firstDay))\t\(lastDay)"]
        for test in tested {
            let estimate = test.estimate
            lines.append(["test", test.kind.rawValue, test.habit ?? "", field(test.weekday), "\(estimate.value)", "\(estimate.lower)",
                          "\(estimate.upper)", "\(estimate.pValue)", "\(test.count)", "\(test.otherCount)", test.reported ? "1" : "0"]
                .joined(separator: "\t"))
        }
        for shortage in shortages {
            lines.append(["short", shortage.kind.rawValue, shortage.habit ?? "", "\(shortage.have)", "\(shortage.need)", "\(shortage.with)",
                          "\(shortage.without)"].joined(separator: "\t"))
        }
        return lines.joined(separator: "\n")
    }

    /// The report `keptText` wrote; nil for anything else. A habit's name holds no tab or line break (names hold no
    /// control characters), and none is empty, so an empty field is no habit.
    public init?(keptText: some StringProtocol) {
        let rows = keptText.split(separator: "\n", omittingEmptySubsequences: false).map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        guard let head = rows.first, head.count == 3, head[0] == "report", let lastDay = Int(head[2]) else { return nil }
        let firstDay = head[1].isEmpty ? nil : Int(head[1])
        guard head[1].isEmpty || firstDay != nil else { return nil }
        var tested: [Insight] = [], shortages: [InsightShortage] = []
        for row in rows.dropFirst() {
            guard let kind = row.count > 1 ? Insight.Kind(rawValue: String(row[1])) : nil else { return nil }
            let habit = row[2].isEmpty ? nil : String(row[2])
            if row[0] == "test", row.count == 11, let value = Double(row[4]), let lower = Double(row[5]), let upper = Double(row[6]),
               let pValue = Double(row[7]), let count = Int(row[8]), let otherCount = Int(row[9]), row[10] == "0" || row[10] == "1",
               row[3].isEmpty || Int(row[3]) != nil {
                var insight = Insight(kind: kind, habit: habit, weekday: Int(row[3]),
                                      estimate: Statistics.Estimate(value: value, lower: lower, upper: upper, pValue: pValue),
                                      count: count, otherCount: otherCount)
                insight.reported = row[10] == "1"
                tested.append(insight)
            } else if row[0] == "short", row.count == 7, let have = Int(row[3]), let need = Int(row[4]), let with = Int(row[5]),
                      let without = Int(row[6]) {
                var shortage = InsightShortage(kind: kind, habit: habit, have: have, need: need)
                (shortage.with, shortage.without) = (with, without)
                shortages.append(shortage)
            } else {
                return nil
            }
        }
        self.init(firstDay: firstDay, lastDay: lastDay, tested: tested, shortages: shortages)
    }
}
