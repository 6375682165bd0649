import Foundation
import Testing
@testable import Backup

/// The snapshot's output thread: chunks arrive whole and in order, and the
/// first failure stops every later chunk and reaches the sender.
@Suite struct ChunkPipelineTests {
    final class Received: @unchecked Sendable {
        // @unchecked: written only on the pipeline's queue, read after `finish`.
        var bytes: [UInt8] = []
        var contentChunks = 0
    }

    @Test func chunksArriveWholeAndInOrder() throws {
        let received = Received()
        let pipeline = ChunkPipeline(depth: 2) { chunk, isContent in
            received.bytes += chunk
            if isContent { received.contentChunks += 1 }
        }
        var sent: [UInt8] = []
        for index in 0..<500 {
            var chunk = [UInt8](repeating: UInt8(index % 251), count: 1 + index % 97)
            chunk[0] = UInt8(index % 256)
            sent += chunk
            try chunk.withUnsafeBytes { try pipeline.send($0, isContent: index % 2 == 0) }
        }
        try pipeline.finish()
        #expect(received.bytes == sent)
        #expect(received.contentChunks == 250)
    }

    @Test func theFirstFailureStopsTheRestAndIsThrown() throws {
        struct Full: Error {}
        let received = Received()
        let pipeline = ChunkPipeline(depth: 4) { chunk, _ in
            if chunk.first == 7 { throw Full() }
            received.bytes += chunk
        }
        var thrownAt: Int?
        for index in 0..<200 {
            do {
                try [UInt8(index % 256)].withUnsafeBytes { try pipeline.send($0, isContent: true) }
            } catch is Full {
                thrownAt = index
                break
            }
        }
        #expect(throws: Full.self) { try pipeline.finish() }
        #expect(thrownAt != nil, "a later send throws the failure")
        #expect(received.bytes == Array(0..<7), "nothing after the failed chunk is consumed")
    }
}
