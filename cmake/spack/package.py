# Spack recipe for Strided (header-only, on Kokkos). To use it, put it in a local repository:
#   spack repo create <dir> strided_local
#   mkdir -p <repo packages dir>/strided && cp cmake/spack/package.py <repo packages dir>/strided/
#   spack repo add <dir>
# Set STRIDED_GIT to where `version("main")` is cloned from (for example a local clone); the
# project's public address goes here once it has one.
import os

try:  # Spack >= 1.0: build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # Spack 0.x exports them from spack.package
    pass

from spack.package import *

_STRIDED_GIT = os.environ.get("STRIDED_GIT", "")


class Strided(CMakePackage, CudaPackage, ROCmPackage):
    """Cache-optimized, deterministic kernels over arbitrary strided N-d tensors on Kokkos
    (header-only)."""

    git = _STRIDED_GIT

    version("main", branch="main")

    # Strided uses the backends of the Kokkos it is built with; each host backend variant
    # requires the matching Kokkos variant.
    kokkos_host_backends = {
        "serial": (True, "Require the Kokkos Serial backend"),
        "openmp": (False, "Require the Kokkos OpenMP backend"),
        "threads": (False, "Require the Kokkos Threads backend"),
    }
    for _backend, (_default, _description) in kokkos_host_backends.items():
        variant(_backend, default=_default, description=_description)
        depends_on(f"kokkos+{_backend}", when=f"+{_backend}")

    variant("tests", default=False, description="Build the unit tests")
    variant("benchmarks", default=False, description="Build the Google Benchmark suite (perf/)")
    variant(
        "kokkos-kernels",
        default=False,
        description="Compare with KokkosBlas in the benchmarks (needs Kokkos Kernels)",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    depends_on("kokkos@3.4:")
    # Kokkos Kernels is pinned to one Kokkos version by its own recipe; leave its version open.
    depends_on("kokkos-kernels", when="+kokkos-kernels")
    depends_on("googletest@1.12:", type="build", when="+tests")
    depends_on("benchmark@1.7:", type="build", when="+benchmarks")

    for _arch in CudaPackage.cuda_arch_values:
        _cuda_dep = f"+cuda cuda_arch={_arch}"
        depends_on(f"kokkos {_cuda_dep}", when=_cuda_dep)
    for _arch in ROCmPackage.amdgpu_targets:
        _rocm_dep = f"+rocm amdgpu_target={_arch}"
        depends_on(f"kokkos {_rocm_dep}", when=_rocm_dep)
    conflicts("+cuda", when="cuda_arch=none")
    conflicts("+rocm", when="amdgpu_target=none")
    conflicts("+cuda", when="+rocm", msg="Kokkos enables at most one device backend")
    # perf/ uses KOKKOS_LAMBDA; Kokkos 5 always enables device lambdas.
    depends_on("kokkos+cuda_lambda", when="+cuda ^kokkos@:4")

    sanity_check_is_file = [join_path("include", "strided", "strided.hpp")]

    def cmake_args(self):
        spec = self.spec
        if spec.satisfies("+rocm"):
            cxx = spec["hip"].hipcc
        else:
            cxx = spec["kokkos"].kokkos_cxx
        args = [
            self.define("CMAKE_CXX_COMPILER", cxx),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define_from_variant("Strided_ENABLE_TESTS", "tests"),
            self.define_from_variant("Strided_ENABLE_BENCHMARKS", "benchmarks"),
            self.define_from_variant("Strided_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
        ]
        if spec.satisfies("~kokkos-kernels"):
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        return args
