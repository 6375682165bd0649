import Foundation
import Vocabulary

/// Reads the dates files carry: ISO 8601 with or without an offset
/// (`2026-06-01T07:30:00Z`, `…+02:00`, `…-0400`), `yyyy-MM-dd HH:mm[:ss]`,
/// the same on a 12-hour clock (`2016-05-31 6:36 AM`, Withings' older export),
/// `yyyy-MM-dd HH:mm:ss -0400` (Apple Health), `yyyy-MM-dd` (noon), the same
/// with dots or slashes (`2026.10.07`, Renpho Health) and Unix timestamps in
/// seconds or milliseconds (Zepp Life). A time
/// without an offset is local to the person's time zone. Parsed by hand, so
/// a million rows need no DateFormatter.
struct ImportDates {
    let localDays: LocalDays

    func parse(_ raw: String) -> Date? {
        var bytes = Array(raw.utf8)
        while bytes.last == 0x20 { bytes.removeLast() }
        if bytes.first == 0x20 { bytes = Array(bytes.drop { $0 == 0x20 }) }
        // A Unix timestamp (Zepp Life): seconds, or milliseconds with 13 digits.
        if (9...13).contains(bytes.count), bytes.allSatisfy({ (0x30...0x39).contains($0) }),
           let value = Double(String(decoding: bytes, as: UTF8.self)) {
            let seconds = bytes.count == 13 ? value / 1000 : value
            return bytes.count == 11 || bytes.count == 12 ? nil : Date(timeIntervalSince1970: seconds)
        }
        // Year first with dots or slashes (Renpho Health: 2026.10.07): the same date.
        if bytes.count >= 10, bytes[4] == bytes[7], bytes[4] == 0x2E || bytes[4] == 0x2F {
            bytes[4] = 0x2D
            bytes[7] = 0x2D
        }
        guard bytes.count >= 10, let year = number(bytes, 0, 4), bytes[4] == 0x2D, let month = number(bytes, 5, 2),
              bytes[7] == 0x2D, let day = number(bytes, 8, 2),
              (1900...2200).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day) else {
            return nil
        }
        let dayNumber = DayNumber.from(year: year, month: month, day: day)
        if bytes.count == 10 { return local(dayNumber, seconds: 12 * 3600) }
        // The hour in one digit or two (`6:36 AM`), then the minutes.
        let colon = bytes.count > 12 && bytes[12] == 0x3A ? 12 : 13
        guard bytes[10] == 0x54 || bytes[10] == 0x20, bytes.count >= colon + 3, let parsedHour = number(bytes, 11, colon - 11),
              bytes[colon] == 0x3A, let minute = number(bytes, colon + 1, 2), minute < 60 else { return nil }
        var hour = parsedHour
        var index = colon + 3
        var second = 0.0
        if index < bytes.count, bytes[index] == 0x3A {
            guard let whole = number(bytes, index + 1, 2), whole < 60 else { return nil }
            second = Double(whole)
            index += 3
            if index < bytes.count, bytes[index] == 0x2E || bytes[index] == 0x2C {
                var digits = 0.0, scale = 0.1
                index += 1
                while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                    digits += Double(bytes[index] - 0x30) * scale
                    scale /= 10
                    index += 1
                }
                second += digits
            }
        }
        while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        // A 12-hour clock: `12:34 AM` is 00:34, `12:05 PM` is 12:05.
        if index + 2 <= bytes.count, bytes[index + 1] | 0x20 == 0x6D, bytes[index] | 0x20 == 0x61 || bytes[index] | 0x20 == 0x70 {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (bytes[index] | 0x20 == 0x70 ? 12 : 0)
            index += 2
            while index < bytes.count, bytes[index] == 0x20 { index += 1 }
        }
        guard hour < 24 else { return nil }
        let seconds = Double(hour * 3600 + minute * 60) + second
        if index == bytes.count { return local(dayNumber, seconds: seconds) }
        // An offset: Z, ±HH:MM, ±HHMM or ±HH.
        let rest = Array(bytes[index...])
        if rest == [0x5A] || rest == [0x7A] { return utc(dayNumber, seconds: seconds, offset: 0) }
        guard rest.first == 0x2B || rest.first == 0x2D else { return nil }
        let sign = rest[0] == 0x2D ? -1 : 1
        let digits = rest.dropFirst().filter { $0 != 0x3A }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }),
              rest.dropFirst().count == digits.count || (rest.count == 6 && rest[3] == 0x3A) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let (offsetHours, offsetMinutes) = digits.count == 2 ? (value, 0) : (value / 100, value % 100)
        guard offsetHours <= 14, offsetMinutes < 60 else { return nil }
        return utc(dayNumber, seconds: seconds, offset: sign * (offsetHours * 3600 + offsetMinutes * 60))
    }

    private func local(_ day: Int, seconds: Double) -> Date {
        localDays.instant(localSeconds: Double(day) * 86_400 + seconds)
    }

    private func utc(_ day: Int, seconds: Double, offset: Int) -> Date {
        Date(timeIntervalSince1970: Double(day) * 86_400 + seconds - Double(offset))
    }

    private func number(_ bytes: [UInt8], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + length] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    private func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
