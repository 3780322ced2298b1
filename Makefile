# gpumemsim: the commands of the README.
#   make demo    builds the simulator (only) and runs the bundled example kernel, printing its report
#   make test    the whole suite: normal build + ctest, then ASan+UBSan build + ctest without the
#                ptxas differential, the tests of the test tools, the timing-validation cases
#                and the timing model's LRR threads test (labels diff, tools, fidelity,
#                threads_lrr), then
#                (when clang with libFuzzer is installed) a short run of every fuzzer; ends with a
#                one-line summary (tools/test-report.sh)
#   make bench   release build (profile-guided with GCC: tools/pgo-build.sh), then the throughput
#                benchmarks of bench/ (see bench/README.md)
#   make bench-fidelity   release build, then the timing-validation sweeps of bench/fidelity/
#                (model vs published hardware figures; docs/timing.md, "Validation")
# All of them first install missing build dependencies with apt-get when run as root; otherwise
# they print the apt-get line to run. clang is optional: without it the fuzz part is skipped;
# so are parallel, gnuplot-nox and slurm-wlm: without them the sweep tests that need them skip.

REQUIRED_PACKAGES := gcc make cmake pkg-config libjansson-dev libcmocka-dev libzstd-dev liblz4-dev
# Optional: clang (fuzzing); GNU parallel, gnuplot and Slurm (the `gpumemsim sweep` tests run
# their sweeps through parallel and a one-node Slurm cluster and draw plots; docs/sweeps.md).
OPTIONAL_PACKAGES := clang parallel gnuplot-nox slurm-wlm
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Seconds each fuzzer runs in the fuzz-smoke tests.
FUZZ_SECONDS ?= 20
# Sub-makes (ours and the ones cmake --build starts) print no "Entering directory" lines.
MAKEFLAGS += --no-print-directory
# Where the test stages leave their ctest JUnit files and times for the summary line.
TEST_REPORT := $(CURDIR)/build/test-report

# Sanitizer settings for the asan tests: leaks are errors, UBSan prints where it stopped.
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# Why fuzzing cannot run here (empty when it can): clang must exist and link a minimal fuzz
# target with -fsanitize=fuzzer. Expanded when a recipe runs, i.e. after `deps` installed clang.
fuzz_skip_reason = $(shell \
    if ! command -v clang >/dev/null 2>&1; then \
        echo "clang is not installed (apt-get install clang)"; \
    else \
        probe=$$(mktemp -d) && \
        printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d && n; }\n' \
            >$$probe/probe.c && \
        { clang -fsanitize=fuzzer,address $$probe/probe.c -o $$probe/probe >/dev/null 2>&1 || \
          echo "clang cannot link -fsanitize=fuzzer (libFuzzer runtime missing)"; }; \
        rm -rf $$probe; \
    fi)

.PHONY: all deps build build-asan build-release build-fuzz demo test test-dev test-asan \
        test-fuzz test-fast bench bench-fidelity clean

all: build

deps:
	@sh tools/install-deps.sh $(REQUIRED_PACKAGES)
	@sh tools/install-deps.sh --optional $(OPTIONAL_PACKAGES)

build: deps
	@cmake --preset dev >/dev/null
	@cmake --build build/dev -j$(JOBS)

build-asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build build/asan -j$(JOBS)

build-release: deps
	@sh tools/pgo-build.sh $(JOBS)

demo: deps
	@cmake --preset dev >/dev/null
	@cmake --build build/dev -j$(JOBS) --target gpumemsim
	@./build/dev/gpumemsim run examples/saxpy/saxpy.json

test-fast: build
	@ctest --test-dir build/dev --output-on-failure -j$(JOBS)

# One stage after the other, so that `make -j test` still runs them in this order; the first that
# fails ends the run. The summary line comes last either way, and the status is the stages'.
test:
	@rm -f $(TEST_REPORT)/*.stage $(TEST_REPORT)/*.xml
	@sh tools/test-report.sh stage $(TEST_REPORT) dev $(MAKE) test-dev && \
	 sh tools/test-report.sh stage $(TEST_REPORT) asan $(MAKE) test-asan && \
	 sh tools/test-report.sh stage $(TEST_REPORT) fuzz $(MAKE) test-fuzz; \
	 status=$$?; \
	 sh tools/test-report.sh summary $(TEST_REPORT) 'dev=normal build+ctest' \
	     'asan=ASan+UBSan build+ctest' 'fuzz=fuzz smoke'; \
	 exit $$status

test-dev: build
	@echo "== normal build: ctest =="
	@mkdir -p $(TEST_REPORT)
	@ctest --test-dir build/dev --output-on-failure -j$(JOBS) --output-junit $(TEST_REPORT)/dev.xml

# The ptxas differential (label diff) compares verdicts, which a sanitizer build cannot change, the
# tests of the test tools (labels diff, tools) run no sanitized code, and the timing-validation
# cases (label fidelity) check cycle figures that a sanitizer build cannot change either, at ten
# times the cost: they run in test-dev only.
test-asan: build-asan
	@echo "== ASan + UBSan build: ctest (without labels diff, tools, fidelity, threads_lrr) =="
	@mkdir -p $(TEST_REPORT)
	@$(SANITIZER_ENV) ctest --test-dir build/asan --output-on-failure -j$(JOBS) -LE '^(diff|tools|fidelity|threads_lrr)$$' \
	    --output-junit $(TEST_REPORT)/asan.xml

# Builds the fuzz preset (clang, ASan+UBSan, libFuzzer) and runs the fuzz-smoke tests; both are
# skipped, with a message, where clang or its libFuzzer runtime is missing.
build-fuzz: deps
	@reason='$(fuzz_skip_reason)'; \
	if [ -n "$$reason" ]; then \
	    echo "== fuzzing skipped: $$reason =="; \
	else \
	    cmake --preset fuzz -DGMS_FUZZ_SMOKE_SECONDS=$(FUZZ_SECONDS) >/dev/null && \
	    cmake --build build/fuzz -j$(JOBS) --target fuzzers; \
	fi

test-fuzz: build-fuzz
	@reason='$(fuzz_skip_reason)'; \
	if [ -z "$$reason" ]; then \
	    echo "== fuzz smoke: each fuzzer for $(FUZZ_SECONDS) s =="; \
	    mkdir -p $(TEST_REPORT) && \
	    $(SANITIZER_ENV) ctest --test-dir build/fuzz -L fuzz-smoke --output-on-failure -j$(JOBS) \
	        --output-junit $(TEST_REPORT)/fuzz.xml; \
	fi

bench: build-release
	@sh bench/run.sh

bench-fidelity: build-release
	@cmake --build build/release -j$(JOBS) --target fidelity_figure
	@sh bench/fidelity/run.sh

clean:
	rm -rf build
