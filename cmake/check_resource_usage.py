#!/usr/bin/env python3
"""Checks the per-kernel resource usage that nvcc --resource-usage printed into a build log.

    python3 cmake/check_resource_usage.py BUILD_LOG [--max-stack BYTES]

Fails (exit 1) when a kernel's stack size cannot be determined statically or when a kernel's
stack (its frame, or the cumulative size with its callees) exceeds --max-stack (default 1024);
exit 2 when the log holds no resource usage at all. Prints a summary: kernels, the largest
stack and its kernel, the most registers, and every function with spill stores.

Formats understood (CUDA 12 and 13):
  ptxas info    : Compiling entry function '_Z..' for 'sm_90'
  ptxas info    : Function properties for _Z..
      16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  ptxas info    : Used 40 registers, used 1 barriers, 16 bytes cumulative stack size, ...
  ptxas warning : Stack size for entry function '_Z..' cannot be statically determined
  nvlink info    : Function properties for '_Z..':
  nvlink info    : used 24 registers, used 0 barriers, 0 stack, 0 bytes smem, ...
(plus the same warning from nvlink, in separate-compilation builds).
Whole-program ptxas of CUDA 13 prints no warning for recursion: the entry has no "cumulative
stack size" although a non-inlined function's properties follow it (ptxas prints a callee
after the first entry that calls it). That pattern is counted as undetermined too.
"""
import argparse
import re
import shutil
import subprocess
import sys

ENTRY = re.compile(r"(?:ptxas|nvlink) info\s*: Compiling entry function '([^']+)'")
PROPS = re.compile(r"(?:ptxas|nvlink) info\s*: Function properties for '?([^':]+)'?:?\s*$")
FRAME = re.compile(r"^\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
USED = re.compile(r"(?:ptxas|nvlink) info\s*: [Uu]sed (\d+) registers(.*)")
CUMULATIVE = re.compile(r"(\d+) bytes cumulative stack size")
NVLINK_STACK = re.compile(r", (\d+) stack\b")
UNDETERMINED = re.compile(r"Stack size for entry function '([^']+)' cannot be statically determined")


class Fn:
    def __init__(self, name, entry):
        self.name, self.entry = name, entry
        self.frame = self.spill_st = self.spill_ld = self.regs = 0
        self.cumulative = None  # bytes, when ptxas printed it

    def stack(self):
        return max(self.frame, self.cumulative or 0)


def parse(lines):
    kernels, functions, undetermined = {}, {}, set()
    entry = current = None  # the entry being compiled; the function whose properties follow

    def keep(fn):  # the worst of the instances of one kernel (several TUs instantiate it)
        table = kernels if fn.entry else functions
        old = table.get(fn.name)
        if old is None or (fn.stack(), fn.regs) > (old.stack(), old.regs):
            table[fn.name] = fn

    for line in lines:
        if m := UNDETERMINED.search(line):
            undetermined.add(m.group(1))
        elif m := ENTRY.search(line):
            entry = Fn(m.group(1), True)
            current = None
        elif m := PROPS.search(line):
            name = m.group(1).strip()
            if entry is not None and name == entry.name:
                current = entry
            elif "nvlink" in line:  # nvlink lists entries only, without "Compiling entry"
                current = Fn(name, True)
            else:
                current = Fn(name, False)
                if entry is not None and entry.cumulative is None:
                    undetermined.add(entry.name)  # calls out of line, no cumulative size
        elif (m := FRAME.match(line)) and current is not None:
            current.frame, current.spill_st, current.spill_ld = map(int, m.groups())
            keep(current)
        elif (m := USED.search(line)) and current is not None:
            current.regs = int(m.group(1))
            if c := CUMULATIVE.search(m.group(2)):
                current.cumulative = int(c.group(1))
            elif c := NVLINK_STACK.search(m.group(2)):
                current.frame = max(current.frame, int(c.group(1)))
            keep(current)
        elif "bytes gmem" in line or not line.startswith((" ", "\t", "ptxas", "nvlink")):
            entry = current = None  # another translation unit or tool output
    return kernels, functions, undetermined


def demangle(names):
    if not names or not shutil.which("c++filt"):
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True).stdout
    return dict(zip(names, out.splitlines()))


def short(text, width=160):
    return text if len(text) <= width else text[: width - 3] + "..."


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("log")
    ap.add_argument("--max-stack", type=int, default=1024)
    ap.add_argument("--max-exact-stack", type=int, default=8192)
    args = ap.parse_args()
    with open(args.log, errors="replace") as f:
        kernels, functions, undetermined = parse(f)
    if not kernels:
        print("resource usage: no kernels found in %s (was it built with --resource-usage?)" % args.log)
        return 2
    everything = list(kernels.values()) + list(functions.values())
    names = demangle(sorted({fn.name for fn in everything} | undetermined))
    worst = max(kernels.values(), key=lambda fn: fn.stack())
    regs = max(kernels.values(), key=lambda fn: fn.regs)
    print("resource usage: %d kernels (%d out-of-line device functions)" % (len(kernels), len(functions)))
    print("  max stack: %d bytes in %s" % (worst.stack(), short(names[worst.name])))
    print("  max registers: %d in %s" % (regs.regs, short(names[regs.name])))
    spills = [fn for fn in everything if fn.spill_st or fn.spill_ld]
    print("  spill stores: %s" % ("none" if not spills else "%d functions" % len(spills)))
    for fn in sorted(spills, key=lambda fn: -fn.spill_st)[:20]:
        print("    %d bytes stores, %d loads: %s" % (fn.spill_st, fn.spill_ld, short(names[fn.name])))
    def budget(fn):
        exact = re.search(r"strided::detail::Exact(Chunks|Outputs|OutputIntegers)<", names[fn.name])
        return args.max_exact_stack if exact else args.max_stack
    over = sorted((fn for fn in kernels.values() if fn.stack() > budget(fn)), key=lambda fn: -fn.stack())
    for fn in over:
        print("  FAIL stack %d > %d bytes: %s" % (fn.stack(), budget(fn), short(names[fn.name])))
    for name in sorted(undetermined):
        print("  FAIL stack size cannot be determined statically: %s" % short(names[name]))
    ok = not over and not undetermined
    print("resource usage: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
