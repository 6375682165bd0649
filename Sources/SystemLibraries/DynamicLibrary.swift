/// SystemLibraries opens the system's C libraries that Trend loads only when first needed (DESIGN §1: one
/// `DynamicLibrary`, in the lowest target): libcrypto for the hashes and signatures, libarchive for zip
/// archives, libxml2 for XML, libedit for the prompt and libdbus for notifications. It imports only Foundation.
import Foundation

/// A system library opened when first needed (`dlopen`), so start-up never loads it or what it links.
public struct DynamicLibrary: @unchecked Sendable {
    // @unchecked: the handle is never closed and dlsym is safe from any thread.
    private let handle: UnsafeMutableRawPointer

    /// OpenSSL's libcrypto, as Debian names it.
    public static let libcrypto = ["libcrypto.so.3", "libcrypto.so"]

    /// The running program and the libraries it was linked with (the C library among them), already loaded.
    public static var running: DynamicLibrary? { dlopen(nil, RTLD_NOW).map(DynamicLibrary.init(handle:)) }

    /// What `resolve` makes of the first of `names` that opens and holds every symbol it asks for; nil when none does.
    public static func first<Functions>(of names: [String], _ resolve: (DynamicLibrary) -> Functions?) -> Functions? {
        for name in names {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else { continue }
            if let functions = resolve(DynamicLibrary(handle: handle)) { return functions }
        }
        return nil
    }

    /// What C code that takes its functions by name is handed (CEditLine's `trend_el_open`, CNotify's
    /// `trend_bus_take_library`): this library, and a C function that looks a name up in it. The C targets open
    /// nothing themselves.
    public var forC: (library: UnsafeMutableRawPointer, lookUp: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> UnsafeMutableRawPointer?) {
        (handle, { library, name in name.flatMap { dlsym(library, $0) } })
    }

    /// The function `name`, as the C type `type`; nil when the library has none.
    public func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
}
