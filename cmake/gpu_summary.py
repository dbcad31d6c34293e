#!/usr/bin/env python3
"""The short summary of `bash cmake/run.sh gpu`: the GPU, each ctest test's result, the device's
copy and read bandwidth and each D.* row as a fraction of them (from one strided-report --json
run), and whether the determinism probe prints the same bits on the device as on Serial.
Exit status 1 when a test failed, the report had no device limits or D.* rows, or the bits differ.
"""
import argparse
import json
import re
import sys


def ctest_results(path):
    """(name, result) per test, from ctest's "1/9 Test #1: name .....   Passed  0.1 sec" lines."""
    line = re.compile(r"Test\s+#\d+: (\S+) \.*\s*(\*{0,3}\S.*?)\s+[\d.]+ sec")
    with open(path, errors="replace") as f:
        return [m.groups() for m in map(line.search, f) if m]


def report_rows(path):
    rows = []
    with open(path, errors="replace") as f:
        for text in f:
            if text.startswith('{"workload"'):
                rows.append(json.loads(text))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("gpu", "ctest", "report", "serial", "device"):
        ap.add_argument("--" + name, required=True)
    a = ap.parse_args()
    ok = True
    print("\n== summary\nGPU: %s" % a.gpu)

    tests = ctest_results(a.ctest)
    failed = [n for n, r in tests if r != "Passed"]
    print("tests: %d of %d passed" % (len(tests) - len(failed), len(tests)))
    for name, result in tests:
        print("  %-40s %s" % (name, result))
    ok = ok and bool(tests) and not failed

    rows = report_rows(a.report)
    limits = {r["workload"]: r["gbps"] for r in rows if r["workload"].startswith("limits.")}
    dcopy, dread = limits.get("limits.dcopy"), limits.get("limits.dread")
    drows = [r for r in rows if r["workload"].startswith("D.")]
    if dcopy and dread and drows:
        print("device bandwidth (same report run): copy %.1f GB/s, read %.1f GB/s" % (dcopy, dread))
        for r in drows:
            of = r.get("of_limit")
            frac = "%5.1f%% of %s" % (100 * of, "copy" if r["limit"] == "dcopy" else "read") if of else "-"
            print("  %-16s %-26s %8.1f GB/s  %s%s" % (r["workload"], r["variant"], r["gbps"], frac,
                                                    "" if r["correct"] else "  WRONG"))
            ok = ok and r["correct"]
    else:
        print("strided-report: no device limits or D.* rows (see %s)" % a.report)
        ok = False

    with open(a.serial) as f:
        serial = f.read().splitlines()
    with open(a.device) as f:
        device = f.read().splitlines()
    diff = [(s, d) for s, d in zip(serial, device) if s != d]
    if len(serial) == len(device) and serial and not diff:
        print("bits on the device vs Serial: identical (%d lines)" % len(serial))
    else:
        ok = False
        print("bits on the device vs Serial: DIFFERENT (%d vs %d lines)" % (len(serial), len(device)))
        for s, d in diff:
            print("  serial %s\n  device %s" % (s, d))
    print("gpu check: %s" % ("PASSED" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
