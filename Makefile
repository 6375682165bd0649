# The two commands a new user runs: `make run` and `make test`.
SWIFT ?= swift
DATA_DIR ?=
# Warnings are errors, and every target must declare each target it imports.
STRICT = -Xswiftc -warnings-as-errors --explicit-target-dependency-import-check error

.PHONY: run test test-sync build deps test-deps test-tsan bench bench-startup bench-import bench-sync bench-report bench-pandas docs install clean

PREFIX ?= $(HOME)/.local
# Release builds link the Swift runtime and Foundation statically: the binary
# is larger (about 80 MB, ICU's data included) but starts about 3 ms sooner,
# with no dynamic symbol lookups into the Swift libraries (README, Start-up).
RELEASE = -c release --static-swift-stdlib
# Where they land. `swift run` takes no --static-swift-stdlib, so the suites are built, then run from here.
BIN = $$($(SWIFT) build $(RELEASE) --show-bin-path)

# System libraries the package uses: SQLite (linked), and libedit (line
# editing), OpenSSL's libcrypto (the backup content hash) and libarchive
# (Apple Health's export.zip), whose headers it builds against and which it
# opens when first needed; and libxml2 (the XML of Apple Health and Hacker's
# Diet) and libdbus-1 (reminders on the desktop), opened the same way.
deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists libedit sqlite3 libcrypto libarchive libxml-2.0 dbus-1; then \
		echo "Installing libedit-dev, libsqlite3-dev, libssl-dev, libarchive-dev, libxml2-dev and libdbus-1-dev with apt-get…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libedit-dev libsqlite3-dev libssl-dev libarchive-dev libxml2-dev \
			libdbus-1-dev pkgconf >/dev/null; \
	fi

# What the tests use besides the toolchain: faketime runs the end-to-end
# tests at a fixed clock, tmux gives the REPL a real terminal, rsvg-convert
# (librsvg2-bin) renders the exported SVG chart, zsh and fish load the
# completion scripts, syncthing moves a sync folder between two installations (`make test-sync`),
# chromium (headless, no network) opens the HTML report, and dbus-daemon runs a session bus for reminders, on which
# Debian's python3-dbus-next records the notifications (scripts/notification-recorder.py); systemd-analyze
# (systemd) verifies the reminder watcher's unit and gio (libglib2.0-bin) starts its autostart entry as a desktop does;
# chromium-driver and python3-selenium lay the report out in print media (scripts/report-layout.py).
test-deps: deps
	@if ! command -v faketime >/dev/null || ! command -v tmux >/dev/null || ! command -v rsvg-convert >/dev/null \
		|| ! command -v zsh >/dev/null || ! command -v fish >/dev/null || ! command -v syncthing >/dev/null \
		|| ! command -v chromium >/dev/null || ! command -v dbus-daemon >/dev/null \
		|| ! command -v systemd-analyze >/dev/null || ! command -v gio >/dev/null || ! command -v chromedriver >/dev/null \
		|| ! /usr/bin/python3 -c "import selenium" 2>/dev/null \
		|| ! /usr/bin/python3 -c "import dbus_next" 2>/dev/null; then \
		echo "Installing faketime, tmux, librsvg2-bin, zsh, fish, syncthing, chromium (with chromium-driver and python3-selenium), dbus, python3-dbus-next, systemd and libglib2.0-bin with apt-get…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime tmux librsvg2-bin zsh fish syncthing \
			chromium chromium-driver python3-selenium dbus python3-dbus-next systemd libglib2.0-bin >/dev/null; \
	fi

build: deps
	$(SWIFT) build

# The prompt replaces the recipe's shell (exec), so closing the terminal reaches it and nothing is left behind.
run: build
	exec "$$($(SWIFT) build --show-bin-path)/trend" $(if $(DATA_DIR),--data-dir $(DATA_DIR),)

test: test-deps
	@# Each target declares every target it imports, and the arrows point down.
	python3 scripts/check-imports.py
	$(SWIFT) build --build-tests $(STRICT)
	@# Links the executables the end-to-end tests and the benchmark smoke run use.
	$(SWIFT) build $(STRICT)
	@# A hung test fails the run within 20 minutes instead of holding CI to its limit.
	timeout --kill-after=30 1200 $(SWIFT) test --skip-build
	@# The benchmark suite once, at its smallest size: it must build and agree with C.
	$(SWIFT) run --skip-build ProgressBenchmarks --smoke
	$(SWIFT) run --skip-build HabitsBenchmarks --smoke
	@# Two installations kept in step by two real Syncthing instances on loopback (skipped where syncthing cannot be installed).
	@if command -v syncthing >/dev/null; then $(MAKE) --no-print-directory test-sync; else echo "test-sync: skipped, syncthing is not installed"; fi
	@# The documentation builds without a warning, and every public type says what it is for.
	bash scripts/docs.sh

