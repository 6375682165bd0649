import Foundation
import Settings
import Vocabulary
import WeightLog

/// Libra's export (`#Version`, `#Units`, `;`-separated, the note column `comment`, or `log` from Libra 6),
/// and the midnight placeholders older Libra files carry.
extension WeightFileReader {
    func readLibra(_ data: Data) -> ReadOutcome {
        var outcome = ReadOutcome(format: .libra, unit: displayUnit, unitAssumed: true)
        outcome.handsOnBatches = false
        var columns = ["date", "weight", "weight trend", "body fat", "body fat trend", "comment"]
        // Libra quotes nothing and writes the log, its last column, as it was typed: split at most into as
        // many fields as there are columns, so a `;` in the log stays in it. A line at a time, so a long
        // file is never one string.
        func take(_ number: Int, _ line: Substring) {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            let fields = line.split(separator: ";", maxSplits: max(columns.count - 1, 0), omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let first = field(fields, 0)
            if first.hasPrefix("#") {
                let lower = first.lowercased()
                if lower.hasPrefix("#version:") {
                    outcome.version = "version " + first.dropFirst("#version:".count).trimmingCharacters(in: .whitespaces)
                } else if lower.hasPrefix("#units:") {
                    let word = String(first.dropFirst("#units:".count)).trimmingCharacters(in: .whitespaces)
                    if let unit = WeightUnit(word: word) { outcome.unit = unit; outcome.unitAssumed = false }
                } else if lower.hasPrefix("#date") {
                    columns = line.split(separator: ";", omittingEmptySubsequences: false)
                        .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "# ")).lowercased() }
                }
                return
            }
            let dateColumn = columns.firstIndex(of: "date") ?? 0
            let weightColumn = columns.firstIndex(of: "weight") ?? 1
            // Libra 6 renamed the note column `comment` to `log`.
            let noteColumn = columns.firstIndex(of: "comment") ?? columns.firstIndex(of: "log")
            let fatColumn = columns.firstIndex(of: "body fat")
            add(number, dateText: field(fields, dateColumn), weightText: field(fields, weightColumn),
                unit: outcome.unit, note: noteColumn.map { field(fields, $0) }, id: nil,
                bodyFat: fatColumn.map { .percent(field(fields, $0)) }, to: &outcome)
        }
        data.withUnsafeBytes { bytes in
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0, number = 1
            for index in start...bytes.count where index == bytes.count || bytes[index] == 0x0A {
                var end = index
                if end > start, bytes[end - 1] == 0x0D { end -= 1 }
                if end > start { take(number, Substring(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))) }
                start = index + 1
                number += 1
            }
        }
        dropMidnightPlaceholders(&outcome)
        return outcome
    }

    /// Older Libra files hold a weigh-in twice: a placeholder at midnight and the
    /// real one at its time, the same weight on the same day. The placeholder goes
    /// (counted as a duplicate, as the file's copy of a weigh-in); a midnight
    /// weigh-in with no twin stays.
    func dropMidnightPlaceholders(_ outcome: inout ReadOutcome) {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var local = utc
        local.timeZone = TimeZone(identifier: dates.localDays.timeZoneIdentifier) ?? utc.timeZone
        func isMidnight(_ date: Date) -> Bool {
            [utc, local].contains { calendar in
                let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
                return parts.hour == 0 && parts.minute == 0 && parts.second == 0
            }
        }
        // Timed weigh-ins by weight (grams) and UTC day: one look-up per midnight row, however long the file.
        func key(_ kilograms: Double, _ date: Date) -> String {
            "\(Int((kilograms * 1000).rounded()))#\(Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))"
        }
        let timed = outcome.weights.filter { !isMidnight($0.date) }
        guard timed.count < outcome.weights.count else { return }
        var times: [String: [Date]] = [:]
        for weight in timed { times[key(weight.kilograms, weight.date), default: []].append(weight.date) }
        let before = outcome.weights.count
        outcome.weights.removeAll { weight in
            guard isMidnight(weight.date) else { return false }
            return [weight.date, weight.date.addingTimeInterval(86_399)].contains { day in
                times[key(weight.kilograms, day)]?.contains { $0 > weight.date && $0.timeIntervalSince(weight.date) < 86_400 } == true
            }
        }
        outcome.repeated += before - outcome.weights.count
    }
}
