import Foundation
import Testing
@testable import Storage

/// A stage's thread (the snapshot's output, its weigh-ins' formatting):
/// items arrive whole and in order, and the first failure stops every later
/// item and reaches the sender.
@Suite struct BackgroundStageTests {
    final class Received: @unchecked Sendable {
        // @unchecked: written only on the stage's queue, read after `finish`.
        var bytes: [UInt8] = []
        var marked = 0
    }

    @Test func itemsArriveWholeAndInOrder() throws {
        let received = Received()
        let stage = BackgroundStage<(bytes: [UInt8], marked: Bool)>(depth: 2) { item in
            received.bytes += item.bytes
            if item.marked { received.marked += 1 }
        }
        var sent: [UInt8] = []
        for index in 0..<500 {
            var chunk = [UInt8](repeating: UInt8(index % 251), count: 1 + index % 97)
            chunk[0] = UInt8(index % 256)
            sent += chunk
            try stage.send((chunk, index % 2 == 0))
        }
        try stage.finish()
        #expect(received.bytes == sent)
        #expect(received.marked == 250)
    }

    @Test func theFirstFailureStopsTheRestAndIsThrown() throws {
        struct Full: Error {}
        let received = Received()
        let stage = BackgroundStage<UInt8>(depth: 4) { byte in
            if byte == 7 { throw Full() }
            received.bytes.append(byte)
        }
        var thrownAt: Int?
        for index in 0..<200 {
            do {
                try stage.send(UInt8(index % 256))
            } catch is Full {
                thrownAt = index
                break
            }
        }
        #expect(throws: Full.self) { try stage.finish() }
        #expect(thrownAt != nil, "a later send throws the failure")
        #expect(received.bytes == Array(0..<7), "nothing after the failed item is consumed")
    }
}
