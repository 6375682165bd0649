import Foundation

/// The empty file `<sync folder>/trend/private` that a private sync folder holds (DESIGN §11): a device that is not a
/// member, and the snapshot mirror, see at once that nothing may be written there in plain. Who belongs to the folder
/// is its members' statements' to say, never this file's.
public enum PrivateSyncMarker {
    public static let name = "private"

    /// Whether the sync folder is marked private.
    public static func isPrivate(_ syncFolder: URL) -> Bool {
        (try? SafeFolder.open(syncFolder, ["trend"]))?.entry(name) == .file  // No `trend/` folder: not private.
    }
}
