/// SystemLibraries opens the system's C libraries that Trend loads only when first needed (DESIGN §1: one
/// `DynamicLibrary`, in the lowest target): libcrypto for the hashes and signatures, libarchive for zip
/// archives, libxml2 for XML. It imports only Foundation.
import Foundation

/// A system library opened when first needed (`dlopen`), so start-up never loads it or what it links.
public struct DynamicLibrary: @unchecked Sendable {
    // @unchecked: the handle is never closed and dlsym is safe from any thread.
    private let handle: UnsafeMutableRawPointer

    /// OpenSSL's libcrypto, as Debian names it.
    public static let libcrypto = ["libcrypto.so.3", "libcrypto.so"]

    /// What `resolve` makes of the first of `names` that opens and holds every symbol it asks for; nil when none does.
    public static func first<Functions>(of names: [String], _ resolve: (DynamicLibrary) -> Functions?) -> Functions? {
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let functions = resolve(DynamicLibrary(handle: handle)) { return functions }
        }
        return nil
    }

    /// The function `name`, as the C type `type`; nil when the library has none.
    public func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
}
