/// The SQL a replay runs against one journaled table: finding the row an
/// image names, checking it holds the image, and writing the other one.
extension JournaledTable {
    private func columns(of image: String) -> [String] { columns.indices.map { "j.\(image)\($0)" } }

    private func keyMatch(_ image: String) -> String {
        key.map { column in "t.\(column) IS j.\(image)\(columns.firstIndex(of: column)!)" }.joined(separator: " AND ")
    }

    /// `(id) = (SELECT a0 FROM journal_rows …)`: the row with the image's key, found through the table's key index.
    private func keyOf(_ image: String) -> String {
        let values = key.map { "\(image)\(columns.firstIndex(of: $0)!)" }.joined(separator: ", ")
        return "(\(key.joined(separator: ", "))) = (SELECT \(values) FROM journal_rows WHERE seq = ?1)"
    }

    /// How many rows hold the image (`wholeRow`), or share its key.
    func matchSQL(image: String, wholeRow: Bool) -> String {
        let match = wholeRow
            ? columns.indices.map { "t.\(columns[$0]) IS j.\(image)\($0)" }.joined(separator: " AND ")
            : keyMatch(image)
        return "SELECT count(*) FROM \(name) t, journal_rows j WHERE j.seq = ?1 AND \(match)"
    }

    /// How many rows hold the images of journal rows `?1…?2` (`wholeRow`), or share their keys.
    func matchRunSQL(image: String, wholeRow: Bool) -> String {
        matchSQL(image: image, wholeRow: wholeRow).replacingOccurrences(of: "j.seq = ?1", with: "j.seq BETWEEN ?1 AND ?2")
    }

    /// The images of journal rows `?1…?2`, inserted in the walk's order; rows
    /// that keep their rowid go in by it, low to high, so the table's tree
    /// grows at its end as when they were first written (a million rows put
    /// back highest rowid first took 4.9 s instead of 4.1).
    func insertRunSQL(image: String, descending: Bool) -> String {
        let byRowid = rowidSlot.map { "j.\(image)\($0), " } ?? ""
        return insertSQL(image: image).replacingOccurrences(
            of: "j.seq = ?1", with: "j.seq BETWEEN ?1 AND ?2 ORDER BY \(byRowid)j.seq \(descending ? "DESC" : "ASC")")
    }

    /// The rows with the keys of the images of journal rows `?1…?2`.
    func deleteRunSQL(image: String) -> String {
        let values = key.map { "\(image)\(columns.firstIndex(of: $0)!)" }.joined(separator: ", ")
        return "DELETE FROM \(name) WHERE (\(key.joined(separator: ", "))) IN (SELECT \(values) FROM journal_rows WHERE seq BETWEEN ?1 AND ?2)"
    }

    /// The image's row, at its old rowid where the image keeps one and no row holds it now.
    func insertSQL(image: String) -> String {
        guard let rowidSlot else {
            return "INSERT INTO \(name)(\(columns.joined(separator: ", "))) SELECT \(columns(of: image).joined(separator: ", ")) FROM journal_rows j WHERE j.seq = ?1"
        }
        let rowid = "j.\(image)\(rowidSlot)"
        let free = "CASE WHEN \(rowid) IS NULL OR EXISTS (SELECT 1 FROM \(name) held WHERE held.rowid = \(rowid)) THEN NULL ELSE \(rowid) END"
        return "INSERT INTO \(name)(rowid, \(columns.joined(separator: ", "))) SELECT \(free), \(columns(of: image).joined(separator: ", ")) FROM journal_rows j WHERE j.seq = ?1"
    }

    func deleteSQL(image: String) -> String {
        "DELETE FROM \(name) WHERE \(keyOf(image))"
    }

    func updateSQL(from old: String, to new: String) -> String {
        """
        UPDATE \(name) SET (\(columns.joined(separator: ", "))) = (SELECT \(columns(of: new).joined(separator: ", ")) FROM journal_rows j WHERE j.seq = ?1)
        WHERE \(keyOf(old))
        """
    }
}
