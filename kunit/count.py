#!/usr/bin/env python3
"""Turn a kunit.py summary into PASS/FAIL lines, one per KUnit test case.

usage: count-kunit.py LABEL LOG EXIT_STATUS
Reads kunit.py's per-case lines ("[PASSED] name", "[FAILED] name",
"[SKIPPED] name") and its closing "Testing complete. Ran N tests: ..." line.
Parameterized cases are counted once per parameter, as kunit.py counts them.
A skipped case is printed as SKIP (it is neither a pass nor a failure), and
a run that reports no test at all, or disagrees with its own total, fails.
"""
import re
import sys

label, path, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(path, errors="replace").read()
text = re.sub(r"\x1b\[[0-9;]*m", "", text)
cases = re.findall(r"\[(PASSED|FAILED|SKIPPED|CRASHED)\] (.+)", text)
total = re.search(r"Testing complete\. Ran (\d+) tests?: (.*)", text)
suite = ""
out = []
for verdict, name in cases:
    # "[PASSED] suite ====" closes a suite or a parameterized case: kunit.py
    # does not count those as tests, and neither do we.
    if re.search(r"\s=+\s*$", name):
        continue
    name = name.strip()
    word = {"PASSED": "PASS", "FAILED": "FAIL", "SKIPPED": "SKIP", "CRASHED": "FAIL"}[verdict]
    out.append(f"{word} kunit-{label} {name}")
print("\n".join(out))
if not total:
    print(f"FAIL kunit-{label}: no 'Testing complete' line (exit {status}), see {path}")
    sys.exit(0)
ran = int(total.group(1))
if ran == 0:
    print(f"FAIL kunit-{label}: ran no test")
elif status != 0 and not any(l.startswith("FAIL") for l in out):
    print(f"FAIL kunit-{label}: kunit.py exited {status}: {total.group(2)}")
