#!/usr/bin/env bash
# Installs what Strided needs on Debian 12 and builds Kokkos 3.4.01 from Debian's own trilinos
# source package into a cached prefix (Debian's binary Kokkos is Serial-only). Idempotent: every
# step leaves a stamp keyed on its inputs and is skipped when the stamp matches.
#
#   cmake/bootstrap-deps.sh [--deps-dir DIR] [--jobs N] [--no-apt] [--kokkos4 TARBALL]
#                           [--kokkos-kernels4 TARBALL] [--cuda4-only]
#
# Result: DIR/install/kokkos-openmp   Kokkos Serial+OpenMP and Kokkos Kernels (no ETI)
#         DIR/install/kokkos-threads  Kokkos Serial+Threads (3.4 allows one host-parallel backend)
#         DIR/install/kokkos-serial   Kokkos Serial only (the `serial` preset)
# Opt-in (never by default, never in CI): STRIDED_BOOTSTRAP_CUDA=<arch>, a Kokkos 3.4 CUDA arch
# such as AMPERE80 (3.4 has no HOPPER90; sm_80 code runs on Hopper through PTX), also builds
#         DIR/install/kokkos-cuda     Kokkos Serial+OpenMP+Cuda (nvcc_wrapper, CUDA at $CUDA_HOME
#                                     or /usr/local/cuda) from a copy DIR/src/kokkos-cuda13
#                                     patched with cmake/patches/kokkos-3.4.01-cuda13.patch
#   STRIDED_BOOTSTRAP_CUDA=AMPERE80 cmake/bootstrap-deps.sh   (then Kokkos_ROOT=... --preset cuda)
# Opt-in: STRIDED_BOOTSTRAP_CUDA4=<arch>, a Kokkos 4.6 CUDA arch such as HOPPER90, also builds
#         DIR/install/kokkos4-cuda-<arch> Kokkos 4.6.01 Serial+OpenMP+Cuda (nvcc_wrapper of that
#                                     tree) from $KOKKOS_SRC (a source directory or .tar.gz) or
#                                     ../shared/deps/kokkos-4.6.01.tar.gz (checksum checked),
#                                     patched with cmake/patches/kokkos-4.6.01-cuda13.patch
#   With --cuda4-only, only that prefix (no Debian source, no host prefixes: for GPU machines).
#   STRIDED_BOOTSTRAP_CUDA4=HOPPER90 cmake/bootstrap-deps.sh --cuda4-only  (then --preset cuda-kokkos4)
# With --kokkos4 TARBALL (the Kokkos 4.6.01 release source, checked against its pinned SHA-256;
# CI passes ../shared/deps/kokkos-4.6.01.tar.gz), also the CI legs' Kokkos 4 prefixes:
#         DIR/install/kokkos4-threads Kokkos 4.6.01 Serial+Threads, C++17
#         DIR/install/kokkos4-cxx20   Kokkos 4.6.01 Serial+OpenMP, C++20 without deprecated code
#                                     (Kokkos_ENABLE_DEPRECATED_CODE_4=OFF: the API Kokkos 5 keeps)
#         DIR/install/kokkos4-tsan    Kokkos 4.6.01 Serial+Threads built with -fsanitize=thread
# With --kokkos-kernels4 TARBALL too (Kokkos Kernels 4.6.01, checked against its pinned SHA-256;
# run.sh passes ../shared/deps/kokkos-kernels-4.6.01.tar.gz), a small Kokkos Kernels (BLAS and
# Batched, no ETI, no tests) in the prefixes of the legs that run the contraction tests:
#         DIR/install/kokkos4-threads, kokkos4-cxx20  + Kokkos Kernels 4.6.01
# No archive host is named here: the deb-src entry is derived from the system's apt sources.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
deps="$here/../.deps"
jobs=$(nproc)
use_apt=1
kokkos4_tarball=
kk4_tarball=
cuda4_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --deps-dir) deps=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --no-apt) use_apt=0; shift ;;
    --kokkos4) kokkos4_tarball=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --kokkos-kernels4) kk4_tarball=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --cuda4-only) cuda4_only=1; shift ;;
    *) echo "bootstrap-deps: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$deps"
