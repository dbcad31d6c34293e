# Spack recipe for Strided (header-only, on Kokkos), for Spack 1.x and Spack 0.23.
#
# Strided has no public address yet, so the recipe names no homepage and no `git`: build a local
# clone, with `spack develop` (an environment), or by pointing `git` at the clone in packages.yaml.
# docs/spack.md has the full steps; in short:
#
# 1. A local package repository holding this file. Spack 1.x (package API v2) nests it under
#    spack_repo/<namespace>/, and `spack repo add` takes that inner directory:
#      spack repo create <dir> strided_local
#      mkdir -p <dir>/spack_repo/strided_local/packages/strided
#      cp cmake/spack/package.py <dir>/spack_repo/strided_local/packages/strided/
#      spack repo add <dir>/spack_repo/strided_local
#    Spack 0.23 (package API v1) puts repo.yaml and packages/ in <dir> itself:
#      spack repo create <dir> strided_local
#      mkdir -p <dir>/packages/strided && cp cmake/spack/package.py <dir>/packages/strided/
#      spack repo add <dir>
# 2. Build a clone in an environment (the source is the clone's working tree, edits included):
#      spack env create -d env && spack -e env add strided@main +openmp
#      spack -e env develop --path /path/to/clone strided@main && spack -e env install
#    or install the clone's `main` branch without an environment, with packages.yaml having
#      packages: {strided: {package_attributes: {git: /path/to/clone}}}
#    (`spack audit packages strided` needs that setting too: version main has no fetcher without
#    a `git`).
# 3. Tests: `--test=root` builds the unit tests and runs ctest before the install, but a spec
#    that is installed already is not rebuilt for it (exit 0, no test). Spack 1.x counts test
#    dependencies in the hash: `spack install --test=root --fresh-roots strided@main +openmp`,
#    or in an environment `spack -e env concretize -f --fresh-roots --test=root` then
#    `spack -e env install --test=root`. Spack 0.23, or to run them again: add `--overwrite -y`.
#    A develop build reuses its configured build directory; the recipe reconfigures it when its
#    Strided_ENABLE_TESTS differs from --test (see _reconfigure_for_tests).
# `python3 cmake/spack/check_recipe.py` checks this file without Spack.

