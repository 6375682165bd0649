import Foundation
import Storage
import Testing
@testable import Backup

@Suite struct RecoverySnapshotTests {
    static let content = StoredContent(
        weights: [
            .init(id: "a", instant: 1_700_000_000.5, kilograms: 80.123456789012, note: "quote \" backslash \\ tab \t newline \n bell \u{7} ☃ 🏋️"),
            .init(id: "b", instant: -2_000_000_000, kilograms: 20, note: nil),
        ],
        habits: [.init(id: "h", name: "Drink \"water\"", schedule: "every day", kind: "atLeast", target: 8.5, createdDay: 19_000,
                       archived: true, position: 3)],
        habitRecords: [.init(habitID: "h", day: 19_001, status: "value", value: 7.25), .init(habitID: "h", day: 19_002, status: "done", value: nil)],
        settings: [.init(key: "unit", value: "lb")],
        tipDeck: "{\"seed\":1}"
    )

    @Test func aSnapshotReadsBackExactlyAsWritten() throws {
        let snapshot = RecoverySnapshot(content: Self.content, createdAt: Date(timeIntervalSince1970: 1_800_000_000.25),
                                        installationID: "install", appVersion: "1.2.3")
        let data = snapshot.encoded()
        let back = try RecoverySnapshot.decode(data, name: "test")
        #expect(back.content == Self.content)
        #expect(back.contentHash == snapshot.contentHash)
        #expect(back.installationID == "install" && back.appVersion == "1.2.3")
        #expect(abs(back.createdAt.timeIntervalSince1970 - 1_800_000_000.25) < 0.001)
        // The file is plain JSON any reader can parse.
        #expect(try JSONSerialization.jsonObject(with: data) is [String: Any])
    }

    @Test func theHashChangesWithAnyValueAndIsAHexSHA256() {
        var changed = Self.content
        changed.weights[1].kilograms = 20.000000000001
        let original = RecoverySnapshot.hash(of: Self.content)
        #expect(original.count == 64 && original.allSatisfy(\.isHexDigit))
        #expect(RecoverySnapshot.hash(of: changed) != original)
        #expect(ContentHash.sha256(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
