import Foundation

/// A system library opened when first needed (`dlopen`), so start-up never loads it or what it
/// links: libarchive for zip archives, libxml2 (and its ICU) for XML.
struct DynamicLibrary {
    private let handle: UnsafeMutableRawPointer

    /// What `resolve` makes of the first of `names` that opens and holds every symbol it asks for; nil when none does.
    static func first<Functions>(of names: [String], _ resolve: (DynamicLibrary) -> Functions?) -> Functions? {
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let functions = resolve(DynamicLibrary(handle: handle)) { return functions }
        }
        return nil
    }

    /// The function `name`, as the C type `type`; nil when the library has none.
    func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
}
