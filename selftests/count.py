#!/usr/bin/env python3
"""Count the KUnit cases and kselftests of one guest's console log.

usage: count.py ARCH LOG TREE [--no-kunit] [--must-run PROG,...]
ARCH is the label of the lines (x86_64, arm64-base, ...). --no-kunit: the
guest ran no KUnit (a base kernel, a second boot). --must-run: these
programs (drivers/md/NAME.sh) may not skip as a whole: in CI's guests
everything they need is there, so a skip means the test did not run.
KUnit: the KTAP the guest dumped from debugfs between MDTEST-KUNIT-BEGIN and
-END, parsed by the tree's tools/testing/kunit/kunit.py parse; one line per
case. kselftest: one line per KTAP subtest of each test program, and a
failure for a program that failed or timed out without subtests failing.
A skipped test prints SKIP, never PASS; an expected failure prints XFAIL.
Under a FAIL, indented with "  | ", the last diagnostic lines ("# # ...")
the failing subtest printed, so that a summary says why without its log.
"""
import os
import re
import subprocess
import sys
import tempfile

arch, path, tree = sys.argv[1:4]
opts = sys.argv[4:]
no_kunit = "--no-kunit" in opts
must_run = set()
if "--must-run" in opts:
    must_run = set(opts[opts.index("--must-run") + 1].split(","))
log = open(path, errors="replace").read().replace("\r", "")
lines = log.split("\n")
ts = re.compile(r"^\[ *\d+\.\d+\] ")

# --- KUnit ---
try:
    b = lines.index("MDTEST-KUNIT-BEGIN")
    e = lines.index("MDTEST-KUNIT-END")
    ktap = [l for l in lines[b + 1:e] if not ts.match(l)]
except ValueError:
    ktap = None
if no_kunit:
    pass
elif not ktap:
    print(f"FAIL kunit-{arch}: no KUnit results in the guest log")
else:
    # one KTAP document of all suites, as kunit.py expects
    suites = [l for l in ktap if re.match(r"^(ok|not ok) \d+ ", l)]
    doc = ["KTAP version 1", f"1..{len(suites)}"]
    n = 0
    for l in ktap:
        if l.startswith("KTAP version") or re.match(r"^1\.\.\d+$", l):
            continue
        m = re.match(r"^(ok|not ok) \d+ (.*)", l)
        if m:
            n += 1
            l = f"{m.group(1)} {n} {m.group(2)}"
        doc.append(l)
    with tempfile.NamedTemporaryFile("w", suffix=".ktap", delete=False) as f:
        f.write("\n".join(doc) + "\n")
    r = subprocess.run([sys.executable, os.path.join(tree, "tools/testing/kunit/kunit.py"),
                        "parse", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    open(path + ".kunit", "w").write(r.stdout + r.stderr)
    res = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kunit", "count.py"),
                          arch, path + ".kunit", str(r.returncode)], capture_output=True, text=True)
    sys.stdout.write(res.stdout)

# --- CPUs: run-guest.sh starts every guest with -smp 2, and raid5's locking
# is only raced with more than one online (an x86 kernel without ACPI finds
# just the boot CPU in SeaBIOS's MP table). "0-1" is two; "0" is one.
m = re.search(r"MDTEST-BEGIN: .*cpus_online=(\S+)", log)
if m and m.group(1) == "0":
    print(f"FAIL guest-{arch}: one CPU online, the guest was started with two")
elif m:
    print(f"PASS guest-{arch}: CPUs online {m.group(1)}")

# --- kselftest ---
tests = 0
cur = None
sub = {}
diag = []  # the diagnostics printed since the last subtest result
WHY = 12   # at most this many of them under a FAIL


def why(d):
    for x in d[-WHY:]:
        print(f"  | {x}")


for l in lines:
    l = ts.sub("", l)
    m = re.match(r"^# selftests: (\S+): (\S+)", l)
    if m:
        cur = f"{m.group(1)}/{m.group(2)}"
        sub[cur] = []
        diag = []
        continue
    m = re.match(r"^# (ok|not ok) \d+ (.*)", l)
    if m and cur:
        sub[cur].append((m.group(1), m.group(2), diag))
        diag = []
        continue
    m = re.match(r"^# # (.*)", l)
    if m and cur:
        diag.append(m.group(1))
        continue
    m = re.match(r"^(ok|not ok) \d+ selftests: (\S+): (\S+)(.*)", l)
    if m:
        name = f"{m.group(2)}/{m.group(3)}"
        tests += 1
        subs = sub.get(name, [])
        for v, d, dg in subs:
            if "# SKIP" in d:
                print(f"SKIP kselftest-{arch} {name}: {d}")
            elif "# XFAIL" in d:
                print(f"XFAIL kselftest-{arch} {name}: {d} (an expected failure, not counted)")
            else:
                print(f"{'PASS' if v == 'ok' else 'FAIL'} kselftest-{arch} {name}: {d}")
                if v != "ok":
                    why(dg)
        if m.group(1) == "not ok" and "# SKIP" not in m.group(4):
            if not any(v == "not ok" for v, _, _ in subs):
                print(f"FAIL kselftest-{arch} {name}: exited non-zero{m.group(4)}")
                why(diag)
        elif "# SKIP" in m.group(4):
            if name in must_run:
                print(f"FAIL kselftest-{arch} {name}: skipped, but the guest has what it needs")
            else:
                print(f"SKIP kselftest-{arch} {name}: whole program skipped")
        elif not subs:
            print(f"PASS kselftest-{arch} {name}")
        cur = None
if tests == 0:
    print(f"FAIL kselftest-{arch}: no kselftest ran")
