import Foundation
import Storage
import Testing
@testable import Sync
import Vocabulary

/// A row's digest is stored in `sync_rows` and compared with digests made
/// later (by older Trends too): it must stay the same function. The reference
/// here is the rule as first written: FNV-1a over a tag byte, a number's
/// `String(Double)` or a text's bytes, and 0xFF after each value.
@Suite struct SyncDigestTests {
    static func reference(_ values: [SQLValue]) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) { for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
        for value in values {
            switch value {
            case .null, .doubles: mix([0])
            case let .int(number): mix([1]); mix(String(Double(number)).utf8)
            case let .double(number): mix([1]); mix(String(number).utf8)
            case let .text(text): mix([2]); mix(text.utf8)
            }
            mix([0xFF])
        }
        return Int(bitPattern: UInt(hash))
    }

    @Test func theDigestIsTheRuleAsFirstWritten() {
        var random = SplitMix64(seed: 29)
        let fixed: [SQLValue] = [.int(0), .int(-7), .int(1_800_000_000_000), .int(Int(1e17)), .double(80.4), .double(-0.0), .double(0.1),
                                 .double(1e-7), .double(1e13), .double(123_456.789), .double(.infinity), .double(.nan),
                                 .double(1_796_255_838.528), .text(""), .text("naïve ✓"), .null]
        #expect(SyncLedger.digest(fixed) == Self.reference(fixed))
        for _ in 0..<2_000 {
            let row: [SQLValue] = [
                .double(Double(Int.random(in: 2_000...50_000, using: &random)) / 100),
                .double(Double.random(in: -1e9...1e12, using: &random)),
                .int(Int.random(in: Int.min...Int.max, using: &random)),
                .double(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))),
            ]
            #expect(SyncLedger.digest(row) == Self.reference(row), "\(row)")
        }
    }
}
