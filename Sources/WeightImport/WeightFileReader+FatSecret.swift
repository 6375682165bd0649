import Foundation
import Vocabulary

/// FatSecret writes no weight file of its own: a person's weigh-ins come out
/// of its Platform API, `weights.get_month`, one month per response, as
/// scripts and API clients save them (astartsky/fatsecret-mcp's
/// `WeightMonthResponseSchema` and its tests): `{"month": {"day": […],
/// "from_date_int", "to_date_int"}}`, each day `date_int` (days since
/// 1970-01-01), `weight_kg` (or `weight_lbs`), `weight_comment`, values as
/// strings; a month of one weigh-in holds the day itself, not an array. A
/// file holds one response or an array of them.
extension WeightFileReader {
    /// The months of a saved `weights.get_month` response (or array of them); nil for any other JSON.
    static func fatSecretMonths(_ parsed: Any?) -> [[String: Any]]? {
        guard let parsed else { return nil }
        let responses = parsed as? [Any] ?? [parsed]
        let months = responses.compactMap { ($0 as? [String: Any])?["month"] as? [String: Any] }
        guard !months.isEmpty, months.count == responses.count else { return nil }
        return months
    }

    func readFatSecret(_ months: [[String: Any]]) -> ReadOutcome {
        var outcome = ReadOutcome(format: .fatSecret, unit: .kilograms, unitAssumed: false)
        var index = 0
        for month in months {
            let days = month["day"] as? [Any] ?? month["day"].map { [$0] } ?? []
            for item in days {
                index += 1
                // Days from 1900 to 2200: any other number is no date a weigh-in can have.
                guard let row = item as? [String: Any], let day = Self.decimal(row["date_int"]).flatMap(Int.init(exactly:)),
                      (-25_567...84_000).contains(day), let date = dates.parse(DayNumber.string(day)) else {
                    outcome.invalid.append(ImportProblem(line: index, reason: "day \(index) has no usable date_int"))
                    continue
                }
                let kilograms = Self.decimal(row["weight_kg"]) ?? Self.decimal(row["weight_lbs"]).map(WeightUnit.pounds.kilograms(from:))
                addKilograms(index, date: date, kilograms: kilograms, note: row["weight_comment"] as? String, id: nil, to: &outcome)
            }
        }
        return outcome
    }

    /// A number written as a JSON number or as a string of one (FatSecret writes strings).
    static func decimal(_ value: Any?) -> Double? {
        double(value) ?? (value as? String).flatMap(number)
    }
}
