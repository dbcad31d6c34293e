#!/usr/bin/env python3
"""Checks cmake/spack/package.py without Spack: python3 cmake/spack/check_recipe.py [recipe]

Loads the recipe against small stand-ins for `spack.package` and
`spack_repo.builtin.build_systems.*` that record the directives, asserts that the known defects
cannot come back, and evaluates cmake_args() for a few variant combinations. Standard library only.
"""
import os
import py_compile
import re
import sys
import tempfile
import types

HERE = os.path.dirname(os.path.abspath(__file__))
RECIPE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "package.py")
RECORD = []  # (directive, args, kwargs) in declaration order
SPACK_CXX = "/spack/lib/spack/env/gcc/g++"  # Spack's wrapper of the package's C++ compiler


class Spec:
    """A concrete spec, just enough of it: boolean variants, dependencies, satisfies()."""

    def __init__(self, variants, deps=None, **attributes):
        self.variants = {k: types.SimpleNamespace(value=v) for k, v in variants.items()}
        self.deps = deps or {}
        self.__dict__.update(attributes)

    def __getitem__(self, name):
        return self.deps[name]

    def satisfies(self, constraint):
        for token in constraint.split():
            if token[0] not in "+~" or token[1:] not in self.variants:
                raise AssertionError(f"the stub cannot evaluate satisfies({constraint!r})")
            if self.variants[token[1:]].value != (token[0] == "+"):
                return False
        return True


class CMakePackage:
    def __init__(self, spec, run_tests, dep_packages):
        self.spec, self.run_tests, self._dep_packages = spec, run_tests, dep_packages

    def __getitem__(self, name):  # Spack >= 1.0 only: the package of a dependency
        if self._dep_packages is None:
            raise TypeError(f"'{type(self).__name__}' object is not subscriptable")
        return self._dep_packages[name]

    @staticmethod
    def define(name, value):
        if isinstance(value, bool):
            return f"-D{name}:BOOL={'ON' if value else 'OFF'}"
        return f"-D{name}:STRING={value}"

    def define_from_variant(self, name, variant):
        return self.define(name, self.spec.variants[variant].value)


class CudaPackage:
    cuda_arch_values = ("70", "80", "90")


class ROCmPackage:
    amdgpu_targets = ("gfx90a", "gfx942")


def make_stubs(spack_1x, has_license):
    """The sys.modules entries of one Spack generation."""
    pkg = types.ModuleType("spack.package")
    names = ["version", "variant", "depends_on", "conflicts", "requires", "maintainers", "patch"]
    for name in names + (["license"] if has_license else []):
        setattr(pkg, name, lambda *a, _name=name, **k: RECORD.append((_name, a, k)))
    pkg.join_path = os.path.join

    def run_before(phase):
        def register(function):
            RECORD.append(("run_before", (phase, function.__name__), {}))
            return function
        return register
    pkg.run_before = run_before
    mods = {"spack": types.ModuleType("spack"), "spack.package": pkg}
    systems = {"cmake": CMakePackage, "cuda": CudaPackage, "rocm": ROCmPackage}
    if not spack_1x:  # Spack 0.x exports the build systems from spack.package
        for cls in systems.values():
            setattr(pkg, cls.__name__, cls)
        return mods
    for parent in ("spack_repo", "spack_repo.builtin", "spack_repo.builtin.build_systems"):
        mods[parent] = types.ModuleType(parent)
    for sub, cls in systems.items():
        mod = types.ModuleType(f"spack_repo.builtin.build_systems.{sub}")
        setattr(mod, cls.__name__, cls)
        mods[mod.__name__] = mod
    return mods


def load_recipe(spack_1x, has_license=True):
    """Executes the recipe with the stubs in place; returns its class and its directives."""
    def is_stub(name):
        return name.split(".")[0] in ("spack", "spack_repo")
    saved = {k: sys.modules.pop(k) for k in [k for k in sys.modules if is_stub(k)]}
    sys.modules.update(make_stubs(spack_1x, has_license))
    del RECORD[:]
    try:
        namespace = {"__name__": "strided_recipe", "__file__": RECIPE}
        with open(RECIPE) as f:
            exec(compile(f.read(), RECIPE, "exec"), namespace)
        return namespace["Strided"], list(RECORD)
    finally:
        for name in [k for k in sys.modules if is_stub(k)]:
            del sys.modules[name]
        sys.modules.update(saved)


CHECKS = []
Strided, DIRECTIVES = None, []


def check(description):
    def register(function):
        CHECKS.append((description, function))
        return function
    return register


def name_of(spec):
    return re.match(r"[\w-]*", spec.strip()).group(0)


def deps(name):
    return [(a[0], k) for d, a, k in DIRECTIVES if d == "depends_on" and name_of(a[0]) == name]


