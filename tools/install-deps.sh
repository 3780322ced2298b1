#!/bin/sh
# Installs the Debian packages named on the command line that are not installed yet.
#
#   sh tools/install-deps.sh PKG...              required packages
#   sh tools/install-deps.sh --optional PKG...   packages that only enable extras (clang: fuzzing;
#                                                parallel, gnuplot-nox, slurm-wlm: sweep tests)
#
# As root it runs apt-get (non-interactive, so it works in CI without a terminal). Otherwise it
# prints the one apt-get line to run; for required packages it then fails, for optional ones it
# carries on. On systems without dpkg it checks nothing and leaves it to CMake to find what it needs.
optional=0
if [ "${1:-}" = "--optional" ]; then
    optional=1
    shift
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
    exit 0
fi
missing=""
for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $package"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "installing packages:$missing"
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq </dev/null && apt-get install -y -qq $missing </dev/null >/dev/null; then
        exit 0
    fi
    echo "apt-get install failed for:$missing" >&2
    [ "$optional" = 1 ] || exit 1
    # One optional package that this distribution lacks must not keep the others out.
    for package in $missing; do
        apt-get install -y -qq "$package" </dev/null >/dev/null ||
            echo "optional package $package not installed (the parts that need it are skipped)" >&2
    done
    exit 0
fi
if [ "$optional" = 1 ]; then
    echo "optional packages missing (the parts that need them are skipped); to add them run:" >&2
    echo "  sudo apt-get install -y$missing" >&2
    exit 0
fi
echo "missing build dependencies; run:" >&2
echo "  sudo apt-get install -y$missing" >&2
exit 1