deps=$(cd "$deps" && pwd)
stamps="$deps/stamps"
mkdir -p "$stamps"

TRILINOS_ORIG_SHA256=${TRILINOS_ORIG_SHA256:-0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90}
KOKKOS4_SHA256=d8a8a5e15331c46b900d3f75d2b62b0b32f067b126a4a75d465224c899765084
KOKKOSKERNELS4_SHA256=95b9357f37ab3b9c3913c00741acb2501831c28ea8664de67818ae79c69c5908
log() { printf '[bootstrap-deps] %s\n' "$*" >&2; }
t0=$(date +%s)

# --- 1. Debian packages (only the missing ones) -------------------------------------------------
# ccache: rebuilds after a touched or reverted header hit the cache (the build never needs it).
packages=(cmake ninja-build g++ libgtest-dev googletest libbenchmark-dev clang-format
          tar gzip ca-certificates libopenmpi-dev openmpi-bin libmpfr-dev ccache)
if [ -n "${STRIDED_BOOTSTRAP_CUDA:-}${STRIDED_BOOTSTRAP_CUDA4:-}" ]; then packages+=(patch); fi
# A GPU machine may reach no archive: ask apt only for what the CUDA build and its tests need.
if [ "$cuda4_only" = 1 ]; then packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev tar gzip patch); fi
if [ "$use_apt" = 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

cxx=${CXX:-c++}
compiler_id=$("$cxx" --version | head -n 1)
generator=(-G Ninja)
command -v ninja >/dev/null 2>&1 || generator=()

stamp_ok() { [ -f "$stamps/$1" ] && [ "$(cat "$stamps/$1")" = "$2" ]; }
key_of() { printf '%s\n' "$@" | sha256sum | cut -d' ' -f1; }

kokkos_common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
               -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_COMPILER="$cxx")
omp_prefix="$deps/install/kokkos-openmp"
thr_prefix="$deps/install/kokkos-threads"
ser_prefix="$deps/install/kokkos-serial"
kokkos_omp_args=("${kokkos_common[@]}" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
                 -DCMAKE_INSTALL_PREFIX="$omp_prefix")
kokkos_thr_args=("${kokkos_common[@]}" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_PTHREAD=ON
                 -DCMAKE_INSTALL_PREFIX="$thr_prefix")
kokkos_ser_args=("${kokkos_common[@]}" -DKokkos_ENABLE_SERIAL=ON -DCMAKE_INSTALL_PREFIX="$ser_prefix")
kk_args=("${kokkos_common[@]}" -DKokkos_ROOT="$omp_prefix" -DCMAKE_INSTALL_PREFIX="$omp_prefix"
         -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF
         -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_ENABLE_TESTS=OFF)

key_omp=$(key_of "$TRILINOS_ORIG_SHA256" "$compiler_id" "${kokkos_omp_args[@]}")
key_thr=$(key_of "$TRILINOS_ORIG_SHA256" "$compiler_id" "${kokkos_thr_args[@]}")
key_ser=$(key_of "$TRILINOS_ORIG_SHA256" "$compiler_id" "${kokkos_ser_args[@]}")
key_kk=$(key_of "$key_omp" "${kk_args[@]}")

# Kokkos 4.6.01 (opt-in with --kokkos4): one prefix per CI leg.
k4_names=(kokkos4-threads kokkos4-cxx20 kokkos4-tsan)
declare -A k4_args k4_keys
if [ -n "$kokkos4_tarball" ]; then
  k4_base=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
           -DCMAKE_CXX_COMPILER="$cxx" -DKokkos_ENABLE_SERIAL=ON)
  k4_args[kokkos4-threads]="-DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_THREADS=ON"
  k4_args[kokkos4-cxx20]="-DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF"
  # ThreadSanitizer must see Kokkos' own synchronization, so Kokkos is instrumented too.
  k4_args[kokkos4-tsan]="-DCMAKE_CXX_STANDARD=17 -DKokkos_ENABLE_THREADS=ON -DCMAKE_CXX_FLAGS=-fsanitize=thread"
  for name in "${k4_names[@]}"; do
    k4_keys[$name]=$(key_of "$KOKKOS4_SHA256" "$compiler_id" "${k4_base[@]}" ${k4_args[$name]} "$deps/install/$name")
  done
