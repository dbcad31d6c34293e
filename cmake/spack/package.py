# Spack recipe for Strided (header-only, on Kokkos), written for Spack 0.23 and Spack 1.x.
# To use it, put it in a local repository:
#   spack repo create <dir> strided_local
#   mkdir -p <repo packages dir>/strided && cp cmake/spack/package.py <repo packages dir>/strided/
#   spack repo add <dir>
# `version("main")` is cloned from `git` below. To build a local clone instead, use an environment:
#   spack env create -d env && spack -e env add strided@main
#   spack -e env develop --path /path/to/clone strided@main && spack -e env install
# Tests: `spack install --test=root strided` builds them and runs ctest before installing.
# `python3 cmake/spack/check_recipe.py` checks this file without Spack.

try:  # Spack >= 1.0: build systems live in the builtin package repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
    from spack_repo.builtin.build_systems.rocm import ROCmPackage
except ImportError:  # Spack 0.x exports them from spack.package
    pass

from spack.package import *


class Strided(CMakePackage, CudaPackage, ROCmPackage):
    """Cache-optimized, deterministic kernels over arbitrary strided N-d tensors on Kokkos
    (header-only)."""

    # Fixed addresses: Spack commands must work without any environment variable set.
    homepage = "https://github.com/strided/strided"
    git = "https://github.com/strided/strided.git"

    maintainers("strided-maintainers")

    # The `license` directive exists from Spack 0.21 on; before that `license` is Python's builtin.
    if "license" in globals():
        license("Apache-2.0 WITH LLVM-exception")

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

    # Unit tests follow `spack install --test=root` (see cmake_args), not a variant: they are
    # not installed, so building them is only useful when the check phase runs them.
    variant(
        "benchmarks",
        default=False,
        description="Build and install strided-bench (Google Benchmark) and strided-report",
    )
    variant(
        "kokkos-kernels",
        default=False,
        description="Compare with KokkosBlas in the benchmarks (needs Kokkos Kernels)",
    )
    variant(
        "mpi",
        default=False,
        description="The Strided::mpi component: exact global reductions over MPI ranks",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    # Kokkos 5 (C++20) opens once CI covers it; CI already builds Kokkos 4.6 without
    # deprecated code in C++20, which is the Kokkos 5 API.
    depends_on("kokkos@3.4:4")
    # Kokkos Kernels is pinned to one Kokkos version by its own recipe; leave its version open.
    depends_on("kokkos-kernels", when="+kokkos-kernels")
    # link: consumers of Strided::mpi link the MPI that Strided was configured with.
    depends_on("mpi", type=("build", "link"), when="+mpi")
    # The MPI tests compare with MPFR, an oracle independent of the library.
    depends_on("mpfr", type="test")
    # Test dependencies are concretized and put on CMAKE_PREFIX_PATH only with --test.
    depends_on("googletest@1.12:", type="test")
    # link: the installed executables load a shared libbenchmark through their RPATH.
    depends_on("benchmark@1.7:", type=("build", "link"), when="+benchmarks")

    # Kokkos builds for exactly one GPU architecture, so the variants of CudaPackage and
    # ROCmPackage, which take several values, are redefined single-valued (as Kokkos does), and
    # each value is passed on to Kokkos.
    for _backend, _name, _values, _description in (
        ("cuda", "cuda_arch", CudaPackage.cuda_arch_values, "CUDA architecture"),
        ("rocm", "amdgpu_target", ROCmPackage.amdgpu_targets, "AMD GPU architecture"),
    ):
        variant(
            _name,
            description=_description,
            values=("none",) + tuple(_values),
            default="none",
            multi=False,
            sticky=True,
            when=f"+{_backend}",
        )
        for _arch in _values:
            _dep = f"+{_backend} {_name}={_arch}"
            depends_on(f"kokkos {_dep}", when=_dep)
        conflicts(f"+{_backend}", when=f"{_name}=none")
    conflicts("+cuda", when="+rocm", msg="Kokkos enables at most one device backend")
    # perf/ uses KOKKOS_LAMBDA. Kokkos 3 needs the variant for device lambdas; with Kokkos 4 the
    # recipe would otherwise pass Kokkos_ENABLE_CUDA_LAMBDA=OFF, which 4.x rejects unless
    # deprecated code is on. The condition is on Strided only: `^kokkos@:4` in `when` is
    # self-referential for `spack audit`, and depends_on("kokkos@3.4:4") already bounds it.
    depends_on("kokkos+cuda_lambda", when="+cuda")
    # Kokkos' recipe refuses +cuda without +wrapper unless the compiler is Clang (or Cray);
    # `%gcc` in `when` reads the same on Spack 0.x (compiler) and 1.x (direct dependency).
    depends_on("kokkos+wrapper", when="+cuda %gcc")

    @property
    def sanity_check_is_file(self):
        files = [join_path("include", "strided", "strided.hpp")]
        if self.spec.satisfies("+benchmarks"):
            files += [join_path("bin", "strided-bench"), join_path("bin", "strided-report")]
        return files

    def _kokkos_cxx(self):
        """The C++ compiler Kokkos was built with (nvcc_wrapper when Kokkos has +wrapper)."""
        try:  # Spack >= 1.0: a property of the Kokkos package
            return self["kokkos"].kokkos_cxx
        except (TypeError, KeyError, AttributeError):
            pass  # Spack 0.x: packages are not subscriptable
        kokkos = self.spec["kokkos"]
        # Kokkos recipes of the Spack 0.x era set it on the spec in setup_dependent_package.
        return getattr(kokkos.package, "kokkos_cxx", None) or kokkos.kokkos_cxx

    def cmake_args(self):
        spec = self.spec
        if spec.satisfies("+rocm"):
            cxx = spec["hip"].hipcc
        else:
            cxx = self._kokkos_cxx()
        args = [
            self.define("CMAKE_CXX_COMPILER", cxx),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            # With --test=root, CMakePackage's check phase runs ctest after the build.
            self.define("Strided_ENABLE_TESTS", bool(self.run_tests)),
            self.define_from_variant("Strided_ENABLE_BENCHMARKS", "benchmarks"),
            self.define_from_variant("Strided_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define_from_variant("Strided_ENABLE_MPI", "mpi"),
        ]
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx))
        if spec.satisfies("~kokkos-kernels"):
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        return args
