import Foundation
import Settings

/// The merge rule of DESIGN §8, written again from its words and nothing of
/// Sync's code: per row the change with the highest clock (ms, counter,
/// installation) wins; a tombstone wins over older versions only; a `+N`
/// newer than a row's latest version adds to it; a habit day shows only
/// while its habit does. It reads the segment files as JSON (Foundation's
/// parser, not the one Sync uses) and gives the rows every device must show.
enum ReferenceMerge {
    struct Version {
        let clock: (Int, Int, String)
        let op: String
        let image: [String: Any]
        let amount: Double

        func newer(than other: Version) -> Bool { clock > other.clock }
    }

    static func rows(from files: [String: Data]) throws -> [String] {
        var versions: [String: [String: [Version]]] = [:]   // table → key → versions
        var keyOf: [String: [String: [Any]]] = [:]
        for (path, data) in files where path.hasSuffix(".jsonl") {
            let lines = data.split(separator: 0x0A)
            for line in lines.dropFirst() {
                guard let object = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                      let table = object["t"] as? String, let ms = object["ms"] as? NSNumber, let n = object["n"] as? NSNumber,
                      let origin = object["o"] as? String, let op = object["op"] as? String else { continue }
                var image: [String: Any] = [:]
                for (name, value) in object where name.hasPrefix("c.") { image[String(name.dropFirst(2))] = value }
                let key = [object["k0"] as Any, object["k1"] as Any].filter { !($0 is NSNull) && "\($0)" != "nil" }
                let keyText = key.map { "\($0)" }.joined(separator: "|")
                versions[table, default: [:]][keyText, default: []].append(
                    Version(clock: (ms.intValue, n.intValue, origin), op: op, image: image, amount: (object["amount"] as? NSNumber)?.doubleValue ?? 0))
                keyOf[table, default: [:]][keyText] = key
            }
        }
        /// The latest set or delete, and the additions newer than it.
        func state(_ all: [Version]) -> (base: Version?, adds: [Version]) {
            let base = all.filter { $0.op != "add" }.max { $1.newer(than: $0) }
            let adds = all.filter { $0.op == "add" && (base.map($0.newer(than:)) ?? true) }
            var unique: [String: Version] = [:]
            for add in adds { unique["\(add.clock)"] = add }
            return (base, unique.values.sorted { $1.newer(than: $0) })
        }
        func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? 0 }
        func text(_ value: Any?) -> String { value.flatMap { $0 is NSNull ? nil : "\($0)" } ?? "-" }

        var rows: [String] = []
        for (_, all) in versions["weight_entries"] ?? [:] {
            guard let base = state(all).base, base.op == "set" else { continue }
            rows.append("w \(text(base.image["id"])) \(number(base.image["instant"])) \(number(base.image["kilograms"])) \(text(base.image["note"]))")
        }
        var habits: Set<String> = []
        for (_, all) in versions["habits"] ?? [:] {
            guard let base = state(all).base, base.op == "set" else { continue }
            habits.insert(text(base.image["id"]))
            rows.append("h \(text(base.image["id"])) \(text(base.image["name"]))")
        }
        for (_, all) in versions["habit_records"] ?? [:] {
            let (base, adds) = state(all)
            let added = adds.reduce(0) { $0 + $1.amount }
            var image: [String: Any]
            if let base, base.op == "set" {
                image = base.image
                if !adds.isEmpty { image["value"] = NSNumber(value: number(base.image["value"]) + added) }
            } else if let first = adds.first {
                image = first.image
                image["value"] = NSNumber(value: added)
            } else {
                continue
            }
            guard habits.contains(text(image["habit_id"])) else { continue }
            let value = image["value"].map { $0 is NSNull ? -1 : number($0) } ?? -1
            rows.append("r \(text(image["habit_id"])) \(Int(number(image["day"]))) \(text(image["status"])) \(value)")
        }
        for (_, all) in versions["settings"] ?? [:] {
            guard let base = state(all).base, base.op == "set", SettingsTable.portableKeys.contains(text(base.image["key"])) else { continue }
            rows.append("s \(text(base.image["key"])) \(text(base.image["value"]))")
        }
        return rows.sorted()
    }
}