def types_of(kwargs):
    deptype = kwargs.get("type", ("build", "link"))
    return (deptype,) if isinstance(deptype, str) else deptype


@check("package.py byte-compiles")
def _():
    with tempfile.TemporaryDirectory() as scratch:
        py_compile.compile(RECIPE, cfile=os.path.join(scratch, "package.pyc"), doraise=True)


@check("loads on Spack 0.x: build systems from spack.package, no license directive")
def _():
    cls, record = load_recipe(spack_1x=False, has_license=False)
    assert issubclass(cls, CMakePackage) and all(d != "license" for d, _, _ in record)


@check("loads on Spack 1.x: build systems from spack_repo.builtin.build_systems")
def _():
    global Strided, DIRECTIVES
    Strided, DIRECTIVES = load_recipe(spack_1x=True)
    assert issubclass(Strided, (CMakePackage, CudaPackage, ROCmPackage))


@check("no invented public address (no homepage, no git) and no environment variables")
def _():
    with open(RECIPE) as f:
        reads_env = re.search(r"\bos\.environ|\bgetenv\b|\benviron\b", f.read())
    assert not reads_env, "the recipe reads the environment"
    # Strided has no public address yet: `git` comes from packages.yaml (package_attributes) or
    # the source from `spack develop`.
    for attr in ("homepage", "git", "url"):
        assert attr not in vars(Strided), f"{attr} = {vars(Strided)[attr]!r}"


@check("the header documents the Spack 1.x repository layout (spack_repo/<namespace>/packages)")
def _():
    with open(RECIPE) as f:
        header = f.read().split("\nimport ", 1)[0]
    for step in ("spack repo create <dir> strided_local",
                 "<dir>/spack_repo/strided_local/packages/strided",
                 "spack repo add <dir>/spack_repo/strided_local",
                 "package_attributes", "concretize -f --fresh-roots --test=root",
                 "--overwrite -y"):
        assert step in header, step


@check('license("Apache-2.0 WITH LLVM-exception") and maintainers are declared')
def _():
    licenses = [a for d, a, _ in DIRECTIVES if d == "license"]
    assert licenses == [("Apache-2.0 WITH LLVM-exception",)], licenses
    assert any(d == "maintainers" and a for d, a, _ in DIRECTIVES), "no maintainers"


@check("no depends_on() whose when= constrains the dependency itself (spack audit)")
def _():
    for spec, kwargs in [(a[0], k) for d, a, k in DIRECTIVES if d == "depends_on"]:
        when = kwargs.get("when") or ""
        on_deps = re.findall(r"\^\s*(?:\[[^\]]*\]\s*)?([\w-]+)", when)
        assert name_of(spec) not in on_deps, (spec, when)


@check("kokkos is bounded to 3.4 through 4.x (no Kokkos 5 yet)")
def _():
    ranges = [re.search(r"@([\d.]+):([\d.]+)", s) for s, k in deps("kokkos") if not k.get("when")]
    ranges = [m.groups() for m in ranges if m]
    assert ranges, "no unconditional depends_on('kokkos@lo:hi')"
    assert all(lo == "3.4" and int(hi.split(".")[0]) < 5 for lo, hi in ranges), ranges


@check("cuda_arch and amdgpu_target are single-valued")
def _():
    for name, when in (("cuda_arch", "+cuda"), ("amdgpu_target", "+rocm")):
        defs = [k for d, a, k in DIRECTIVES if d == "variant" and a[0] == name]
        assert defs and all(k.get("multi") is False and k.get("when") == when for k in defs), name


@check("+cuda requires kokkos+cuda_lambda, and kokkos+wrapper with GCC")
def _():
    def required(kokkos_variant, *conditions):
        return any(kokkos_variant in s.replace(" ", "")
                   and all(c in (k.get("when") or "") for c in conditions)
                   for s, k in deps("kokkos"))
    assert required("+cuda_lambda", "+cuda"), "no kokkos+cuda_lambda when +cuda"
    assert required("+wrapper", "+cuda", "%gcc"), "no kokkos+wrapper when +cuda %gcc"


@check("googletest and mpfr are test dependencies of every build; benchmark linked with +benchmarks")
def _():
    gtest, bench = deps("googletest"), deps("benchmark")
    assert gtest and all("test" in types_of(k) for _, k in gtest), gtest
    # MPFR is the oracle of strided_exact_tests (built whenever MPFR is found), not only of MPI.
    mpfr = deps("mpfr")
    assert mpfr and all(types_of(k) == ("test",) and not k.get("when") for _, k in mpfr), mpfr
    linked = [k for _, k in bench if "link" in types_of(k) and "+benchmarks" in k.get("when", "")]
    assert linked, bench


