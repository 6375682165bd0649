import Foundation

/// A JSON document with its keys in the order they were written, so every
/// run prints the same line. Unknown values are `null`; a non-finite number
/// becomes `null` rather than an invalid document.
public indirect enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case integer(Int)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (lhs: JSON, rhs: JSON) -> Bool { lhs.encoded() == rhs.encoded() }

    public static func optional(_ value: Double?) -> JSON { value.map(JSON.number) ?? .null }
    public static func optional(_ value: String?) -> JSON { value.map(JSON.string) ?? .null }
    public static func optional(_ value: Int?) -> JSON { value.map(JSON.integer) ?? .null }

    /// One line, no spaces.
    public func encoded() -> String {
        var output = ""
        write(to: &output)
        return output
    }

    /// An object whose last member, `key`, is an array written a piece at a time (a listing of a million rows holds
    /// one page): what goes before its elements and what after. The document is `opening`, the elements' encodings
    /// joined by commas, then `closing`; with no element, `JSON.object(members + [(key, .array([]))])`.
    public static func streamedArray(after members: [(String, JSON)], key: String) -> (opening: String, closing: String) {
        var opening = "{"
        for (key, value) in members {
            writeString(key, to: &opening)
            opening += ":"
            value.write(to: &opening)
            opening += ","
        }
        writeString(key, to: &opening)
        return (opening + ":[", "]}")
    }

    private func write(to output: inout String) {
        switch self {
        case .null:
            output += "null"
        case let .bool(value):
            output += value ? "true" : "false"
        case let .number(value):
            guard value.isFinite else { output += "null"; return }
            // Swift prints the shortest text that reads back as the same Double.
            output += value == value.rounded() && abs(value) < 1e15 ? String(format: "%.1f", value) : "\(value)"
        case let .integer(value):
            output += String(value)
        case let .string(value):
            Self.writeString(value, to: &output)
        case let .array(values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case let .object(pairs):
            output += "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F || (0x2028...0x2029).contains(control.value):
                output += String(format: "\\u%04x", control.value)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
