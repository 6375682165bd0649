// swift-tools-version:6.0
import PackageDescription

/// Trend: a personal weight-and-habits tracker in the CFA shape.
/// Imports point down this list only (see DESIGN.md §1).
let package = Package(
    name: "Trend",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trend", targets: ["trend"]),
        .library(name: "AppCore", targets: ["AppCore"]),
    ],
    targets: [
        // MARK: C libraries from the system
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Headers only: libarchive is opened when an archive is imported (ZipEntryStream).
        .systemLibrary(
            name: "CArchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // Headers only: libcrypto is opened when something is hashed, signed or sealed (SystemLibraries'
        // DynamicLibrary), so the many commands that do none of it, a sync with nothing new among them, never load it.
        .systemLibrary(
            name: "CCrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libedit's readline interface for a small C target: only the interactive prompt needs it, and loading it
        // costs every start-up, so SystemLibraries opens it on first use and hands its functions over.
        .target(name: "CEditLine"),
        // libdbus-1 (Debian's libdbus-1-dev), opened by SystemLibraries when a reminder is sent, so no other run
        // loads it (nor the libsystemd and libgcrypt it pulls in): its headers only, from where Debian puts them
        // (pkg-config's would link it into every start-up).
        .target(name: "CNotify",
                cSettings: [.unsafeFlags(["-I/usr/include/dbus-1.0", "-I/usr/lib/x86_64-linux-gnu/dbus-1.0/include",
                                          "-I/usr/lib/aarch64-linux-gnu/dbus-1.0/include"])]),
        // The one place a system library is opened when first needed (dlopen, `DynamicLibrary`): libcrypto,
        // libarchive, libxml2, libedit (for CEditLine) and libdbus-1 (for CNotify). Foundation only.
        .target(name: "SystemLibraries"),

        // MARK: The words of the domain: days, ranges, input grammars, decimals (Foundation only)
        .target(name: "Vocabulary"),
        // The desktop's notification service on the session bus (reminders), and the user service manager.
        .target(name: "Desktop", dependencies: ["CNotify", "Vocabulary", "SystemLibraries"]),

        // MARK: SHA-256, Ed25519, X25519, HKDF and ChaCha20-Poly1305 from libcrypto (opened when first needed)
        .target(name: "Cryptography", dependencies: ["CCrypto", "SystemLibraries"]),

        // MARK: The text formats files are written in: CSV tables, canonical JSON, the flat-JSON reader (Foundation only)
        .target(name: "TextFormats"),

        // MARK: Storage, the one SQLite database
        .target(name: "Storage", dependencies: ["CSQLite", "TextFormats"]),

        // MARK: Features
        .target(name: "Settings", dependencies: ["Storage", "Vocabulary", "TextFormats"]),
        .target(name: "WeightLog", dependencies: ["Storage", "Settings", "Vocabulary", "TextFormats"]),
        // Other apps' files in: the readers, the zip and XML streams, libarchive.
        .target(name: "WeightImport", dependencies: ["WeightLog", "Storage", "Settings", "CArchive", "Vocabulary", "SystemLibraries", "TextFormats"]),
        // Trend's files out: the weigh-ins as CSV or JSON, streamed, and a document (a chart, the report) written whole.
        .target(name: "Exports", dependencies: ["WeightLog", "Storage", "Settings", "Vocabulary", "TextFormats"]),
        // Undo, redo and the history of changes, over the journal every change writes (Storage's `ChangeJournal`).
        .target(name: "History", dependencies: ["Storage", "Vocabulary"]),
        .target(name: "Progress", dependencies: ["WeightLog", "Settings", "Vocabulary"]),
        .target(name: "Habits", dependencies: ["Storage", "Vocabulary", "Desktop", "TextFormats"]),
        .target(name: "DailyTips", dependencies: ["Storage", "Vocabulary", "TextFormats"]),
        .target(name: "Backup", dependencies: ["Storage", "Settings", "Cryptography", "Vocabulary", "TextFormats"]),
        // The statistics relating habits to weight: values in, no tables (DESIGN.md §3 Insights).
        .target(name: "Insights", dependencies: ["Vocabulary"]),
        // Several devices through the sync folder: segments, the merge, SyncFeature (DESIGN.md §8).
        .target(name: "Sync", dependencies: ["Storage", "Cryptography", "Vocabulary", "TextFormats"]),

        // The views over several Features: the check-in (with its tips and pep talks), the period summary and the
        // report, each a typed value assembled from the Features that own the figures.
        .target(name: "Overview", dependencies: ["WeightLog", "Habits", "DailyTips", "Insights", "Progress", "Settings", "Vocabulary"]),

        // MARK: Composition root
        .target(
            name: "AppCore",
            dependencies: ["Storage", "Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips", "Backup", "History", "Insights", "Overview",
                           "Sync", "Vocabulary", "Desktop"]
        ),

        // MARK: Presentation and the executable
        // The command language: the tokenizer, a command's declaration (its usage line, refusals and Tab
        // completion made from it), the catalogue and `help` made from the declarations, the parser and the
        // completer, running a line through them, generic over the values a program reads its words into, and the
        // answers with the ordered JSON document an answer is written as, the terminal's styles and progress bar;
        // it knows no feature (TrendREPL names Trend's words, `TrendArguments`).
        .target(name: "CommandLanguage", dependencies: ["Vocabulary"]),
        // TrendREPL presents every Feature's values and errors, so it names
        // each feature target it reads types from; Storage for `StorageError`
        // (the reason a command could not reach the database) and `FreshLoader`
        // (one look for another process's writes per command);
        // Notifications for the reminders' timer (`remind install`).
        .target(
            name: "TrendREPL",
            dependencies: ["AppCore", "CommandLanguage", "Storage", "Settings", "WeightLog", "WeightImport", "Exports", "Progress", "Habits", "DailyTips",
                           "Backup", "History", "Insights", "Overview", "Sync", "Vocabulary", "Desktop"]
        ),
        // The executable: its options (parsed once), the shell completion scripts and the man page,
        // the libedit line reader and the loop, and the process's side of the terminal (Terminal/: the line
        // hand-off on `BlockingPool`'s thread, the lifecycle monitor, process limits, standard output and error).
        .executableTarget(name: "trend", dependencies: ["TrendREPL", "CommandLanguage", "AppCore", "CEditLine", "Storage", "Desktop", "SystemLibraries"]),

        // MARK: Benchmarks (swift run -c release ProgressBenchmarks)
        .target(
            name: "ProgressReference",
            path: "Benchmarks/ProgressReference",
            linkerSettings: [.linkedLibrary("m"), .linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "ProgressBenchmarks",
            dependencies: ["AppCore", "Progress", "WeightLog", "Settings", "Storage", "ProgressReference", "Vocabulary"],
            path: "Benchmarks/ProgressBenchmarks"
        ),
        .executableTarget(
            name: "HabitsBenchmarks",
            dependencies: ["AppCore", "Habits", "Insights", "Storage"],
            path: "Benchmarks/HabitsBenchmarks"
        ),

        // MARK: Tests: a target per library target with behaviour of its own. Vocabulary's grammars are tested
        // where they are read (WeightLogTests, SettingsTests, TrendREPLTests), the command language through Trend's
        // commands (TrendREPLTests), the desktop clients through the reminders (HabitsTests), History and Overview
        // through their Features in a whole graph (HistoryTests, TrendREPLTests); SystemLibraries through what it opens.
        .target(
            name: "TestSupport",
            dependencies: ["AppCore", "Storage", "Settings", "WeightLog", "Habits", "DailyTips", "Desktop"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "CryptographyTests", dependencies: ["Cryptography"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "CSQLite", "Vocabulary", "TestSupport"]),
        .testTarget(name: "TextFormatsTests", dependencies: ["TextFormats", "Vocabulary"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "Storage", "Vocabulary", "TestSupport"]),
        .testTarget(name: "WeightLogTests", dependencies: ["WeightLog", "Settings", "Storage", "Vocabulary", "TestSupport", "TextFormats"]),
        .testTarget(name: "WeightImportTests", dependencies: ["WeightImport", "WeightLog", "Settings", "Storage", "Vocabulary", "TestSupport", "TextFormats"]),
        .testTarget(name: "ExportsTests", dependencies: ["Exports", "WeightImport", "WeightLog", "Settings", "Storage", "Vocabulary", "TestSupport"]),
        .testTarget(name: "ProgressTests", dependencies: ["Progress", "WeightLog", "Settings", "Storage", "Vocabulary", "TestSupport"]),
        .testTarget(name: "DailyTipsTests", dependencies: ["DailyTips", "Habits", "Settings", "Storage", "WeightLog", "Vocabulary", "TestSupport"]),
        .testTarget(name: "InsightsTests", dependencies: ["Insights", "Vocabulary"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "Storage", "AppCore", "Settings", "Vocabulary", "Cryptography", "Habits"]),
        .testTarget(name: "HabitsTests", dependencies: ["Habits", "Desktop", "Settings", "Storage", "Vocabulary", "TestSupport"]),
        .testTarget(name: "BackupTests", dependencies: ["Backup", "History", "Cryptography", "AppCore", "DailyTips", "Habits", "Settings", "Storage", "WeightLog", "WeightImport", "Vocabulary", "TestSupport"]),
        .testTarget(name: "HistoryTests", dependencies: ["History", "Backup", "Storage", "WeightLog", "TestSupport"]),
        .testTarget(name: "AppCoreTests", dependencies: ["AppCore", "DailyTips", "Habits", "Insights", "Settings", "Storage", "Sync", "WeightLog", "Vocabulary", "TestSupport"]),
        .testTarget(
            name: "TrendREPLTests",
            dependencies: ["TrendREPL", "CommandLanguage", "AppCore", "Vocabulary", "TestSupport", "trend", "Backup", "Habits", "Settings", "Storage", "WeightLog", "WeightImport", "Cryptography", "TextFormats"],
            // The screens the screen tests compare with, read from the source tree.
            exclude: ["Screens/Expected"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
