#!/usr/bin/env bash
# The project's entry points (the README's Quick start). Each installs what is missing first
# (Debian packages, Kokkos built from Debian's source package into .deps/), idempotently.
#
#   bash cmake/run.sh report [strided-report args]  build (release-perf) and run strided-report
#   bash cmake/run.sh test                          build and test the openmp preset (Kokkos 3.4:
#                                                   every test, on Serial and OpenMP)
#   bash cmake/run.sh kokkos4                       the tests against Kokkos 4.6.01: Threads (C++17,
#                                                   -march=native)
#                                                   and OpenMP (C++20 without deprecated code,
#                                                   Debug with AddressSanitizer + UBSan)
#   bash cmake/run.sh contract                      determinism probe built with -O3 -march=native
#                                                   -ffp-contract=fast (GCC, Clang) vs the default
#   bash cmake/run.sh asan                          build and test with AddressSanitizer + UBSan
#                                                   on Kokkos 3.4 OpenMP (CI runs kokkos4's instead)
#   bash cmake/run.sh fuzz [SECONDS]                libFuzzer (Clang 14) with ASan+UBSan on the fuzz
#                                                   program for SECONDS (600), from tests/fuzz/corpus
#                                                   (built at -O0 for 300 s or less, else -O1)
#   bash cmake/run.sh fuzz-coverage                 line coverage of include/, core/ and backends/
#                                                   reached by the fuzz corpus (llvm-cov report)
#   bash cmake/run.sh tsan                          the concurrency test under ThreadSanitizer
#                                                   (Kokkos 4.6.01 Serial+Threads, instrumented)
#   bash cmake/run.sh spack-check                   check the Spack recipe (no Spack needed)
#   bash cmake/run.sh format-check                  fail on any file clang-format would change
#   bash cmake/run.sh cuda-build                    nvcc build of everything against Kokkos 4.6.01
#                                                   CUDA (${STRIDED_CUDA_ARCH:-HOPPER90}), no GPU
#                                                   needed; checks per-kernel stack frames
#   bash cmake/run.sh gpu                           on a machine with an NVIDIA GPU: build for it,
#                                                   ctest, strided-report --only D, bits vs Serial;
#                                                   with STRIDED_GPU_PACK=DIR, run a gpu-pack instead
#   bash cmake/run.sh gpu-pack                      on a machine without a GPU (a login node): build
#                                                   what `gpu` runs for ${STRIDED_CUDA_ARCH:-HOPPER90}
#                                                   into build/gpu-pack-<arch>.tar.xz, with its libraries
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*" >&2; }
bootstrap() { bash cmake/bootstrap-deps.sh "$@"; }
# build_preset PRESET [cmake configure arguments]
build_preset() {
  cmake --preset "$@" >/dev/null
  cmake --build --preset "$1"
}
# ctest, then the thread counts the test programs report having run at (test_session.hpp).
test_preset() {
  ctest --preset "$1" --parallel "$(nproc)"
  local log="build/$1/Testing/Temporary/LastTest.log"
  [ -f "$log" ] && grep -ho 'strided test: Kokkos .*' "$log" | sort | uniq -c | sed 's/^/   /' >&2
  return 0
}
# The Kokkos 4.6.01 release source; CI has ../shared beside the clone. Not needed by the README.
kokkos4_tarball=${STRIDED_KOKKOS4_TARBALL:-../shared/deps/kokkos-4.6.01.tar.gz}
# Kokkos Kernels 4.6.01 for the contract component on the Kokkos 4 legs, beside that tarball.
kk4_tarball=${STRIDED_KOKKOSKERNELS4_TARBALL:-$(dirname "$kokkos4_tarball")/kokkos-kernels-4.6.01.tar.gz}
# Kokkos 4.6.01 CUDA for arch $1 (bootstrap: KOKKOS_SRC or ../shared/deps), configured with the
# cuda-kokkos4 preset into build/cuda-kokkos4-<arch>; extra cmake arguments after $1.
cuda_configure() {
  local arch=$1 lc
  shift
  lc=$(echo "$arch" | tr '[:upper:]' '[:lower:]')
  # Kokkos Kernels too where its tarball is (the contract component; AUTO finds none without).
  local kk=()
  [ -f "$kk4_tarball" ] && kk=(--kokkos-kernels4 "$kk4_tarball")
  STRIDED_BOOTSTRAP_CUDA4=$arch bootstrap --cuda4-only "${kk[@]}"
  # nvcc_wrapper finds nvcc in $CUDA_ROOT and the host compiler in NVCC_WRAPPER_DEFAULT_COMPILER
  export Kokkos_ROOT=$PWD/.deps/install/kokkos4-cuda-$lc CUDA_ROOT=${CUDA_HOME:-/usr/local/cuda}
  export KokkosKernels_ROOT=$Kokkos_ROOT
  export NVCC_WRAPPER_DEFAULT_COMPILER=${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}
  cuda_dir=build/cuda-kokkos4-$lc
  cmake --preset cuda-kokkos4 -B "$cuda_dir" "$@" >/dev/null
}

