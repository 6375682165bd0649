import AppCore
import Foundation
import Storage

extension LocalDataStore {
    /// A store of `trend.sqlite` in `directory` with the whole schema, as the program opens it.
    public convenience init(directory: URL) {
        self.init(directory: directory, schema: .trend)
    }

    /// A private in-memory database with the whole schema.
    public static func inMemory() -> LocalDataStore {
        inMemory(schema: .trend)
    }
}
