# jetjson: two set-up commands for a fresh machine.
#   make demo   builds everything and runs the main job
#   make test   runs every test
# Both install what they need themselves (crates via cargo; the Go and Node
# oracles use only their standard libraries).

CARGO ?= cargo
GO ?= go
ORACLE_GO := $(CURDIR)/target/oracle-go
PYTHON ?= python3
VENV := $(CURDIR)/.venv
VPY := $(VENV)/bin/python

export GOTOOLCHAIN := local
export GOPROXY := off

.PHONY: all build demo msrv test test-rust test-python python python-pgo oracles lint bench bench-quick bench-suite bench-go bench-python bench-report test-bench-go bench-escape c-build c-install test-c bench-c clean fuzz fuzz-build fuzz-seed fuzz-cmin sanitize memcheck-python

all: build

# Everything but the Python extension, which `make python` builds with
# maturin: cargo and maturin build it with different flags and
# environments, so building it here too made each of them rebuild it
# (and pyo3) after the other, a minute per `make demo` with nothing changed.
build:
	$(CARGO) build --release --workspace --exclude jetjson-py

# The Go oracle binary used by the differential tests.
oracles: $(ORACLE_GO)

$(ORACLE_GO): tools/oracle-go/main.go tools/oracle-go/go.mod
	mkdir -p target
	$(GO) -C tools/oracle-go build -o $(ORACLE_GO) .

demo: build python
	@./scripts/demo.sh

test: oracles test-rust test-bench-go test-c python test-python lint

