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


class Spec:
    """A concrete spec, just enough of it: boolean variants, dependencies, satisfies()."""

    def __init__(self, variants, deps):
        self.variants = {k: types.SimpleNamespace(value=v) for k, v in variants.items()}
        self.deps = deps

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


@check("homepage and git are fixed https addresses, no environment variables")
def _():
    with open(RECIPE) as f:
        reads_env = re.search(r"\bos\.environ|\bgetenv\b|^\s*import os\b", f.read(), re.M)
    assert not reads_env, "the recipe reads the environment"
    for attr in ("homepage", "git"):
        assert str(getattr(Strided, attr, "")).startswith("https://"), attr


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


@check("googletest is a test dependency; benchmark is linked with +benchmarks")
def _():
    gtest, bench = deps("googletest"), deps("benchmark")
    assert gtest and all("test" in types_of(k) for _, k in gtest), gtest
    linked = [k for _, k in bench if "link" in types_of(k) and "+benchmarks" in k.get("when", "")]
    assert linked, bench


def cmake_args(spack_1x=True, run_tests=False, **variants):
    """cmake_args() and the package for serial plus `variants` (kokkos_kernels=...)."""
    values = dict(serial=True, openmp=False, threads=False, benchmarks=False, cuda=False,
                  rocm=False, kokkos_kernels=False, mpi=False)
    values = {k.replace("_", "-"): v for k, v in {**values, **variants}.items()}
    # kokkos_cxx sits on the Kokkos package on Spack 1.x, on the Kokkos spec on Spack 0.x.
    kokkos = types.SimpleNamespace(prefix="/kokkos", package=types.SimpleNamespace())
    packages = {"kokkos": types.SimpleNamespace(kokkos_cxx="/kokkos/bin/nvcc_wrapper")}
    if not spack_1x:
        kokkos.kokkos_cxx, packages = "/spec/kokkos_cxx", None
    hip = types.SimpleNamespace(hipcc="/hip/bin/hipcc")
    mpi = types.SimpleNamespace(mpicxx="/mpi/bin/mpicxx")
    pkg = Strided(Spec(values, {"kokkos": kokkos, "hip": hip, "mpi": mpi}), run_tests, packages)
    return set(pkg.cmake_args()), pkg


@check("cmake_args: defaults, tests off, compiler from the Kokkos package (Spack 1.x)")
def _():
    args, pkg = cmake_args()
    expected = {"-DStrided_ENABLE_TESTS:BOOL=OFF", "-DStrided_ENABLE_BENCHMARKS:BOOL=OFF",
                "-DCMAKE_CXX_COMPILER:STRING=/kokkos/bin/nvcc_wrapper",
                "-DKokkos_ROOT:STRING=/kokkos",
                "-DCMAKE_DISABLE_FIND_PACKAGE_KokkosKernels:BOOL=ON"}
    assert expected <= args, expected - args
    files = pkg.sanity_check_is_file
    assert not any(f.startswith("bin") for f in files), files


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


@check("cmake_args: +cuda compiles with kokkos_cxx on Spack 1.x and on Spack 0.x")
def _():
    assert "-DCMAKE_CXX_COMPILER:STRING=/kokkos/bin/nvcc_wrapper" in cmake_args(cuda=True)[0]
    assert "-DCMAKE_CXX_COMPILER:STRING=/spec/kokkos_cxx" in cmake_args(False, cuda=True)[0]


@check("cmake_args: +mpi builds the MPI component with the spec's mpicxx; MPI is linked")
def _():
    args = cmake_args(mpi=True)[0]
    expected = {"-DStrided_ENABLE_MPI:BOOL=ON", "-DMPI_CXX_COMPILER:STRING=/mpi/bin/mpicxx"}
    assert expected <= args, expected - args
    assert "-DStrided_ENABLE_MPI:BOOL=OFF" in cmake_args()[0]
    linked = [k for _, k in deps("mpi") if "link" in types_of(k) and "+mpi" in k.get("when", "")]
    assert linked, deps("mpi")


@check("cmake_args: +rocm compiles with hipcc")
def _():
    assert "-DCMAKE_CXX_COMPILER:STRING=/hip/bin/hipcc" in cmake_args(rocm=True)[0]


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
