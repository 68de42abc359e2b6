# clmeter: `make run` sets up a fresh Debian/Ubuntu machine and runs the main job;
# `make test` sets it up and passes the tests.
GO      ?= go
BIN     := bin/clmeter
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.buildDate=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
# What clmeter needs from the system: to build, the ICD loader and headers, and SQLite's
# header and static library (the store's driver, third_party/go-sqlite3, links libsqlite3.a
# instead of compiling SQLite's 9 MB of C on every fresh build; the binary needs no
# libsqlite3 to run); to run, PoCL (the default CPU device) and clinfo (to compare
# against). Both without recommends: ocl-icd-opencl-dev's recommends bring the OpenGL and
# X11 development stack, 81 packages nothing here uses.
BUILD_PKGS := ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers libsqlite3-dev
RUN_PKGS   := pocl-opencl-icd clinfo
DEB_PKGS   := $(BUILD_PKGS) $(RUN_PKGS)
# What the tests need besides: the two other implementations the device tests run on,
# Mesa's Rusticl (mesa-opencl-icd, with RUSTICL_ENABLE=llvmpipe) and Oclgrind (an OpenCL 1.2
# simulator, also 'clmeter check'); PostgreSQL (the store's tests start a private server);
# Chromium (the dashboard and HTML reports are loaded headless); tmux (every command's
# output is read from panes of 80 and 120 columns: cmd/clmeter/tmux_test.go).
TEST_PKGS := mesa-opencl-icd oclgrind postgresql chromium tmux
# Slurm and MUNGE: the fleet tests start a Slurm cluster of their own on loopback
# (internal/slurmtest), installed without recommends (no mail server, no systemd units run).
SLURM_PKGS := slurm-wlm munge slurmctld slurmd slurm-client
# deps installs PKGS (make deps PKGS="..." for others); NORECOMMENDS=1 adds
# --no-install-recommends. It updates apt's lists first unless they are under 10 minutes old.
PKGS      ?= $(DEB_PKGS)
NORECOMMENDS ?=
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps build-deps run-deps modules build-only test-deps build run test bench bench-kit fuzz check-html clean tcpd

all: build

deps:
	@if [ -f /etc/debian_version ] && command -v apt-get >/dev/null; then \
	  missing=""; for p in $(PKGS); do \
	    dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	  done; \
	  if [ -n "$$missing" ]; then \
	    echo "deps: installing$$missing"; \
	    if [ -z "$$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -10 2>/dev/null)" ]; then \
	      $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq || exit 1; fi; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(if $(NORECOMMENDS),--no-install-recommends) $$missing >/dev/null && \
	    echo "deps: installed$$missing"; \
	  else echo "deps: all present ($(PKGS))"; fi; \
	else \
	  echo "deps: not a Debian/Ubuntu system; install by hand: an OpenCL ICD loader and headers"; \
	  echo "      (Fedora: ocl-icd-devel opencl-headers pocl; Arch: ocl-icd opencl-headers pocl;"; \
	  echo "      macOS is not supported), SQLite's library (Fedora: sqlite-devel; Arch: sqlite)"; \
	  echo "      and a C compiler for cgo, then run make build; without a static libsqlite3.a,"; \
	  echo "      GOFLAGS=-tags=clmeter_sqlite_shared make build"; \
	  [ -f /usr/include/CL/cl.h ] || { echo "deps: /usr/include/CL/cl.h is missing"; exit 1; }; \
	fi

# The build leaves out DWARF, the debuggers' tables (stack traces and profiles do not
# use them), and runs the compiler without its collector (GOGC=off: clmeter's largest
# package is small, so the compiler's memory stays a few hundred MB): a first build with
# empty caches takes about a fifth less time (docs/OWNCOST.md, "The first run").
# make build DEBUG=1 keeps DWARF for a debugger; a plain go build does too.
DEBUG      ?=
BUILD_GOGC ?= off
BUILDFLAGS := $(if $(DEBUG),,-gcflags=all=-dwarf=false)
LDFLAGS    += $(if $(DEBUG),,-w)

GOBUILD = GOGC=$(BUILD_GOGC) $(GO) build $(BUILDFLAGS) -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/clmeter

build: build-deps run-deps
	$(GOBUILD)

# The main job: the devices, then the quick suite on the default device (a budget of
# 0.6 s a benchmark), its result file in out/. To be quick on a
# fresh machine, PoCL installs while Go downloads the modules and builds, once the
# headers are in.
run:
	@$(MAKE) --no-print-directory -j3 build-only run-deps
	./$(BIN) devices
	@mkdir -p out
	./$(BIN) suite quick -o out/quick.json

build-deps:
	@$(MAKE) --no-print-directory deps PKGS="$(BUILD_PKGS)" NORECOMMENDS=1
run-deps: build-deps
	@$(MAKE) --no-print-directory deps PKGS="$(RUN_PKGS)" NORECOMMENDS=1
# modules downloads the modules the build needs (and only those), beside build-deps.
modules:
	@$(GO) list -deps ./cmd/clmeter >/dev/null
build-only: build-deps modules
	$(GOBUILD)

# The device tests named TestEveryImplementation / TestTimerEveryImplementation run
# on PoCL, Rusticl and Oclgrind, each in a child process; CLMETER_IMPLS_REQUIRED
# makes a missing one fail instead of being left out.
IMPLS ?= pocl,rusticl,oclgrind
test-deps: build-deps run-deps
	@$(MAKE) --no-print-directory deps PKGS="$(TEST_PKGS)"
	@$(MAKE) --no-print-directory deps PKGS="$(SLURM_PKGS)" NORECOMMENDS=1

