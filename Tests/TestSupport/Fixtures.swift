import Foundation

/// A file in `Tests/Fixtures`, the compatibility fixtures that never change.
public func fixtureURL(_ name: String, sourceFile: String = #filePath) -> URL {
    URL(fileURLWithPath: sourceFile).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
}
