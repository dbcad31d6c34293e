#!/usr/bin/env bash
# The project's entry points (the README's Quick start). Each installs what is missing first
# (Debian packages, Kokkos built from Debian's source package into .deps/), idempotently.
#
#   bash cmake/run.sh report [strided-report args]  build (release-perf) and run strided-report
#   bash cmake/run.sh test                          build and test the openmp and threads presets
#   bash cmake/run.sh kokkos4                       the same tests against Kokkos 4.6.01 (OpenMP,
#                                                   Threads, and C++20 without deprecated code)
#   bash cmake/run.sh contract                      determinism probe built with -O3 -march=native
#                                                   -ffp-contract=fast (GCC, Clang) vs the default
#   bash cmake/run.sh asan                          build and test with AddressSanitizer + UBSan
#   bash cmake/run.sh spack-check                   check the Spack recipe (no Spack needed)
#   bash cmake/run.sh format-check                  fail on any file clang-format would change
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*" >&2; }
bootstrap() { bash cmake/bootstrap-deps.sh "$@"; }
build_preset() {
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1"
}
# ctest, then the thread counts the test programs report having run at (test_session.hpp).
test_preset() {
  ctest --preset "$1"
  local log="build/$1/Testing/Temporary/LastTest.log"
  [ -f "$log" ] && grep -ho 'strided test: Kokkos .*' "$log" | sort | uniq -c | sed 's/^/   /' >&2
  return 0
}
# The Kokkos 4.6.01 release source; CI has ../shared beside the clone. Not needed by the README.
kokkos4_tarball=${STRIDED_KOKKOS4_TARBALL:-../shared/deps/kokkos-4.6.01.tar.gz}

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
      test_preset "$preset"
    done
    ;;
  kokkos4)
    if [ ! -f "$kokkos4_tarball" ]; then
      step "skipping the Kokkos 4.x legs: $kokkos4_tarball not found (set STRIDED_KOKKOS4_TARBALL)"
      exit 0
    fi
    bootstrap --kokkos4 "$kokkos4_tarball"
    for preset in kokkos4-openmp kokkos4-threads kokkos4-cxx20; do
      step "building and testing the $preset preset"
      build_preset "$preset"
      test_preset "$preset"
    done
    ;;
  contract)
    bootstrap
    command -v clang++ >/dev/null || {
      step "installing Debian's clang"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends clang >/dev/null
    }
    step "building the default determinism probe (openmp preset)"
    cmake --preset openmp >/dev/null
    cmake --build --preset openmp --target strided_determinism_probe
    reference=$PWD/build/openmp/tests/strided_determinism_probe
    for preset in contract-gcc contract-clang; do
      step "$preset: -O3 -march=native -ffp-contract=fast, bits against the default build"
      build_preset "$preset"
      ctest --test-dir "build/$preset" -R strided_contraction_tests --output-on-failure
      cmake -DPROBE="$PWD/build/$preset/tests/strided_determinism_probe" \
            -DREFERENCE_PROBE="$reference" "-DTHREADS=1;2;3" \
            -P tests/determinism/compare_runs.cmake
    done
    ;;
  spack-check)
    python3 cmake/spack/check_recipe.py
    ;;
  asan)
    bootstrap
    step "building and testing with AddressSanitizer and UBSan"
    build_preset asan
    ASAN_OPTIONS=detect_leaks=0 test_preset asan
    ;;
  format-check)
    command -v clang-format >/dev/null || bash cmake/bootstrap-deps.sh
    files=$(git ls-files '*.hpp' '*.cpp' '*.h')
    clang-format --dry-run -Werror $files
    echo "format-check: $(echo "$files" | wc -l) files formatted"
    ;;
  *)
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
