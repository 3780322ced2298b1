# gpumemsim: the commands of the README.
#   make demo    builds and runs the bundled example kernel, printing its report
#   make test    the whole suite: normal build + ctest, then ASan+UBSan build + ctest, then (when
#                clang with libFuzzer is installed) a short run of every fuzzer
#   make bench   release build, then the throughput benchmarks of bench/ (see bench/README.md)
# All of them first install missing build dependencies with apt-get when run as root; otherwise
# they print the apt-get line to run. clang is optional: without it the fuzz part is skipped.

REQUIRED_PACKAGES := gcc make cmake pkg-config libjansson-dev libcmocka-dev
OPTIONAL_PACKAGES := clang
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# Seconds each fuzzer runs in the fuzz-smoke tests.
FUZZ_SECONDS ?= 20

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
        test-fuzz test-fast bench clean

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
	@cmake --preset release >/dev/null
	@cmake --build build/release -j$(JOBS)

demo: build
	@./build/dev/gpumemsim run examples/saxpy/saxpy.json

test-fast: build
	@ctest --test-dir build/dev --output-on-failure -j$(JOBS)

# One step after the other, so that `make -j test` still runs them in this order.
test:
	@$(MAKE) --no-print-directory test-dev
	@$(MAKE) --no-print-directory test-asan
	@$(MAKE) --no-print-directory test-fuzz

test-dev: build
	@echo "== normal build: ctest =="
	@ctest --test-dir build/dev --output-on-failure -j$(JOBS)

test-asan: build-asan
	@echo "== ASan + UBSan build: ctest =="
	@$(SANITIZER_ENV) ctest --test-dir build/asan --output-on-failure -j$(JOBS)

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
	    $(SANITIZER_ENV) ctest --test-dir build/fuzz -L fuzz-smoke --output-on-failure -j$(JOBS); \
	fi

bench: build-release
	@sh bench/run.sh

clean:
	rm -rf build