import os
import re

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

    # No homepage and no `git`: the project has no public address yet. `spack develop` on a local
    # clone needs neither; a plain `spack install` takes `git` from packages.yaml
    # (package_attributes), see the header. The recipe reads no environment variable.

    maintainers("strided-maintainers")

    # The `license` directive exists from Spack 0.21 on; before that `license` is Python's builtin.
    if "license" in globals():
        license("Apache-2.0 WITH LLVM-exception")

    # The branch of the clone that `git` (packages.yaml) points at; `spack develop` builds the
    # clone's working tree instead.
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
    # Off by default, like +mpi: without it Strided stays a header-only package over Kokkos alone;
    # with it Kokkos Kernels (a compiled library, pinned by its own recipe to one Kokkos version)
    # joins the build and narrows the Kokkos versions the concretizer may choose.
    variant(
        "contract",
        default=False,
        description="The Strided::contract component: tensor contraction on Kokkos Kernels",
    )

    depends_on("cxx", type="build")
    depends_on("cmake@3.16:", type="build")
    # Kokkos 5 (C++20) opens once CI covers it; CI already builds Kokkos 4.6 without
    # deprecated code in C++20, which is the Kokkos 5 API.
    depends_on("kokkos@3.4:4")
    # Kokkos Kernels is pinned to one Kokkos version by its own recipe, so its range pairs with
    # the Kokkos range above (Kokkos Kernels X.Y.ZZ needs Kokkos X.Y.ZZ).
    depends_on("kokkos-kernels@3.4:4", when="+kokkos-kernels")
    # link: consumers of Strided::contract link the Kokkos Kernels that Strided was configured with.
    depends_on("kokkos-kernels@3.4:4", type=("build", "link"), when="+contract")
    # link: consumers of Strided::mpi link the MPI that Strided was configured with.
    depends_on("mpi", type=("build", "link"), when="+mpi")
    # MPFR is the oracle of the exact-tier tests (strided_exact_tests, built whenever MPFR is
    # found, with or without MPI) and of the MPI tests: a test dependency for every build.
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
        if self.spec.satisfies("+contract"):
            files.append(join_path("include", "strided", "contract.hpp"))
        if self.spec.satisfies("+benchmarks"):
            files += [join_path("bin", "strided-bench"), join_path("bin", "strided-report")]
        return files

    def _cxx(self):
        """The C++ compiler: hipcc for +rocm, nvcc_wrapper for a Kokkos with +wrapper, else the
        compiler of this package."""
        spec = self.spec
        if spec.satisfies("+rocm"):
            return spec["hip"].hipcc
        if spec["kokkos"].satisfies("+wrapper"):
            return self._kokkos_nvcc_wrapper()
        # A host Kokkos (or a CUDA Kokkos built by Clang): this package's own C++ compiler,
        # through Spack's compiler wrapper. Spack sets `spack_cxx` in this module before the
        # build phases (Spack 1.x: from depends_on("cxx")). Kokkos' `kokkos_cxx` would read
        # the `spack_cxx` of Kokkos' own module, which Spack 1.x leaves unset for a dependency.
        return spack_cxx  # noqa: F821

    def _kokkos_nvcc_wrapper(self):
        """nvcc_wrapper of a Kokkos with +wrapper."""
        try:  # Spack >= 1.0: a property of the Kokkos package (nvcc_wrapper's path for +wrapper)
            return self["kokkos"].kokkos_cxx
        except (TypeError, KeyError, AttributeError):
            pass  # Spack 0.x: packages are not subscriptable
        kokkos = self.spec["kokkos"]
        # Kokkos recipes of the Spack 0.x era set it on the spec in setup_dependent_package.
        return getattr(kokkos.package, "kokkos_cxx", None) or kokkos.kokkos_cxx

    def cmake_args(self):
        spec = self.spec
        args = [
            self.define("CMAKE_CXX_COMPILER", self._cxx()),
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            # With --test=root, CMakePackage's check phase runs ctest after the build.
            self.define("Strided_ENABLE_TESTS", bool(self.run_tests)),
            self.define_from_variant("Strided_ENABLE_BENCHMARKS", "benchmarks"),
            self.define_from_variant("Strided_ENABLE_KOKKOSKERNELS", "kokkos-kernels"),
            self.define_from_variant("Strided_ENABLE_MPI", "mpi"),
            # ON, not AUTO: +contract fails at configure time without its Kokkos Kernels.
            self.define_from_variant("Strided_ENABLE_CONTRACT", "contract"),
        ]
        if spec.satisfies("+mpi"):
            args.append(self.define("MPI_CXX_COMPILER", spec["mpi"].mpicxx))
        if spec.satisfies("~kokkos-kernels ~contract"):
            # No Kokkos Kernels that Spack did not ask for (one from an outside prefix).
            args.append(self.define("CMAKE_DISABLE_FIND_PACKAGE_KokkosKernels", True))
        else:
            args.append(self.define("KokkosKernels_ROOT", spec["kokkos-kernels"].prefix))
        return args

    @run_before("cmake")
    def _reconfigure_for_tests(self):
        """Makes a `spack develop` build reconfigure when --test changed.

        A develop build skips the cmake phase when its build directory is configured already
        (Spack 1.x: it holds a generated Makefile or build.ninja; Spack 0.23: a CMakeCache.txt),
        so Strided_ENABLE_TESTS would keep its cached value whatever --test says (the build
        directory is the same: on 0.23 the tests do not change the hash, and on 1.x an
        environment concretized with --test=root builds with and without --test). When the
        cache disagrees with --test, remove the cache and the generated build files: the cmake
        phase then runs again, with cmake_args(), in the same build directory (objects kept).
        """
        build_dir = self.build_directory
        pkg = getattr(self, "pkg", self)  # Spack runs callbacks on the package's builder
        cache = join_path(build_dir, "CMakeCache.txt")
        if not os.path.isfile(cache):
            return
        with open(cache) as f:
            cached = re.search(r"^Strided_ENABLE_TESTS:BOOL=(\w+)$", f.read(), re.M)
        cached_on = bool(cached) and cached.group(1).upper() in ("ON", "TRUE", "YES", "1")
        if cached_on == bool(pkg.run_tests):
            return
        for generated in ("CMakeCache.txt", "Makefile", "build.ninja"):
            path = join_path(build_dir, generated)
            if os.path.isfile(path):
                os.remove(path)
