import Foundation
import Storage

/// The canonical text of a snapshot's content: keys sorted, no spaces,
/// numbers in Swift's shortest round-trip form, absent values left out.
/// The content hash is taken over this text, and snapshot files embed it,
/// so writing a million weigh-ins is one pass over the rows.
enum CanonicalJSON {
    static func encode(_ content: StoredContent) -> Data {
        var out = Output()
        out.bytes.reserveCapacity(content.weights.count * 96 + content.habitRecords.count * 64 + 1_024)
        out += "{\"habitRecords\":["
        for (index, record) in content.habitRecords.enumerated() {
            if index > 0 { out += "," }
            out += "{\"day\":\(record.day),\"habitID\":"
            string(record.habitID, into: &out)
            out += ",\"status\":"
            string(record.status, into: &out)
            if let value = record.value { out += ",\"value\":\(value)" }
            out += "}"
        }
        out += "],\"habits\":["
        for (index, habit) in content.habits.enumerated() {
            if index > 0 { out += "," }
            out += "{\"archived\":\(habit.archived),\"createdDay\":\(habit.createdDay),\"id\":"
            string(habit.id, into: &out)
            out += ",\"kind\":"
            string(habit.kind, into: &out)
            out += ",\"name\":"
            string(habit.name, into: &out)
            out += ",\"position\":\(habit.position),\"schedule\":"
            string(habit.schedule, into: &out)
            if let target = habit.target { out += ",\"target\":\(target)" }
            out += "}"
        }
        out += "],\"settings\":["
        for (index, setting) in content.settings.enumerated() {
            if index > 0 { out += "," }
            out += "{\"key\":"
            string(setting.key, into: &out)
            out += ",\"value\":"
            string(setting.value, into: &out)
            out += "}"
        }
        out += "]"
        if let tipDeck = content.tipDeck {
            out += ",\"tipDeck\":"
            string(tipDeck, into: &out)
        }
        out += ",\"weights\":["
        // The hot loop of a large snapshot: literals and numbers appended as bytes, no interpolation.
        for (index, weight) in content.weights.enumerated() {
            out += index > 0 ? ",{\"id\":" : "{\"id\":"
            string(weight.id, into: &out)
            out += ",\"instant\":"
            out.bytes.append(contentsOf: weight.instant.description.utf8)
            out += ",\"kilograms\":"
            out.bytes.append(contentsOf: weight.kilograms.description.utf8)
            if let note = weight.note {
                out += ",\"note\":"
                string(note, into: &out)
            }
            out.bytes.append(0x7D)
        }
        out += "]}"
        return Data(out.bytes)
    }

    /// Bytes appended in place; much quicker than growing a String.
    struct Output {
        var bytes: [UInt8] = []

        static func += (output: inout Output, text: String) {
            output.bytes.append(contentsOf: text.utf8)
        }
    }

    static func string(_ text: String, into out: inout Output) {
        var text = text
        string(&text, into: &out)
    }

    static func string(_ text: String, into out: inout String) {
        var output = Output()
        string(text, into: &output)
        out += String(decoding: output.bytes, as: UTF8.self)
    }

    private static func string(_ text: inout String, into out: inout Output) {
        out.bytes.append(0x22)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.bytes += [0x5C, 0x22]
            case 0x5C: out.bytes += [0x5C, 0x5C]
            case 0x0A: out.bytes += [0x5C, 0x6E]
            case 0x0D: out.bytes += [0x5C, 0x72]
            case 0x09: out.bytes += [0x5C, 0x74]
            case 0..<0x20: out += String(format: "\\u%04x", byte)
            default: out.bytes.append(byte)
            }
        }
        out.bytes.append(0x22)
    }
}
