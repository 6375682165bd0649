/// Backup: arrives with its issue; see DESIGN.md §1.