test: test-deps
	$(GO) vet ./...
	CLMETER_IMPLS_REQUIRED=$(IMPLS) $(GO) test -race -count=1 -timeout 60m ./...

# make bench: one table, each row measured side by side in this run on one device
# (BENCH_DEVICE, default clmeter's default), then the Go benchmarks.
BENCH_DEVICE ?=
# clpeak (Debian's package) is the peer of the peaks and launch rows.
# The Go benchmarks part: the engine's own cost, the guard zones, host data
# fill, change-point analysis and its power study (docs/CHANGEPOINTS.md; the
# store's and dashboard's need PostgreSQL and the quick suite's is the table's
# suite row: go test -bench . ./... runs all).
GOBENCH_PKGS ?= ./measure/ ./runtime/ ./runtime/spec/ ./clkernels/ ./changepoint/
GOBENCH ?= Engine|Guard|HostBuffer|HostData|CheckSaxpy|FillTriad|Analyze400$$|PowerStudy
# Then the store's scale benchmarks (docs/STORE.md, "Scale"): a synthetic fleet bulk-loaded
# into SQLite and into a private PostgreSQL, then one fleet run's read, one GPU's history
# and Add by 8 concurrent writers. SCALE is DEVICESxRUNSxBENCHMARKS, 48x20x50 when empty;
# SCALE=full is 1000x100x50, 5 million results (SCALE_SAMPLES samples each, default 10).
SCALE ?=
SCALE_SAMPLES ?=
bench: build bin/rawlaunch bin/progbin bin/saxpyrun
	@command -v clpeak >/dev/null || { [ -f /etc/debian_version ] && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clpeak >/dev/null; } || echo "bench: clpeak not installed: its rows are left out"
	$(GO) run ./bench -clmeter $(BIN) -cdir bin $(if $(BENCH_DEVICE),-device $(BENCH_DEVICE))
	$(GO) test -run '^$$' -bench '$(GOBENCH)' -benchtime 1x -timeout 10m $(GOBENCH_PKGS)
	CLMETER_SCALE=$(SCALE) CLMETER_SCALE_SAMPLES=$(SCALE_SAMPLES) $(GO) test -run '^$$' -bench '^BenchmarkScale' -benchtime 5x -timeout 180m ./store/

# make bench-kit: the bench binary, clmeter and the C probes in .device/, for a
# machine without Go (docs/OWNCOST.md: .device/bench -clmeter .device/clmeter -cdir .device).
bench-kit: bin/rawlaunch bin/progbin bin/saxpyrun
	@mkdir -p .device
	$(GO) build -o .device/bench ./bench
	$(GO) build -o .device/clmeter ./cmd/clmeter
	cp bin/rawlaunch bin/progbin bin/saxpyrun .device/

# make tcpd TCPD=DIR: scores 'clmeter history --regressions' on the Turing Change Point
# Dataset in DIR (git clone https://github.com/alan-turing-institute/TCPD): every series
# through 'store add' and 'history', TCPDBench's F1 and cover beside the zero detector
# (docs/CHANGEPOINTS.md). About 3 minutes, most of it storing 8,000 runs.
TCPD ?=
tcpd:
	@[ -n "$(TCPD)" ] || { echo "tcpd: set TCPD to a checkout of github.com/alan-turing-institute/TCPD: make tcpd TCPD=DIR"; exit 2; }
	CLMETER_TCPD=$(abspath $(TCPD)) $(GO) test -count=1 -timeout 30m -v -run 'TestTCPD' ./changepoint/ ./cmd/clmeter/

bin/rawlaunch: bench/c/rawlaunch.c build-deps
	@mkdir -p bin
	$(CC) -O2 -Wall -o $@ bench/c/rawlaunch.c -lOpenCL

bin/progbin: bench/c/progbin.c build-deps
	@mkdir -p bin
	$(CC) -O2 -Wall -o $@ bench/c/progbin.c -lOpenCL

bin/saxpyrun: bench/c/saxpyrun.c build-deps
	@mkdir -p bin
	$(CC) -O2 -Wall -pthread -o $@ bench/c/saxpyrun.c -lOpenCL -lm

# make fuzz: each fuzz target for FUZZTIME (the seed corpora also run in make test). An
# input that fails is kept in the package's testdata/fuzz/FUZZNAME/: commit it, and make
# test runs it from then on.
FUZZTIME ?= 30s
fuzz: build-deps
	$(GO) test -run '^$$' -fuzz '^FuzzEval$$' -fuzztime $(FUZZTIME) ./runtime/spec
	$(GO) test -run '^$$' -fuzz '^FuzzParseArg$$' -fuzztime $(FUZZTIME) ./runtime/spec
	$(GO) test -run '^$$' -fuzz '^FuzzParseFile$$' -fuzztime $(FUZZTIME) ./runtime/spec
	$(GO) test -run '^$$' -fuzz '^FuzzParseSize$$' -fuzztime $(FUZZTIME) ./runtime/spec
	$(GO) test -run '^$$' -fuzz '^FuzzStoreLocation$$' -fuzztime $(FUZZTIME) ./store
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeResult$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./results
	$(GO) test -run '^$$' -fuzz '^FuzzCacheEntry$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./runtime
	$(GO) test -run '^$$' -fuzz '^FuzzLayout$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 2s ./table

# make check-html: render the HTML report and every dashboard page in headless
# Chromium (installed from Debian's packages) and check their plots and their
# geometry (no overlapping or clipped text, no chart under 2 marks, no page
# wider than its window).
check-html: test-deps
	$(GO) test -count=1 -run 'HTML|Geometry|PageCheck' -v ./results/... ./dashboard ./cmd/clmeter

clean:
	rm -rf bin out