class KokkosPackage:
    """Kokkos' package in the builtin repository of Spack 1.x: kokkos_cxx reads the global
    spack_cxx of Kokkos' own module unless +wrapper, and Spack leaves it unset for a dependency."""

    def __init__(self, wrapper):
        self.wrapper = wrapper

    @property
    def kokkos_cxx(self):
        if self.wrapper:
            return "/kokkos-nvcc-wrapper/bin/nvcc_wrapper"
        raise NameError("name 'spack_cxx' is not defined")


def cmake_args(spack_1x=True, run_tests=False, kokkos_wrapper=None, **variants):
    """cmake_args() and the package for serial plus `variants` (kokkos_kernels=...); Kokkos has
    +wrapper when kokkos_wrapper (default: with +cuda, as depends_on() asks for it with GCC)."""
    values = dict(serial=True, openmp=False, threads=False, benchmarks=False, cuda=False,
                  rocm=False, kokkos_kernels=False, mpi=False, contract=False)
    values = {k.replace("_", "-"): v for k, v in {**values, **variants}.items()}
    wrapper = values["cuda"] if kokkos_wrapper is None else kokkos_wrapper
    kokkos = Spec({"wrapper": wrapper, "cuda": values["cuda"]}, prefix="/kokkos",
                  package=types.SimpleNamespace())
    packages = {"kokkos": KokkosPackage(wrapper)}
    if not spack_1x:  # Spack 0.x: Kokkos' setup_dependent_package sets kokkos_cxx on the spec
        kokkos.kokkos_cxx = "/spec/nvcc_wrapper" if wrapper else SPACK_CXX
        packages = None
    hip = types.SimpleNamespace(hipcc="/hip/bin/hipcc")
    mpi = types.SimpleNamespace(mpicxx="/mpi/bin/mpicxx")
    kk = types.SimpleNamespace(prefix="/kokkos-kernels")
    pkg = Strided(Spec(values, {"kokkos": kokkos, "hip": hip, "mpi": mpi, "kokkos-kernels": kk}),
                  run_tests, packages)
    module_globals = Strided.cmake_args.__globals__  # the recipe's module
    module_globals["spack_cxx"] = SPACK_CXX  # Spack sets it there before the build phases
    try:
        return set(pkg.cmake_args()), pkg
    finally:
        del module_globals["spack_cxx"]


def compiler(args):
    found = [a.split("=", 1)[1] for a in args if a.startswith("-DCMAKE_CXX_COMPILER:")]
    assert len(found) == 1, args
    return found[0]


@check("cmake_args: defaults, tests off, the package's own compiler (Spack 1.x)")
def _():
    args, pkg = cmake_args()
    expected = {"-DStrided_ENABLE_TESTS:BOOL=OFF", "-DStrided_ENABLE_BENCHMARKS:BOOL=OFF",
                "-DKokkos_ROOT:STRING=/kokkos", "-DStrided_ENABLE_CONTRACT:BOOL=OFF",
                "-DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels:BOOL=ON"}
    assert expected <= args, expected - args
    files = pkg.sanity_check_is_file
    assert not any(f.startswith("bin") for f in files), files


@check("cmake_args: a Kokkos without +wrapper never reads kokkos_cxx (NameError on Spack 1.x)")
def _():
    for spack_1x in (True, False):
        for variants in ({}, {"openmp": True}, {"threads": True}):
            assert compiler(cmake_args(spack_1x, **variants)[0]) == SPACK_CXX, variants
    # A CUDA Kokkos built by Clang has no wrapper either: the package's compiler (Clang).
    assert compiler(cmake_args(cuda=True, kokkos_wrapper=False)[0]) == SPACK_CXX


@check("cmake_args: --test=root (run_tests) turns Strided_ENABLE_TESTS on")
def _():
    args = cmake_args(run_tests=True)[0]
    assert "-DStrided_ENABLE_TESTS:BOOL=ON" in args, args


@check("cmake_args: +benchmarks builds them and the sanity check expects bin/strided-*")
def _():
    args, pkg = cmake_args(benchmarks=True, kokkos_kernels=True)
    expected = {"-DStrided_ENABLE_BENCHMARKS:BOOL=ON", "-DStrided_ENABLE_KOKKOSKERNELS:BOOL=ON"}
    assert expected <= args, expected - args
    bins = {os.path.join("bin", "strided-bench"), os.path.join("bin", "strided-report")}
    assert bins <= set(pkg.sanity_check_is_file), pkg.sanity_check_is_file


@check("cmake_args: a Kokkos with +wrapper compiles with its nvcc_wrapper (Spack 1.x and 0.x)")
def _():
    assert compiler(cmake_args(cuda=True)[0]) == "/kokkos-nvcc-wrapper/bin/nvcc_wrapper"
    assert compiler(cmake_args(False, cuda=True)[0]) == "/spec/nvcc_wrapper"