# The minimum Rust versions stated in the manifests (rust-version), checked
# by building with them (rustup fetches them once; about a minute and a
# half on 2 cores, so not part of `make test`): the core crate with the
# workspace's, the CLI with its own (its locked clap needs edition 2024).
# Cargo.lock keeps psm (stacker's stack switcher) at 0.1.26: later psm
# versions build-depend on ar_archive_writer 0.5, which needs Rust 1.88, so
# a blanket `cargo update` breaks this target (re-pin with
# `cargo update -p psm --precise 0.1.26`).
MSRV := $(shell sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
MSRV_CLI := $(shell sed -n 's/^rust-version = "\(.*\)"/\1/p' crates/jetjson-cli/Cargo.toml | head -n 1)
msrv:
	rustup toolchain install $(MSRV) --profile minimal
	$(CARGO) +$(MSRV) build --locked -p jetjson --target-dir target/msrv
	rustup toolchain install $(MSRV_CLI) --profile minimal
	$(CARGO) +$(MSRV_CLI) build --locked -p jetjson-cli --target-dir target/msrv

test-rust:
	JETJSON_ORACLE_GO=$(ORACLE_GO) $(CARGO) test --workspace --exclude jetjson-py

# The C library (crates/jetjson-c): libjetjson.so/.a, jetjson.h and
# jetjson.pc. `make c-install PREFIX=/usr/local` builds it in release mode
# and installs it there. `make test-c` builds it in the dev profile (sharing
# test-rust's build of the core), installs it into target/c-test/prefix and
# runs its tests on that install: header vs exports, the C tests under
# ASan+UBSan against the shared and the static library, Go through cgo.
# `make bench-c`: the string-escaping benchmark in C (bench/c).
PREFIX ?= /usr/local
C_VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
CORPUS ?= $(CURDIR)/../shared/corpus

c-build:
	$(CARGO) build --release -p jetjson-c

c-install: c-build
	sh crates/jetjson-c/install.sh target/release "$(PREFIX)" $(C_VERSION)

test-c:
	$(CARGO) build -p jetjson-c
	rm -rf target/c-test
	sh crates/jetjson-c/install.sh target/debug target/c-test/prefix $(C_VERSION)
	sh crates/jetjson-c/tests/run.sh $(CURDIR)/target/c-test/prefix $(CORPUS) $(C_VERSION)

bench-c: c-build
	rm -rf target/c-bench
	sh crates/jetjson-c/install.sh target/release target/c-bench/prefix $(C_VERSION)
	sh bench/c/run.sh $(CURDIR)/target/c-bench/prefix

# The Python package: a virtualenv with the build and test tools, and the
# extension built in release mode into it.
$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -r requirements-dev.txt
	touch $@

python: $(VENV)/.installed
	cd $(CURDIR) && VIRTUAL_ENV=$(VENV) PATH=$(VENV)/bin:$$PATH $(VENV)/bin/maturin develop --release --quiet

# The same extension built with profile-guided optimisation
# (scripts/pgo-python.sh: instrumented build, training run of
# bench/python/pgo_train.py, optimised build; target/pgo-gen and
# target/pgo-use) and installed in place of `make python`'s, which puts the
# plain build back. Not part of `make test` or `make demo`: it builds the
# extension twice more. Numbers: bench/results/pgo-2026-11-28.md.
python-pgo: $(VENV)/.installed $(VENV)/.bench-installed
	sh scripts/pgo-python.sh $(VENV)

# The Python suite twice: as users run it, then under CPython's debug
# allocator, which fills freed memory with 0xDD and checks buffer ends, so
# a read of freed memory or an overrun shows (SECURITY.md, "Python code in
# the middle of dumps").
test-python: oracles python
	JETJSON_ORACLE_GO=$(ORACLE_GO) $(VPY) -m pytest -q tests/python
	PYTHONMALLOC=debug JETJSON_ORACLE_GO=$(ORACLE_GO) $(VPY) -X faulthandler -m pytest -q -p no:cacheprovider tests/python

lint: $(VENV)/.installed
	$(CARGO) fmt --all --check
	PYO3_PYTHON=$(VPY) $(CARGO) clippy --workspace --all-targets -- -D warnings

# Benchmarks against serde_json, sonic-rs (and simd-json for parsing): the
# escaper, the serializer and the parser with criterion, plus interleaved
# ratio tables written to bench/results/{write,read}-ratios.md.
bench:
	$(CARGO) bench -p jetjson --bench escape
	$(CARGO) bench -p jetjson --bench write
	python3 bench/write_report.py
	$(CARGO) bench -p jetjson --bench write_ratios -- 150 > bench/results/write-ratios.md
	cat bench/results/write-ratios.md
	$(CARGO) bench -p jetjson --bench read
	$(CARGO) bench -p jetjson --bench read_ratios -- 60 > bench/results/read-ratios.md
	cat bench/results/read-ratios.md
	$(MAKE) bench-suite bench-go bench-python bench-report

# The workload suite (crates/jetjson-bench: OCI manifests, request binding,
# SDK records, message envelopes, string escaping, corpus documents) against
# serde_json, sonic-rs and simd-json, then Go's encoding/json over the same
# inputs (bench/go), then bench/results/latest.md and its charts
# (bench/report.py; also reads bench/results/python.json when present).
# BENCH_SCALE=--quick and fewer Go runs make `bench-quick` (no 100 MB strings).
BENCH_SCALE ?=
GO_BENCH_FLAGS ?= -count 6 -benchtime 300ms

bench-quick:
	$(MAKE) bench-suite bench-go bench-python bench-report BENCH_SCALE=--quick GO_BENCH_FLAGS="-count 3 -benchtime 100ms"

# Go joins the interleaved rounds through its compiled test binary
# (bench/go/serve_test.go); `bench-go` is the plain `go test -bench` run.
# The suite is built twice: with -C target-cpu=native (target/native), as
# sonic-rs and simd-json ask, for every library; and with no target flags
# (target/release), whose jetjson runs as a twin process in the same rounds
# (contender jetjson-portable; crates/jetjson-bench/src/twin.rs).
bench-suite:
	mkdir -p target
	cd bench/go && $(GO) test -c -o $(CURDIR)/target/bench-go.test
	$(CARGO) build --release -p jetjson-bench
	RUSTFLAGS="-C target-cpu=native" $(CARGO) build --release -p jetjson-bench --target-dir target/native
	JETJSON_TWIN=$(CURDIR)/target/release/jetjson-bench target/native/release/jetjson-bench $(BENCH_SCALE) --go target/bench-go.test --out bench/results/rust.json

bench-go:
	cd bench/go && $(GO) test -run '^$$' -bench . -benchmem $(GO_BENCH_FLAGS) > ../results/go-bench.txt
	tail -n 3 bench/results/go-bench.txt

$(VENV)/.bench-installed: bench/requirements.txt
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet -r bench/requirements.txt
	touch $@

bench-report: $(VENV)/.bench-installed
	$(VPY) bench/report.py

# The Python extension under valgrind memcheck (slow: a few minutes); see
# SECURITY.md. Reports inside CPython itself are expected; none may name
# _jetjson.
memcheck-python: python
	PYTHONMALLOC=malloc valgrind --tool=memcheck $(VPY) scripts/memcheck_workload.py > target/memcheck-python.log 2>&1 || true
	tail -n 3 target/memcheck-python.log
	! grep -q _jetjson target/memcheck-python.log
	grep -q "memcheck workload done" target/memcheck-python.log

# The Python side (bench/python/suite.py): jetjson-py against orjson,
# msgspec, ujson, rapidjson, simplejson, json and the JCS packages on the
# same inputs; bench/results/python.json, read by bench-report.
bench-python: python $(VENV)/.bench-installed
	$(VPY) bench/python/suite.py $(BENCH_SCALE) --out bench/results/python.json

# The Go side of the suite checked and run once (no timing); < 30 s.
test-bench-go:
	cd bench/go && $(GO) vet ./... && $(GO) test ./...

# Fuzzing (nightly, cargo-fuzz, libFuzzer; `cargo install cargo-fuzz`).
# `make fuzz` runs every target for FUZZ_SECONDS (default 5 minutes each)
# from the committed corpus (fuzz/corpus/<target>, read-only here) into a
# working corpus (fuzz/grown/<target>, ignored by git). Inputs that crash,
# time out or run out of memory are copied to fuzz/regressions/<target>/,
# which `make test` replays (crates/jetjson/tests/fuzz_replay.rs): commit
# them with the fix. `make fuzz-cmin` folds the working corpus into the
# committed one, minimized; `make fuzz-seed` re-seeds it from ../shared/corpus.
FUZZ_SECONDS ?= 300
FUZZ_TARGETS ?= parse roundtrip differential escape
FUZZ_FLAGS ?= -max_len=8192 -dict=json.dict -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
NIGHTLY ?= +nightly

fuzz-build:
	cd fuzz && $(CARGO) $(NIGHTLY) fuzz build -O

fuzz: fuzz-build
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/grown/$$t fuzz/regressions/$$t; \
		echo "== fuzz $$t for $(FUZZ_SECONDS) s"; \
		(cd fuzz && $(CARGO) $(NIGHTLY) fuzz run -O $$t grown/$$t corpus/$$t -- -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS)) || failed="$$failed $$t"; \
		for f in fuzz/artifacts/$$t/crash-* fuzz/artifacts/$$t/timeout-* fuzz/artifacts/$$t/oom-*; do \
			[ -e "$$f" ] && cp "$$f" fuzz/regressions/$$t/ && echo "regression saved: fuzz/regressions/$$t/$${f##*/}"; \
		done; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failures in:$$failed (inputs in fuzz/regressions/)"; exit 1; fi