# What `gpu` runs: every test program, the determinism probe and the report (no benchmarks).
gpu_targets=(strided_core_tests strided_simd_transpose_tests strided_view_tests
  strided_no_allocation_test strided_kernel_tests strided_callable_tests strided_space_tests
  strided_plan_tests strided_concurrency_test strided_contraction_tests strided_exact_tests
  strided_determinism_probe strided-report strided_tensor_contraction_tests
  strided_contraction_probe)

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
    step "building and testing the openmp preset"
    build_preset openmp
    test_preset openmp
    ;;
  kokkos4)
    if [ ! -f "$kokkos4_tarball" ]; then
      step "skipping the Kokkos 4.x legs: $kokkos4_tarball not found (set STRIDED_KOKKOS4_TARBALL)"
      exit 0
    fi
    # The contract component (Kokkos Kernels 4.6.01) where its tarball is; AUTO finds none without.
    if [ -f "$kk4_tarball" ]; then
      bootstrap --kokkos4 "$kokkos4_tarball" --kokkos-kernels4 "$kk4_tarball"
      contract=(-DStrided_ENABLE_CONTRACT=ON)
    else
      step "no contract component on Kokkos 4: $kk4_tarball not found (set STRIDED_KOKKOSKERNELS4_TARBALL)"
      bootstrap --kokkos4 "$kokkos4_tarball"
      contract=(-DStrided_ENABLE_CONTRACT=AUTO)
    fi
    for preset in kokkos4-threads kokkos4-cxx20; do
      step "building and testing the $preset preset"
      build_preset "$preset" "${contract[@]}"
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
  fuzz)
    seconds=${1:-600}
    bootstrap
    if ! command -v clang++ >/dev/null || ! dpkg -s libfuzzer-14-dev >/dev/null 2>&1; then
      step "installing Debian's clang and libFuzzer"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends clang libfuzzer-14-dev >/dev/null
    fi
    # -O0 compiles the program in 1.5 minutes on 2 cores, -O1 (with UBSan) in 9 and then runs
    # inputs 4-6 times faster: a campaign longer than 5 minutes gets -O1.
    opt=-O0
    [ "$seconds" -gt 300 ] && opt=-O1
    step "building the libFuzzer target (Clang $opt, ASan+UBSan)"
    build_preset fuzz "-DCMAKE_CXX_FLAGS_RELEASE=$opt -gline-tables-only -march=native"
    # New inputs go to build/fuzz/corpus; tests/fuzz/corpus (the kept corpus) is only read.
    # A failure leaves crash-* and strided-fuzz-failure.bin in build/fuzz: add the crash input
    # to tests/fuzz/corpus, with a regression test outside the fuzzer.
    mkdir -p build/fuzz/corpus
    step "fuzzing for $seconds s"
    (cd build/fuzz && ./tests/fuzz/strided_fuzz -max_total_time="$seconds" -max_len=512 \
      -print_final_stats=1 -print_pcs=0 -print_funcs=0 corpus \
      ../../tests/fuzz/corpus 2>&1 | grep -v -E '^#[0-9]+[[:space:]]+(NEW|REDUCE)')
    ;;
  fuzz-coverage)
    bootstrap
    if ! command -v clang++ >/dev/null || ! command -v llvm-cov-14 >/dev/null; then
      step "installing Debian's clang and LLVM tools"
      export DEBIAN_FRONTEND=noninteractive
      apt-get update -qq && apt-get install -y -qq --no-install-recommends clang llvm-14 >/dev/null
    fi
    step "building the fuzz driver with source-based coverage"
    build_preset fuzz-coverage
    out=build/fuzz-coverage
    rm -f "$out"/corpus.profraw
    step "replaying tests/fuzz/corpus"
    LLVM_PROFILE_FILE=$out/corpus.profraw OMP_NUM_THREADS=1 \
      "$out"/tests/fuzz/strided_fuzz_driver tests/fuzz/corpus
    llvm-profdata-14 merge -o "$out"/corpus.profdata "$out"/corpus.profraw
    llvm-cov-14 report "$out"/tests/fuzz/strided_fuzz_driver -instr-profile="$out"/corpus.profdata \
      include core backends
    ;;
  tsan)
    if [ ! -f "$kokkos4_tarball" ]; then
      step "skipping the ThreadSanitizer leg: $kokkos4_tarball not found (set STRIDED_KOKKOS4_TARBALL)"
      exit 0
    fi
    bootstrap --kokkos4 "$kokkos4_tarball"
    step "building the concurrency test with ThreadSanitizer"
    cmake --preset tsan >/dev/null
    cmake --build --preset tsan --target strided_concurrency_test
    # Any report fails the run (halt_on_error), races inside Kokkos included.
    export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
    for n in 2 4; do
      ./build/tsan/tests/strided_concurrency_test --threads=$n
    done
    ;;
  format-check)
    command -v clang-format >/dev/null || bash cmake/bootstrap-deps.sh
    files=$(git ls-files '*.hpp' '*.cpp' '*.h')
    clang-format --dry-run -Werror $files
    echo "format-check: $(echo "$files" | wc -l) files formatted"
    ;;
  cuda-build)
    arch=${STRIDED_CUDA_ARCH:-HOPPER90}
    # --resource-usage: ptxas prints each kernel's registers, stack frame and spills
    cuda_configure "$arch" -DCMAKE_CXX_FLAGS=--resource-usage
    step "building every target with nvcc for $arch (log: $cuda_dir/build.log)"
    rc=0  # keep going past errors (-k 0) so that one build lists them all
    cmake --build "$cuda_dir" --parallel "${STRIDED_BUILD_JOBS:-$(nproc)}" -- -k 0 \
      >"$cuda_dir/build.log" 2>&1 || rc=$?
    grep -E '(error|Error)( |:|\()' "$cuda_dir/build.log" | grep -v '^ptxas info' | sort -u | head -n 100 >&2 || true
    step "per-kernel resource usage"
    python3 cmake/check_resource_usage.py "$cuda_dir/build.log" || rc=1
    [ "$rc" = 0 ] || { step "cuda-build FAILED (build or resource check)"; exit 1; }
    ;;
  gpu)
    gpu=$(nvidia-smi --query-gpu=name,compute_cap --format=csv,noheader 2>/dev/null | head -n 1 || true)
    [ -n "$gpu" ] || { echo "gpu: nvidia-smi finds no NVIDIA GPU" >&2; exit 1; }
    gpu_name=${gpu%,*} cc=${gpu##*, }
    # Compute capability -> Kokkos 4.6 arch (CUDA 13 compiles 7.5 and newer only).
    case "$cc" in
      7.0) arch=VOLTA70 ;; 7.2) arch=VOLTA72 ;; 7.5) arch=TURING75 ;; 8.0) arch=AMPERE80 ;;
      8.6) arch=AMPERE86 ;; 8.9) arch=ADA89 ;; 9.0) arch=HOPPER90 ;; 10.0) arch=BLACKWELL100 ;;
      12.0) arch=BLACKWELL120 ;;
      *) echo "gpu: $gpu_name has compute capability $cc, which Kokkos 4.6.01 does not know" >&2; exit 1 ;;
    esac
    step "$gpu_name (compute capability $cc): Kokkos_ARCH_$arch"
    skip=()
    if [ -n "${STRIDED_GPU_PACK:-}" ]; then
      pack=$STRIDED_GPU_PACK
      if [[ "$pack" == *.tar.xz ]]; then  # unpacks into build/
        mkdir -p build && tar -xJf "$pack" -C build && pack=build/$(basename "$pack" .tar.xz)
      fi
      cuda_dir=$(cd "$pack" && pwd)
      [ "$(cat "$cuda_dir/ARCH")" = "$arch" ] ||
        { echo "gpu: $cuda_dir was built for $(cat "$cuda_dir/ARCH"), this GPU is $arch" >&2; exit 1; }
      # The ctest files name the packing machine's paths: the build tree, then the source tree.
      read -r origin_root origin_build origin_cmake <"$cuda_dir/ORIGIN"
      find "$cuda_dir" -name CTestTestfile.cmake -exec sed -i -e "s#$origin_build#$cuda_dir#g" \
        -e "s#$origin_root/#$PWD/#g" -e "s#\"$origin_cmake\"#\"$(command -v cmake)\"#g" {} +
      export LD_LIBRARY_PATH=$cuda_dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
      skip=(-E strided_install_consumer)  # it builds against the install tree, which is not packed
    else
      cuda_configure "$arch"
      cmake --build "$cuda_dir" --parallel "$(nproc)"
    fi
    # The probe and the report first: the shortest runs, and the device's bits and bandwidth.
    fail=0
    step "determinism probe: Serial vs the default execution space (the GPU)"
    probe=$cuda_dir/tests/strided_determinism_probe
    "$probe" serial --threads=1 2>"$cuda_dir/probe.err" | grep -v '^space ' >"$cuda_dir/probe-serial.txt" || fail=1
    "$probe" default 2>>"$cuda_dir/probe.err" | grep -v '^space ' >"$cuda_dir/probe-default.txt" || fail=1
    # The D.* rows at the sizes of PERFORMANCE.md (the host rows are the CPU report's).
    step "strided-report --only D --json"
    "$cuda_dir/perf/strided-report" --only D --json --explain >"$cuda_dir/report.log" 2>&1 || fail=1
    step "ctest"
    ctest --test-dir "$cuda_dir" "${skip[@]}" --output-on-failure -j 8 \
      --timeout "${STRIDED_GPU_TEST_TIMEOUT:-600}" >"$cuda_dir/ctest.log" 2>&1 || fail=1
    python3 cmake/gpu_summary.py --gpu "$gpu_name" --ctest "$cuda_dir/ctest.log" \
      --report "$cuda_dir/report.log" --serial "$cuda_dir/probe-serial.txt" \
      --device "$cuda_dir/probe-default.txt" || fail=1
    exit "$fail"
    ;;
  gpu-pack)
    arch=${STRIDED_CUDA_ARCH:-HOPPER90}
    cuda_configure "$arch"
    # Only the targets this configuration has (the contraction suite needs Kokkos Kernels).
    available=$(cmake --build "$cuda_dir" --target help)
    targets=()
    for t in "${gpu_targets[@]}"; do grep -qw -- "$t" <<<"$available" && targets+=("$t"); done
    step "building what gpu runs with nvcc for $arch: ${targets[*]}"
    cmake --build "$cuda_dir" --parallel "${STRIDED_BUILD_JOBS:-$(nproc)}" --target "${targets[@]}"
    pack=${cuda_dir/cuda-kokkos4/gpu-pack}
    rm -rf "$pack" && mkdir -p "$pack/lib"
    (cd "$cuda_dir" && find . -name CTestTestfile.cmake -exec cp --parents {} "../../$pack" \; &&
      for t in "${targets[@]}"; do cp --parents {tests,perf}/"$t" "../../$pack" 2>/dev/null || true; done)
    # The libraries a GPU node may lack or have older (not the C library, not the driver's libcuda).
    ldd "$cuda_dir/tests/strided_space_tests" "$cuda_dir/tests/strided_exact_tests" |
      awk '$3 ~ /^\// {print $3}' | grep -v -E '/(libc|libm|libdl|libpthread|librt|ld-linux[^/]*)\.so' |
      sort -u | xargs -r cp -L -t "$pack/lib"
    echo "$arch" >"$pack/ARCH"
    echo "$PWD $PWD/$cuda_dir $(command -v cmake)" >"$pack/ORIGIN"
    tar -cf - -C build "$(basename "$pack")" | xz -T0 -6 >"$pack.tar.xz"
    step "$pack.tar.xz: $(du -sh "$pack.tar.xz" | cut -f1); on the GPU node, in a copy of this tree:
   STRIDED_GPU_PACK=$pack.tar.xz bash cmake/run.sh gpu"
    ;;
  *)
    sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
