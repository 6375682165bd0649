/// A UUID's text, written and recognised in one place (RFC 9562's `8-4-4-4-12` hex digits): the ids an import makes
/// (`EntryIDs`), the ids an export makes for rows that have none of that form, and the check of an id read.
public enum UUIDText {
    /// The 128 bits `high` then `low` as lowercase `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, written in place (an
    /// import makes a million: no array per id).
    public static func text(high: UInt64, low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 36) { bytes in
            var position = 0
            for index in 0..<32 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    bytes[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 16 ? high : low
                let digit = UInt8((word >> UInt64(60 - (index % 16) * 4)) & 0xF)
                bytes[position] = digit < 10 ? 0x30 + digit : 0x57 + digit
                position += 1
            }
            return 36
        }
    }

    /// Whether `id` is written as a UUID (hex digits of either case, hyphens where they go), which is what
    /// Foundation's `UUID(uuidString:)` accepts, without building one.
    public static func isUUID(_ id: String) -> Bool {
        var count = 0
        for byte in id.utf8 {
            let isHyphen = count == 8 || count == 13 || count == 18 || count == 23
            let isHex = (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
            guard isHyphen ? byte == UInt8(ascii: "-") : isHex else { return false }
            count += 1
        }
        return count == 36
    }
}