# Two Syncthing instances on loopback (no relay, no discovery), each sharing one Trend installation's sync folder.
test-sync: deps
	@# The same flags as `make test`'s build, so after it this links nothing new.
	$(SWIFT) build $(STRICT) --product trend
	timeout --kill-after=10 300 python3 scripts/sync-e2e.py $$($(SWIFT) build --show-bin-path)/trend

# The DocC archive of the library targets: .build/docs/Trend.doccarchive.
docs: deps
	bash scripts/docs.sh

# The progress suite (with its C reference), the habits suite, then the import
# and export cases next to sqlite3's .import, each in the same run as its floor.
bench: deps
	$(SWIFT) build $(RELEASE) --product ProgressBenchmarks
	$(SWIFT) build $(RELEASE) --product HabitsBenchmarks
	$(BIN)/ProgressBenchmarks
	$(BIN)/HabitsBenchmarks
	$(MAKE) --no-print-directory bench-import
	$(MAKE) --no-print-directory bench-sync
	$(MAKE) --no-print-directory bench-report
	$(MAKE) --no-print-directory bench-startup

# The HTML report of ten years of daily weigh-ins and 20 habits: its time, size and peak memory.
bench-report: deps
	$(SWIFT) build $(RELEASE) --product trend
	python3 scripts/bench-report.py $(BIN)/trend .build/bench-report

# What sync costs a command with nothing new, and a 100,000-row history joining, each beside its floor.
# Debian's python3-cryptography signs the hundred thousand tiny segments as Trend signs them.
bench-sync: deps
	@/usr/bin/python3 -c "import cryptography" 2>/dev/null || (echo "Installing python3-cryptography with apt-get…"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-cryptography >/dev/null)
	$(SWIFT) build $(RELEASE) --product trend
	/usr/bin/python3 scripts/bench-sync.py $(BIN)/trend .build/bench-sync

# Start-up next to a bare Foundation hello, on generated data directories
# (ten years of weigh-ins and habits, 100k weigh-ins, 20 habits over 30 years).
bench-startup: deps
	$(SWIFT) build $(RELEASE) --product trend
	mkdir -p .build/bench-startup
	swiftc -O Benchmarks/Startup/hello.swift -o .build/bench-startup/hello
	swiftc -O -static-stdlib Benchmarks/Startup/hello.swift -o .build/bench-startup/hello-static
	python3 scripts/bench-startup.py .build/release/trend .build/bench-startup/hello .build/bench-startup \
		--static-hello .build/bench-startup/hello-static

# Import and export at a million rows next to sqlite3's own .import of the same
# file, in the same run (ROWS=… for another size).
bench-import: deps
	$(SWIFT) build $(RELEASE) --product trend
	@command -v sqlite3 >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null)
	python3 scripts/bench-import.py .build/release/trend .build/bench-import --rows $${ROWS:-1000000}

# The progress computation in pandas next to ProgressBenchmarks' cold case, same run
# (pandas from PyPI when it is missing).
bench-pandas: deps
	@python3 -c "import pandas" 2>/dev/null || pip install --quiet --break-system-packages pandas || pip install --quiet pandas
	$(SWIFT) build $(RELEASE) --product ProgressBenchmarks
	$(BIN)/ProgressBenchmarks --sizes 100000,1000000 --json > .build/progress-cold.json
	python3 scripts/bench-pandas.py --sizes 100000,1000000 --swift-json .build/progress-cold.json

# The release binary, its man page and completions under PREFIX (default ~/.local).
install: deps
	$(SWIFT) build $(RELEASE) --product trend
	sh scripts/install.sh "$(BIN)/trend" "$(PREFIX)"

# Every test again under ThreadSanitizer, in a build folder of its own; the end-to-end tests run
# the uninstrumented `trend` (TREND_EXECUTABLE), since an instrumented one deadlocks under
# libfaketime before main. Bounded like `make test`, with room for the sanitizer's slowness.
test-tsan: test-deps
	$(SWIFT) build --product trend
	TREND_EXECUTABLE=$$($(SWIFT) build --show-bin-path)/trend timeout --kill-after=30 3600 \
		$(SWIFT) test --sanitize=thread --scratch-path .build/tsan

clean:
	$(SWIFT) package clean