fi
# Kokkos Kernels 4.6.01 (with --kokkos4 and --kokkos-kernels4), installed into the Kokkos 4
# prefixes named here; keyed on that Kokkos' key, so a rebuilt Kokkos rebuilds it.
kk4_names=(kokkos4-threads kokkos4-cxx20)
declare -A kk4_keys
kk4_common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_EXTENSIONS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
            -DCMAKE_CXX_COMPILER="$cxx" -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF
            -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON -DKokkosKernels_ENABLE_COMPONENT_BATCHED=ON
            -DKokkosKernels_ADD_DEFAULT_ETI=OFF -DKokkosKernels_ENABLE_TESTS=OFF)
if [ -n "$kokkos4_tarball" ] && [ -n "$kk4_tarball" ]; then
  for name in "${kk4_names[@]}"; do
    kk4_keys[$name]=$(key_of "$KOKKOSKERNELS4_SHA256" "${k4_keys[$name]}" "${kk4_common[@]}")
  done
fi
kokkos4_ready() {
  [ -z "$kokkos4_tarball" ] && return 0
  for name in "${k4_names[@]}"; do
    stamp_ok "$name" "${k4_keys[$name]}" || return 1
  done
  [ -z "$kk4_tarball" ] && return 0
  for name in "${kk4_names[@]}"; do
    stamp_ok "kokkoskernels4-$name" "${kk4_keys[$name]}" || return 1
  done
}

cuda_arch=${STRIDED_BOOTSTRAP_CUDA:-}
if [ -n "$cuda_arch" ]; then
  cuda_home=${CUDA_HOME:-/usr/local/cuda}
  [ -x "$cuda_home/bin/nvcc" ] || { log "STRIDED_BOOTSTRAP_CUDA: no $cuda_home/bin/nvcc (set CUDA_HOME)"; exit 1; }
  cuda_patch="$here/patches/kokkos-3.4.01-cuda13.patch"
  cuda_src="$deps/src/kokkos-cuda13"
  cuda_prefix="$deps/install/kokkos-cuda"
  cuda_host_cxx=${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}
  # nvcc_wrapper takes nvcc from $CUDA_ROOT and the host compiler from NVCC_WRAPPER_DEFAULT_COMPILER
  export CUDA_ROOT=$cuda_home NVCC_WRAPPER_DEFAULT_COMPILER=$cuda_host_cxx
  kokkos_cuda_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
                    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_COMPILER="$cuda_src/bin/nvcc_wrapper"
                    -DCUDAToolkit_ROOT="$cuda_home" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
                    -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_"$cuda_arch"=ON
                    -DCMAKE_INSTALL_PREFIX="$cuda_prefix")
  key_cuda_src=$(key_of "$TRILINOS_ORIG_SHA256" "$(sha256sum <"$cuda_patch")")
  key_cuda=$(key_of "$key_cuda_src" "$("$cuda_host_cxx" --version | head -n 1)" \
                    "$("$cuda_home/bin/nvcc" --version | tail -n 1)" "${kokkos_cuda_args[@]}")
fi

# extract_once NAME SHA256 TARBALL DIR: DIR holds TARBALL's tree (checked against SHA256) once.
extract_once() {
  local name=$1 sha=$2 tarball=$3 dir=$4
  stamp_ok "$name" "$sha" && [ -f "$dir/CMakeLists.txt" ] && return 0
  echo "$sha  $tarball" | sha256sum -c --quiet || { log "checksum mismatch for $tarball"; exit 1; }
  log "extracting $(basename "$tarball")"
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tarball" -C "$dir" --strip-components=1
  echo "$sha" >"$stamps/$name"
}

build_install() { # name key source-dir args...
  local name=$1 key=$2 dir=$3; shift 3
  if stamp_ok "$name" "$key"; then log "$name: cached"; return; fi
  local b="$deps/build/$name" s
  s=$(date +%s)
  rm -rf "$b"
  log "$name: configure + build + install"
  cmake "${generator[@]}" -S "$dir" -B "$b" "$@" >"$deps/$name.log" 2>&1 ||
    { tail -n 30 "$deps/$name.log"; exit 1; }
  cmake --build "$b" --parallel "$jobs" >>"$deps/$name.log" 2>&1 || { tail -n 30 "$deps/$name.log"; exit 1; }
  cmake --install "$b" >>"$deps/$name.log" 2>&1
  rm -rf "$b"
  echo "$key" >"$stamps/$name"
  log "$name: done in $(( $(date +%s) - s )) s"
}

