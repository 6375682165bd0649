import Foundation
import Vocabulary

/// Something a person recorded with a moment, an amount in the unit they typed, and a note: a weigh-in or a tape
/// measure. `edit ID …` changes either by one rule (`ReadingEdit`).
protocol EditableReading {
    associatedtype Amount
    associatedtype Failure: Error
    var date: Date { get set }
    var note: String? { get set }
    /// The amount as typed: the value, and the unit it was typed in (nil: the person's unit).
    mutating func set(_ amount: Amount)
    func validate() throws(Failure)
}

extension WeightEntryFeature {
    /// What an edit does to a reading's note (a weigh-in's or a tape measure's).
    public enum NoteEdit: Sendable, Equatable {
        case set(String)
        case clear
    }
}

/// What `edit ID [AMOUNT] [at WHEN] [note TEXT | no note]` changes, each part only when given.
struct ReadingEdit<Amount> {
    var amount: Amount?
    var when: WhenInput?
    var note: WeightEntryFeature.NoteEdit?

    /// `reading` with the edit made: the amount replaced (with the unit it was typed in), the moment moved to the
    /// whole second `when` names now, the note set or cleared; then checked as a new one is.
    func applied<Reading: EditableReading>(to reading: Reading, now: Date, calendar: Calendar) throws -> Reading where Reading.Amount == Amount {
        var changed = reading
        if let amount { changed.set(amount) }
        // Whole seconds: what exports write and what duplicate checks compare.
        if let when { changed.date = try when.resolve(now: now, calendar: calendar).wholeSecond }
        switch note {
        case let .set(text)?: changed.note = try WeightNote.typed(text)
        case .clear?: changed.note = nil
        case nil: break
        }
        try changed.validate()
        return changed
    }
}

extension WeightEntry: EditableReading {
    mutating func set(_ amount: (kilograms: Double, unit: WeightUnit?)) {
        kilograms = amount.kilograms
        typedUnit = amount.unit
    }
}

extension BodyMeasurement: EditableReading {
    mutating func set(_ amount: (centimetres: Double, unit: LengthUnit?)) {
        centimetres = amount.centimetres
        typedUnit = amount.unit
    }
}