fuzz-seed:
	./fuzz/seed.sh

fuzz-cmin: fuzz-build
	for t in $(FUZZ_TARGETS); do \
		mkdir -p fuzz/grown/$$t && cp -n fuzz/grown/$$t/* fuzz/corpus/$$t/ 2>/dev/null; \
		(cd fuzz && $(CARGO) $(NIGHTLY) fuzz cmin -O $$t corpus/$$t -- -max_len=8192) || exit 1; \
	done

# The core crate's tests (unit tests and the integration tests that need no
# Go or Node oracle) under AddressSanitizer, which checks the unsafe SIMD
# paths (escaper, string scan) at every alignment and tail length. Its own
# target directory, so it never mixes with normal builds.
ASAN_TESTS := limits conformance corpus profiles string_scan write_faults allocations fuzz_replay direct_arrays value_arena serde_door indent_depths serde_strings serde_whitespace
sanitize:
	RUSTFLAGS="-Zsanitizer=address -Cunsafe-allow-abi-mismatch=sanitizer" \
	ASAN_OPTIONS=detect_leaks=0 \
	$(CARGO) $(NIGHTLY) test -p jetjson --no-fail-fast --target x86_64-unknown-linux-gnu --target-dir target/asan \
		--lib $(addprefix --test ,$(ASAN_TESTS))

clean:
	$(CARGO) clean