# --- Kokkos 4.6.01 with CUDA (opt-in): independent of the Debian source and the host prefixes ---
cuda4_arch=${STRIDED_BOOTSTRAP_CUDA4:-}
[ "$cuda4_only" = 1 ] && [ -z "$cuda4_arch" ] && { log "--cuda4-only needs STRIDED_BOOTSTRAP_CUDA4"; exit 2; }
build_cuda4() {
  local cuda_home=${CUDA_HOME:-/usr/local/cuda} src=${KOKKOS_SRC:-$here/../../shared/deps/kokkos-4.6.01.tar.gz}
  local arch_lc patch4="$here/patches/kokkos-4.6.01-cuda13.patch" tree="$deps/src/kokkos4-cuda13" id
  arch_lc=$(echo "$cuda4_arch" | tr '[:upper:]' '[:lower:]')
  [ -x "$cuda_home/bin/nvcc" ] || { log "STRIDED_BOOTSTRAP_CUDA4: no $cuda_home/bin/nvcc (set CUDA_HOME)"; exit 1; }
  [ -e "$src" ] || { log "STRIDED_BOOTSTRAP_CUDA4: no Kokkos source at $src (set KOKKOS_SRC)"; exit 1; }
  src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
  # The source's identity: the tarball's checksum, or a directory's path and top CMakeLists.txt.
  if [ -d "$src" ]; then id="$src $(sha256sum <"$src/CMakeLists.txt")"; else id=$(sha256sum <"$src"); fi
  local key_src prefix="$deps/install/kokkos4-cuda-$arch_lc" host_cxx=${NVCC_WRAPPER_DEFAULT_COMPILER:-g++}
  key_src=$(key_of "$id" "$(sha256sum <"$patch4")")
  if ! stamp_ok kokkos4-cuda13-src "$key_src" || [ ! -f "$tree/CMakeLists.txt" ]; then
    # Only the pinned default tarball has a known checksum; a KOKKOS_SRC is the user's choice.
    if [ -z "${KOKKOS_SRC:-}" ]; then
      echo "$KOKKOS4_SHA256  $src" | sha256sum -c --quiet || { log "checksum mismatch for $src"; exit 1; }
    fi
    log "copying $(basename "$src") to $tree and applying $(basename "$patch4")"
    rm -rf "$tree" && mkdir -p "$tree"
    if [ -d "$src" ]; then cp -a "$src/." "$tree/"; else tar -xzf "$src" -C "$tree" --strip-components=1; fi
    patch -p1 -s -d "$tree" <"$patch4"
    echo "$key_src" >"$stamps/kokkos4-cuda13-src"
  fi
  grep -qi "^check_cuda_arch($cuda4_arch " "$tree/cmake/kokkos_arch.cmake" ||
    { log "STRIDED_BOOTSTRAP_CUDA4=$cuda4_arch is not a CUDA arch of this Kokkos; known:" \
        "$(sed -n 's/^check_cuda_arch(\([A-Z0-9]*\) .*/\1/Ip' "$tree/cmake/kokkos_arch.cmake" | tr '\n' ' ')"; exit 1; }
  # nvcc_wrapper takes nvcc from $CUDA_ROOT and the host compiler from NVCC_WRAPPER_DEFAULT_COMPILER
  export CUDA_ROOT=$cuda_home NVCC_WRAPPER_DEFAULT_COMPILER=$host_cxx
  local args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
              -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_COMPILER="$tree/bin/nvcc_wrapper"
              -DCUDAToolkit_ROOT="$cuda_home" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
              -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_"$cuda4_arch"=ON
              -DCMAKE_INSTALL_PREFIX="$prefix")
  local key_cuda
  key_cuda=$(key_of "$key_src" "$("$host_cxx" --version | head -n 1)" \
    "$("$cuda_home/bin/nvcc" --version | tail -n 1)" "${args[@]}")
  build_install "kokkos4-cuda-$arch_lc" "$key_cuda" "$tree" "${args[@]}"
  # Kokkos Kernels 4.6.01 into the same prefix (the contract component on the GPU), with no
  # CUDA TPL chosen by default: cuBLAS would replace the GEMM whose bits the component promises.
  [ -n "$kk4_tarball" ] || return 0
  local kk_tree="$deps/src/kokkos-kernels-4.6.01"
  extract_once kokkoskernels4-extract "$KOKKOSKERNELS4_SHA256" "$kk4_tarball" "$kk_tree"
  local kk_args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
                 -DCMAKE_CXX_COMPILER="$tree/bin/nvcc_wrapper" -DKokkos_ROOT="$prefix"
                 -DKokkosKernels_ENABLE_ALL_COMPONENTS=OFF -DKokkosKernels_ENABLE_COMPONENT_BLAS=ON
                 -DKokkosKernels_ENABLE_COMPONENT_BATCHED=ON -DKokkosKernels_ADD_DEFAULT_ETI=OFF
                 -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_NO_DEFAULT_CUDA_TPLS=ON
                 -DCMAKE_INSTALL_PREFIX="$prefix")
  build_install "kokkoskernels4-cuda-$arch_lc" "$(key_of "$key_cuda" "$KOKKOSKERNELS4_SHA256" "${kk_args[@]}")" \
    "$kk_tree" "${kk_args[@]}"
}

