import Foundation
import Storage

extension SyncLedger {
    /// A row as the merge sees it (DESIGN §8): each column's value with its own clock, the row's tombstone,
    /// and for a table that adds up, the additive column's value before the `+N` changes that add to it.
    ///
    /// Joining a change takes, for each column it carries, its value where its clock is newer, and the newer
    /// tombstone: a join in any order, any number of times, gives the same state (a join semilattice, as
    /// cr-sqlite's per-column last-writer-wins registers). The row shows while a column is newer than its
    /// tombstone, or an addition is.
    struct RowState: Equatable {
        /// The columns with a version, each with its value (the additive column's: as set, before any addition).
        var values = RowImage()
        var clocks: [String: SyncClock] = [:]
        var tombstone: SyncClock?

        init() {}

        /// The state a row's versions (`known`) and its image here (`current`: the table's row, or the one parked for
        /// its parent) give; `added`, the additions kept for it, which the table's additive column holds on top of its set value.
        init(known: Known?, current: RowImage?, additive: String?, added: Double) {
            self.init()
            guard let known else {
                if let current { take(current, clock: .zero, additive: additive, added: added) }
                return
            }
            if known.deleted {
                tombstone = known.clock
                values = known.image ?? RowImage()
                for column in values.columns { clocks[column] = known.columns[column] ?? .zero }
                return
            }
            if let current { take(current, clock: known.clock, additive: additive, added: added) }
            for (column, clock) in known.columns.byColumn {
                if column == ColumnClocks.tombstone { tombstone = clock } else if clocks[column] != nil { clocks[column] = clock }
            }
        }

        /// Every column of `image` at `clock`, the additive one less what was added to it.
        private mutating func take(_ image: RowImage, clock: SyncClock, additive: String?, added: Double) {
            values = image
            for column in image.columns { clocks[column] = clock }
            if let additive, added != 0, image[additive] != nil { values[additive] = .double(SyncLedger.number(image[additive]) - added) }
        }

        /// The newest of the columns' clocks.
        var newest: SyncClock? { clocks.values.max() }

        /// Whether a column is newer than the tombstone (additions aside).
        var showsByColumns: Bool {
            guard let newest else { return false }
            return tombstone.map { newest > $0 } ?? true
        }

        /// Whether the additive column's set value still counts: newer than the tombstone (a cleared day added to starts from nothing).
        func counts(_ column: String) -> Bool {
            guard let clock = clocks[column] else { return false }
            return tombstone.map { clock > $0 } ?? true
        }

        /// The clock below which an addition no longer adds: the additive column's set, or the tombstone.
        func additionFloor(_ additive: String) -> SyncClock {
            max(clocks[additive] ?? .zero, tombstone ?? .zero)
        }

        /// Joins one version of `column`; true when it was newer.
        @discardableResult
        mutating func join(_ column: String, _ value: SQLValue, at clock: SyncClock) -> Bool {
            if let held = clocks[column], held >= clock { return false }
            values[column] = value
            clocks[column] = clock
            return true
        }

        /// Joins a change: its columns at their clocks (an addition's additive column aside: it adds, it does not set),
        /// and its tombstone. True when anything was newer.
        @discardableResult
        mutating func join(_ change: SyncChange, additive: String?) -> Bool {
            var changed = false
            let image = change.image
            var isAdd = false
            if case .add = change.operation { isAdd = true }
            for (place, column) in image.columns.enumerated() where !(isAdd && column == additive) {
                if join(column, image.values[place], at: change.clock(of: column)) { changed = true }
            }
            let dead = change.isDelete ? change.clock : change.older[ColumnClocks.tombstone]
            if let dead, tombstone.map({ dead > $0 }) ?? true {
                tombstone = dead
                changed = true
            }
            return changed
        }

        /// The versions `sync_rows` keeps of this state: shown, its newest clock and the others (and an older tombstone);
        /// deleted, its tombstone with every column's clock and its last image.
        func known(shown: Bool, columns all: [String]) -> Known {
            if shown, let newest {
                var older = ColumnClocks()
                for column in all where clocks[column] != newest { older[column] = clocks[column] ?? .zero }
                if let tombstone { older[ColumnClocks.tombstone] = tombstone }
                return Known(clock: newest, deleted: false, digest: nil, columns: older)
            }
            var older = ColumnClocks()
            for (column, clock) in clocks { older[column] = clock }
            return Known(clock: tombstone ?? newest ?? .zero, deleted: true, digest: nil, columns: older, image: values.isEmpty ? nil : values)
        }

        /// The change that carries this state at `clock`: a set while shown (its additive column as set), else a tombstone
        /// with its last image; an addition of `amount` when `adding`.
        func change(table: String, key: Key, clock: SyncClock, shown: Bool, adding amount: Double? = nil, additive: String? = nil) -> SyncChange {
            var older = ColumnClocks()
            for (column, columnClock) in clocks where columnClock != clock {
                if amount != nil, column == additive { continue }  // An addition adds to the column; it carries no version of it.
                older[column] = columnClock
            }
            if shown, let tombstone, tombstone < clock { older[ColumnClocks.tombstone] = tombstone }
            let operation: SyncChange.Operation
            if let amount { operation = .add(amount, values) } else if shown { operation = .set(values) } else { operation = .delete(values) }
            return SyncChange(table: table, key: key, clock: clock, operation: operation, older: older)
        }
    }

    static func number(_ value: SQLValue?) -> Double {
        switch value {
        case let .int(number)?: Double(number)
        case let .double(number)?: number
        default: 0
        }
    }
}
