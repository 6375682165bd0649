import Storage

/// One entry of a weight store (Trend's JSON export, the original app's store).
struct StoreEntry: Decodable, Equatable {
    var date: String?
    var id: String?
    var trendID: String?
    var kilograms: Double?
    var note: String?
    var bodyFatPercent: Double?

    /// A batch of entries (`FlatJSON`: nil when the batch is not of their usual shape).
    static func entries(_ bytes: UnsafeRawBufferPointer) -> [StoreEntry]? {
        FlatJSON.objects(bytes, make: StoreEntry.init) { entry, key, value in
            // A value of the wrong type fails the batch, as it fails `JSONDecoder` (a `null` reads as absent, as there;
            // a member the entry does not have is passed over).
            switch (key, value) {
            case (_, .null): return true
            case ("date", .string(let text)): entry.date = text
            case ("id", .string(let text)): entry.id = text
            case ("trendID", .string(let text)): entry.trendID = text
            case ("note", .string(let text)): entry.note = text
            case ("kilograms", .number(let number)): entry.kilograms = number
            case ("bodyFatPercent", .number(let number)): entry.bodyFatPercent = number
            case ("date", _), ("id", _), ("trendID", _), ("note", _), ("kilograms", _), ("bodyFatPercent", _): return false
            default: return true
            }
            return true
        }
    }
}