@check("cmake_args: +mpi builds the MPI component with the spec's mpicxx; MPI is linked")
def _():
    args = cmake_args(mpi=True)[0]
    expected = {"-DStrided_ENABLE_MPI:BOOL=ON", "-DMPI_CXX_COMPILER:STRING=/mpi/bin/mpicxx"}
    assert expected <= args, expected - args
    assert "-DStrided_ENABLE_MPI:BOOL=OFF" in cmake_args()[0]
    linked = [k for _, k in deps("mpi") if "link" in types_of(k) and "+mpi" in k.get("when", "")]
    assert linked, deps("mpi")


@check("+contract: Strided_ENABLE_CONTRACT=ON with the spec's Kokkos Kernels, linked, paired with Kokkos")
def _():
    variant = [k for d, a, k in DIRECTIVES if d == "variant" and a[0] == "contract"]
    assert variant and variant[0].get("default") is False, variant
    args, pkg = cmake_args(contract=True)
    expected = {"-DStrided_ENABLE_CONTRACT:BOOL=ON", "-DKokkosKernels_ROOT:STRING=/kokkos-kernels"}
    assert expected <= args, expected - args
    assert not any("DISABLE_FIND_PACKAGE_KokkosKernels" in a for a in args), args
    assert os.path.join("include", "strided", "contract.hpp") in pkg.sanity_check_is_file
    # Kokkos Kernels X.Y needs Kokkos X.Y (its own recipe): the same range as kokkos@3.4:4.
    kk = [(s, k) for s, k in deps("kokkos-kernels") if "+contract" in (k.get("when") or "")]
    assert kk and all("link" in types_of(k) for _, k in kk), kk
    for spec, _ in kk + deps("kokkos-kernels"):
        m = re.search(r"@([\d.]+):([\d.]+)", spec)
        assert m and m.group(1) == "3.4" and int(m.group(2).split(".")[0]) < 5, spec
    # The benchmarks' peers alone (+kokkos-kernels) find the same Kokkos Kernels.
    args = cmake_args(kokkos_kernels=True)[0]
    assert "-DStrided_ENABLE_CONTRACT:BOOL=OFF" in args, args
    assert "-DKokkosKernels_ROOT:STRING=/kokkos-kernels" in args, args


@check("cmake_args: +rocm compiles with hipcc")
def _():
    assert compiler(cmake_args(rocm=True)[0]) == "/hip/bin/hipcc"


@check("a develop build reconfigures when the cached Strided_ENABLE_TESTS differs from --test")
def _():
    hooks = [a for d, a, _ in DIRECTIVES if d == "run_before"]
    assert ("cmake", "_reconfigure_for_tests") in hooks, hooks
    generated = ("CMakeCache.txt", "Makefile", "build.ninja")
    with tempfile.TemporaryDirectory() as build_dir:
        def run(cached, run_tests):
            """Runs the hook as Spack does, on a builder; returns the generated files left.
            Spack 1.x skips the cmake phase of a develop build when Makefile or build.ninja
            exists, Spack 0.23 when CMakeCache.txt exists: all must go to reconfigure."""
            for name in os.listdir(build_dir):
                os.remove(os.path.join(build_dir, name))
            for name in ("Makefile", "build.ninja", "main.o"):
                with open(os.path.join(build_dir, name), "w"):
                    pass
            if cached is not None:
                with open(os.path.join(build_dir, "CMakeCache.txt"), "w") as f:
                    f.write(f"FOO:BOOL=ON\nStrided_ENABLE_TESTS:BOOL={cached}\n")
            pkg = Strided(Spec({}), run_tests, None)
            builder = types.SimpleNamespace(pkg=pkg, build_directory=build_dir)
            Strided._reconfigure_for_tests(builder)
            assert os.path.exists(os.path.join(build_dir, "main.o")), "objects are kept"
            return {name for name in generated if os.path.exists(os.path.join(build_dir, name))}
        assert run(None, True) == {"Makefile", "build.ninja"}, "no cache: nothing to remove"
        for cached, run_tests in (("ON", True), ("OFF", False)):
            assert run(cached, run_tests) == set(generated), "the cache agrees: keep it all"
        assert not run("OFF", True), "--test=root after a build without tests: reconfigure"
        assert not run("ON", False), "a build without --test after one with: reconfigure"


def main():
    failures = 0
    for description, function in CHECKS:
        try:
            function()
            print(f"ok    {description}")
        except Exception as error:  # report every failing check, not just the first
            failures += 1
            print(f"FAIL  {description}: {type(error).__name__}: {error}")
    summary = f"check_recipe: {len(CHECKS) - failures} checks passed"
    print(summary + (f", {failures} failed" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
