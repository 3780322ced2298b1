# gpumemsim: the two commands of the README.
#   make demo   builds and runs the bundled example kernel, printing its report
#   make test   builds (normal and ASan+UBSan) and runs the whole suite through ctest
# Both install missing build dependencies with apt-get when run as root; otherwise they print
# the apt-get line to run.

DEPS_PKGS := gcc make cmake pkg-config libjansson-dev libcmocka-dev clang
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: all deps build build-asan build-fuzz demo test test-fast bench clean

all: build

deps:
	@sh tools/install-deps.sh $(DEPS_PKGS)

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

test: build build-asan
	@echo "== normal build =="
	@ctest --test-dir build/dev --output-on-failure -j$(JOBS)
	@echo "== ASan + UBSan build =="
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build/asan --output-on-failure -j$(JOBS)

bench: build-release
	@sh bench/run.sh

clean:
	rm -rf build
