import Storage
import TextFormats
import WeightLog

/// One entry of a weight store (Trend's JSON export, the original app's store).
struct StoreEntry: Decodable, Equatable {
    var date: String?
    var id: String?
    var trendID: String?
    var kilograms: Double?
    /// The optional fields the entry carries (`WeightField.optional`, by their export keys).
    var fields = WeightField.blank

    init(date: String? = nil, id: String? = nil, trendID: String? = nil, kilograms: Double? = nil, note: String? = nil) {
        self.date = date
        self.id = id
        self.trendID = trendID
        self.kilograms = kilograms
        fields.note = note
    }

    init(from decoder: any Decoder) throws {
        // As `JSONDecoder` reads a plain struct: a value of the wrong type throws, a `null` reads as absent.
        let container = try decoder.container(keyedBy: SnapshotKey.self)
        date = try container.decodeIfPresent(String.self, forKey: SnapshotKey("date"))
        id = try container.decodeIfPresent(String.self, forKey: SnapshotKey("id"))
        trendID = try container.decodeIfPresent(String.self, forKey: SnapshotKey("trendID"))
        kilograms = try container.decodeIfPresent(Double.self, forKey: SnapshotKey("kilograms"))
        for field in WeightField.optional {
            field.set(&fields, try field.decodeIfPresent(from: container, key: field.exportKey) ?? .absent)
        }
    }

    /// A batch of entries (`FlatJSON`: nil when the batch is not of their usual shape).
    static func entries(_ bytes: UnsafeRawBufferPointer) -> [StoreEntry]? {
        FlatJSON.objects(bytes, make: { StoreEntry() }) { entry, key, value in
            // A value of the wrong type fails the batch, as it fails `JSONDecoder` (a `null` reads as absent, as there;
            // a member the entry does not have is passed over).
            switch (key, value) {
            case (_, .null): return true
            case ("date", .string(let text)): entry.date = text
            case ("id", .string(let text)): entry.id = text
            case ("trendID", .string(let text)): entry.trendID = text
            case ("kilograms", .number(let number)): entry.kilograms = number
            case ("date", _), ("id", _), ("trendID", _), ("kilograms", _): return false
            default:
                guard let place = WeightField.exportNamed[key] else { return true }
                guard let accepted = WeightField.all[place].accepts(value) else { return false }
                WeightField.all[place].set(&entry.fields, accepted)
            }
            return true
        }
    }
}