if [ -n "$cuda4_arch" ]; then build_cuda4; fi
if [ "$cuda4_only" = 1 ]; then exit 0; fi

if stamp_ok kokkos-openmp "$key_omp" && stamp_ok kokkos-threads "$key_thr" &&
   stamp_ok kokkos-serial "$key_ser" && stamp_ok kokkoskernels "$key_kk" &&
   [ -f "$omp_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] &&
   [ -f "$thr_prefix/lib/cmake/Kokkos/KokkosConfig.cmake" ] &&
   { [ -z "$cuda_arch" ] || stamp_ok kokkos-cuda "$key_cuda"; } && kokkos4_ready; then
  log "Kokkos prefixes up to date in $deps/install ($(( $(date +%s) - t0 )) s)"
  exit 0
fi

# --- 2. Kokkos sources from Debian's trilinos source package -----------------------------------
src="$deps/src/trilinos-13.2.0"
if ! stamp_ok extract "$TRILINOS_ORIG_SHA256" || [ ! -f "$src/kokkos/CMakeLists.txt" ]; then
  dl="$deps/download"
  mkdir -p "$dl"
  orig=$(ls "$dl"/trilinos_*.orig.tar.* 2>/dev/null | head -n 1 || true)
  if [ -z "$orig" ] || ! echo "$TRILINOS_ORIG_SHA256  $orig" | sha256sum -c --quiet 2>/dev/null; then
    log "fetching the trilinos source package through apt (deb-src derived from the system sources)"
    apt_tmp=$(mktemp -d)
    trap 'rm -rf "$apt_tmp"' EXIT
    mkdir -p "$apt_tmp/etc" "$apt_tmp/lists/partial" "$apt_tmp/cache/archives/partial"
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      awk -v cn="$codename" 'BEGIN{RS="";ORS="\n\n"}
        { u="";s="";su=""; n=split($0,L,"\n")
          for(i=1;i<=n;i++){ if(L[i]~/^URIs:/)u=L[i]; if(L[i]~/^Signed-By:/)s=L[i]; if(L[i]~/^Suites:/)su=L[i] }
          if ((" " su " ") !~ (" " cn " ")) next
          print "Types: deb-src\n" u "\nSuites: " cn "\nComponents: main\n" s; exit }' \
        /etc/apt/sources.list.d/debian.sources >"$apt_tmp/etc/src.sources"
    fi
    if [ ! -s "$apt_tmp/etc/src.sources" ]; then
      # legacy one-line format: "deb [opts] URI codename components"
      cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v cn="$codename" '$1=="deb" { for(i=2;i<=NF;i++) if($i==cn){ $1="deb-src"; $(i+1)="main"; NF=i+1; print; exit } }' \
        >"$apt_tmp/etc/src.list"
    fi
    apt_opts=(-oDir::Etc::SourceList=/dev/null -oDir::Etc::SourceParts="$apt_tmp/etc"
              -oDir::State::Lists="$apt_tmp/lists" -oDir::Cache="$apt_tmp/cache"
              -oDir::Cache::pkgcache= -oDir::Cache::srcpkgcache= -oAPT::Sandbox::User=root -qq)
    apt-get "${apt_opts[@]}" update
    (cd "$dl" && apt-get "${apt_opts[@]}" source --download-only trilinos >/dev/null)
    orig=$(ls "$dl"/trilinos_*.orig.tar.* | head -n 1)
    echo "$TRILINOS_ORIG_SHA256  $orig" | sha256sum -c --quiet ||
      { [ "$TRILINOS_ORIG_SHA256" = any ] || { log "checksum mismatch for $orig"; exit 1; }; }
  fi
  log "extracting kokkos and kokkos-kernels from $(basename "$orig")"
  rm -rf "$src" && mkdir -p "$src"
  tar -xzf "$orig" -C "$src" --strip-components=2 --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  echo "$TRILINOS_ORIG_SHA256" >"$stamps/extract"
fi

build_install kokkos-openmp "$key_omp" "$src/kokkos" "${kokkos_omp_args[@]}"
stamp_ok kokkos-openmp "$key_omp" && ! stamp_ok kokkoskernels "$key_kk" && rm -f "$stamps/kokkoskernels"
build_install kokkoskernels "$key_kk" "$src/kokkos-kernels" "${kk_args[@]}"
build_install kokkos-threads "$key_thr" "$src/kokkos" "${kokkos_thr_args[@]}"
build_install kokkos-serial "$key_ser" "$src/kokkos" "${kokkos_ser_args[@]}"
if [ -n "$cuda_arch" ]; then
  grep -q "^CHECK_CUDA_ARCH($cuda_arch " "$src/kokkos/cmake/kokkos_arch.cmake" ||
    { log "STRIDED_BOOTSTRAP_CUDA=$cuda_arch is not a Kokkos 3.4 CUDA arch; known:" \
        "$(sed -n 's/^CHECK_CUDA_ARCH(\([A-Z0-9]*\) .*/\1/p' "$src/kokkos/cmake/kokkos_arch.cmake" | tr '\n' ' ')"; exit 1; }
  if ! stamp_ok kokkos-cuda13-src "$key_cuda_src" || [ ! -f "$cuda_src/CMakeLists.txt" ]; then
    log "copying kokkos to $cuda_src and applying $(basename "$cuda_patch")"
    rm -rf "$cuda_src" && cp -a "$src/kokkos" "$cuda_src"
    patch -p1 -s -d "$cuda_src" <"$cuda_patch"
    echo "$key_cuda_src" >"$stamps/kokkos-cuda13-src"
  fi
  build_install kokkos-cuda "$key_cuda" "$cuda_src" "${kokkos_cuda_args[@]}"
fi
if [ -n "$kokkos4_tarball" ] && ! kokkos4_ready; then
  k4_src="$deps/src/kokkos-4.6.01"
  extract_once kokkos4-extract "$KOKKOS4_SHA256" "$kokkos4_tarball" "$k4_src"
  for name in "${k4_names[@]}"; do
    # shellcheck disable=SC2086 # k4_args holds several words
    build_install "$name" "${k4_keys[$name]}" "$k4_src" "${k4_base[@]}" ${k4_args[$name]} \
      -DCMAKE_INSTALL_PREFIX="$deps/install/$name"
  done
  if [ -n "$kk4_tarball" ]; then
    kk4_src="$deps/src/kokkos-kernels-4.6.01"
    extract_once kokkoskernels4-extract "$KOKKOSKERNELS4_SHA256" "$kk4_tarball" "$kk4_src"
    for name in "${kk4_names[@]}"; do
      build_install "kokkoskernels4-$name" "${kk4_keys[$name]}" "$kk4_src" "${kk4_common[@]}" \
        -DKokkos_ROOT="$deps/install/$name" -DCMAKE_INSTALL_PREFIX="$deps/install/$name"
    done
  fi
fi
log "dependencies ready in $deps/install ($(( $(date +%s) - t0 )) s)"
