import Foundation

/// A file in `Tests/Fixtures`, the compatibility fixtures that never change.
public func fixtureURL(_ name: String) -> URL {
    // This file is Tests/TestSupport/Fixtures.swift; the fixtures sit beside its folder.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
}
