
import Foundation
import Vocabulary

/// Version-7 UUID strings for imported rows (RFC 9562: the weigh-in's
/// millisecond first, then random bits), without a system call per id: one
/// seed from the system generator, then SplitMix64. Ids only need to be
/// unique, not secret; Foundation's `UUID()` asks the kernel for every one.
/// Time first, a file read in date order adds its ids at the end of the
/// table's key index instead of all over it.
struct EntryIDs {
    private var generator: SplitMix64

    init() {
        var system = SystemRandomNumberGenerator()
        generator = SplitMix64(seed: system.next())
    }

    private mutating func nextWord() -> UInt64 { generator.next() }

    /// `tttttttt-tttt-7xxx-yxxx-xxxxxxxxxxxx`, lowercase: `t` the milliseconds of `date` since 1970 (0 before it).
    mutating func next(at date: Date) -> String {
        let milliseconds = UInt64(max(0, min(date.timeIntervalSince1970 * 1_000, Double(1 << 47))))
        var high = (milliseconds << 16) | (nextWord() & 0x0FFF), low = nextWord()
        high = (high & ~0xF000) | 0x7000
        low = (low & ~(0xC << 60)) | (0x8 << 60)
        return UUIDText.text(high: high, low: low)
    }
}
