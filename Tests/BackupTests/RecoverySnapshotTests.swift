import AppCore
import Cryptography
import Foundation
@testable import Habits
import Settings
import Storage
import Testing
import TestSupport
import WeightLog
@testable import Backup

@Suite struct RecoverySnapshotTests {
    static let content = SnapshotContent.of(
        weights: [
            WeightEntry(id: "a", date: Date(timeIntervalSince1970: 1_700_000_000.5), kilograms: 80.123456789012,
                        note: "quote \" backslash \\ tab \t newline \n bell \u{7} ☃ 🏋️"),
            WeightEntry(id: "b", date: Date(timeIntervalSince1970: -2_000_000_000), kilograms: 20),
        ],
        habits: [HabitsTable.Row(id: "h", name: "Drink \"water\"", schedule: "daily", kind: "atLeast", target: 8.5,
                                 createdDay: 19_000, archived: true, position: 3)],
        habitRecords: [HabitsTable.RecordRow(habitID: "h", day: 19_001, status: "value", value: 7.25),
                       HabitsTable.RecordRow(habitID: "h", day: 19_002, status: "done", value: nil)],
        settings: [SettingsTable.Row(key: "unit", value: "lb")],
        tipDeck: "{\"seed\":1}"
    )

    @Test func aSnapshotReadsBackExactlyAsWritten() throws {
        let snapshot = try RecoverySnapshot(content: Self.content, createdAt: Date(timeIntervalSince1970: 1_800_000_000.25),
                                            installationID: "install", appVersion: "1.2.3")
        let data = snapshot.encoded()
        let back = try RecoverySnapshot.decode(data, name: "test", schema: .trend)
        #expect(back.content == Self.content)
        #expect(back.content.weights == Self.content.weights)
        #expect(back.content.habitRecords == Self.content.habitRecords)
        #expect(back.contentHash == snapshot.contentHash)
        #expect(back.installationID == "install" && back.appVersion == "1.2.3")
        #expect(abs(back.createdAt.timeIntervalSince1970 - 1_800_000_000.25) < 0.001)
        // The file is plain JSON any reader can parse.
        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }

    @Test func theHashChangesWithAnyValueAndIsAHexSHA256() throws {
        var weights = Self.content.weights
        weights[1].kilograms = 20.000000000001
        var changed = Self.content
        changed.set(WeightTable.Part(entries: weights), for: "weights")
        let original = try ContentHash.sha256(Self.content.canonical())
        #expect(original.count == 64 && original.allSatisfy(\.isHexDigit))
        #expect(try ContentHash.sha256(changed.canonical()) != original)
        #expect(try ContentHash.sha256(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The canonical encoding of the current format, byte for byte: snapshots
    /// are hashed over it, so a change here must come with a new formatVersion.
    @Test func theCanonicalEncodingIsPinnedByteForByte() throws {
        let text = String(decoding: Self.content.canonical(), as: UTF8.self)
        let expected = #"{"habitRecords":[{"day":19001,"habitID":"h","status":"value","value":7.25},{"day":19002,"habitID":"h","status":"done"}],"#
            + #""habits":[{"archived":true,"createdDay":19000,"id":"h","kind":"atLeast","name":"Drink \"water\"","position":3,"schedule":"daily","target":8.5}],"#
            + #""settings":[{"key":"unit","value":"lb"}],"tipDeck":"{\"seed\":1}","#
            + #""weights":[{"id":"a","instant":1700000000.5,"kilograms":80.123456789012,"note":"quote \" backslash \\ tab \t newline \n bell \u0007 ☃ 🏋️"},"#
            + #"{"id":"b","instant":-2000000000.0,"kilograms":20.0}]}"#
        #expect(text == expected)
        #expect(try ContentHash.sha256(Self.content.canonical()) == "9f551965b48cf06bc562e66d14d4b37a404117a248b5f8b532a45faf967c0cf6")
    }

    /// A file whose content another encoder wrote (integers without `.0`,
    /// keys spaced) verifies against the bytes it holds, and a changed byte
    /// is still caught.
    @Test func theHashIsCheckedOverTheContentAsWritten() throws {
        let content = #"{ "weights": [ {"id": "x", "instant": 1767597000, "kilograms": 80} ] }"#
        let hash = try ContentHash.sha256(Data(content.utf8))
        func file(_ content: String) -> Data {
            Data(#"{"appVersion":"9.9","content":\#(content),"contentHash":"\#(hash)","createdAt":"2026-01-01T00:00:00Z","formatVersion":1,"installationID":"i"}"#.utf8)
        }
        let snapshot = try RecoverySnapshot.decode(file(content), name: "other", schema: .trend)
        #expect(snapshot.content.weights.map(\.kilograms) == [80])
        #expect(throws: SnapshotError.hashMismatch("other")) {
            try RecoverySnapshot.decode(file(content.replacingOccurrences(of: "80", with: "81")), name: "other", schema: .trend)
        }
    }
}
