import Foundation
import Storage

/// What a merge added.
public struct MergeCounts: Sendable, Equatable {
    public var weights = 0
    public var duplicateWeights = 0
    public var habits = 0
    public var habitDays = 0
}

/// An additive merge of another snapshot into the current content: nothing
/// local is changed or removed. A weigh-in is a duplicate when it has the
/// same id, or the same second and the same weight to 4 decimals. Habits are
/// matched by name (ignoring case); days the local habit already has are kept.
enum SnapshotMerge {
    static func additions(from incoming: StoredContent, into current: StoredContent) -> (StoredContent, MergeCounts) {
        var counts = MergeCounts()
        var additions = StoredContent()
        var ids = Set(current.weights.map(\.id))
        var moments = Set(current.weights.map(moment))
        for weight in incoming.weights {
            if ids.contains(weight.id) || moments.contains(moment(weight)) {
                counts.duplicateWeights += 1
                continue
            }
            ids.insert(weight.id)
            moments.insert(moment(weight))
            additions.weights.append(weight)
        }

        var localByName = Dictionary(current.habits.map { ($0.name.lowercased(), $0.id) }, uniquingKeysWith: { first, _ in first })
        let habitIDs = Set(current.habits.map(\.id))
        var position = (current.habits.map(\.position).max() ?? 0) + 1
        var idMap: [String: String] = [:]
        for habit in incoming.habits {
            if let local = localByName[habit.name.lowercased()] {
                idMap[habit.id] = local
                continue
            }
            var added = habit
            if habitIDs.contains(added.id) { added.id = UUID().uuidString.lowercased() }
            added.position = position
            position += 1
            idMap[habit.id] = added.id
            localByName[habit.name.lowercased()] = added.id
            additions.habits.append(added)
            counts.habits += 1
        }
        var days = Set(current.habitRecords.map { "\($0.habitID)#\($0.day)" })
        for record in incoming.habitRecords {
            guard let local = idMap[record.habitID], days.insert("\(local)#\(record.day)").inserted else { continue }
            var added = record
            added.habitID = local
            additions.habitRecords.append(added)
            counts.habitDays += 1
        }
        counts.weights = additions.weights.count
        return (additions, counts)
    }

    /// The second and the weight to 4 decimals: two records of one weigh-in.
    static func moment(_ weight: StoredContent.Weight) -> String {
        "\(Int64(weight.instant.rounded(.down)))#\(Int64((weight.kilograms * 10_000).rounded()))"
    }
}
