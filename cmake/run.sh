#!/usr/bin/env bash
# The project's entry points (the README's Quick start). Each installs what is missing first
# (Debian packages, Kokkos built from Debian's source package into .deps/), idempotently.
#
#   bash cmake/run.sh report [strided-report args]  build (release-perf) and run strided-report
#   bash cmake/run.sh test                          build and test the openmp and threads presets
#   bash cmake/run.sh asan                          build and test with AddressSanitizer + UBSan
#   bash cmake/run.sh format-check                  fail on any file clang-format would change
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*" >&2; }
bootstrap() { bash cmake/bootstrap-deps.sh; }
build_preset() {
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  report)
    bootstrap
    step "building strided-report (release-perf)"
    build_preset release-perf
    export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
    ./build/release-perf/perf/strided-report "$@"
    ;;
  test)
    bootstrap
    for preset in openmp threads; do
      step "building and testing the $preset preset"
      build_preset "$preset"
      ctest --preset "$preset"
    done
    ;;
  asan)
    bootstrap
    step "building and testing with AddressSanitizer and UBSan"
    build_preset asan
    ASAN_OPTIONS=detect_leaks=0 ctest --preset asan
    ;;
  format-check)
    command -v clang-format >/dev/null || bash cmake/bootstrap-deps.sh
    files=$(git ls-files '*.hpp' '*.cpp' '*.h')
    clang-format --dry-run -Werror $files
    echo "format-check: $(echo "$files" | wc -l) files formatted"
    ;;
  *)
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
