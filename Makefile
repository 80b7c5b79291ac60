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

.PHONY: all build demo test test-rust test-python python oracles lint bench bench-quick bench-suite bench-go bench-report test-bench-go bench-escape clean

all: build

build:
	$(CARGO) build --release --workspace

# The Go oracle binary used by the differential tests.
oracles: $(ORACLE_GO)

$(ORACLE_GO): tools/oracle-go/main.go tools/oracle-go/go.mod
	mkdir -p target
	$(GO) -C tools/oracle-go build -o $(ORACLE_GO) .

demo: build python
	@./scripts/demo.sh

test: oracles test-rust python test-python lint

test-rust:
	JETJSON_ORACLE_GO=$(ORACLE_GO) $(CARGO) test --workspace --exclude jetjson-py

# The Python package: a virtualenv with the build and test tools, and the
# extension built in release mode into it.
$(VENV)/.installed: requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -r requirements-dev.txt
	touch $@

python: $(VENV)/.installed
	cd $(CURDIR) && VIRTUAL_ENV=$(VENV) PATH=$(VENV)/bin:$$PATH $(VENV)/bin/maturin develop --release --quiet

test-python: oracles python
	JETJSON_ORACLE_GO=$(ORACLE_GO) $(VPY) -m pytest -q tests/python

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
	$(MAKE) bench-suite bench-go bench-report

# The workload suite (crates/jetjson-bench: OCI manifests, request binding,
# SDK records, message envelopes, string escaping, corpus documents) against
# serde_json, sonic-rs and simd-json, then Go's encoding/json over the same
# inputs (bench/go), then bench/results/latest.md and its charts
# (bench/report.py; also reads bench/results/python.json when present).
# BENCH_SCALE=--quick and fewer Go runs make `bench-quick` (no 100 MB strings).
BENCH_SCALE ?=
GO_BENCH_FLAGS ?= -count 6 -benchtime 300ms

bench-quick:
	$(MAKE) bench-suite bench-go bench-report BENCH_SCALE=--quick GO_BENCH_FLAGS="-count 3 -benchtime 100ms"

# Go joins the interleaved rounds through its compiled test binary
# (bench/go/serve_test.go); `bench-go` is the plain `go test -bench` run.
bench-suite:
	mkdir -p target
	cd bench/go && $(GO) test -c -o $(CURDIR)/target/bench-go.test
	$(CARGO) run --release -p jetjson-bench -- $(BENCH_SCALE) --go target/bench-go.test --out bench/results/rust.json

bench-go:
	cd bench/go && $(GO) test -run '^$$' -bench . -benchmem $(GO_BENCH_FLAGS) > ../results/go-bench.txt
	tail -n 3 bench/results/go-bench.txt

$(VENV)/.bench-installed: bench/requirements.txt
	test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet -r bench/requirements.txt
	touch $@

bench-report: $(VENV)/.bench-installed
	$(VPY) bench/report.py

# The Go side of the suite checked and run once (no timing); < 30 s.
test-bench-go:
	cd bench/go && $(GO) vet ./... && $(GO) test ./...

clean:
	$(CARGO) clean
