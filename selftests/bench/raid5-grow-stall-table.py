#!/usr/bin/env python3
# The table of raid5-grow-stall.sh: per log (base first), the knobs and the
# "RESULT N grows, S stalls, F failures" line.
import re, sys
print('%-44s %6s %6s %8s  %s' % ('log', 'grows', 'stalls', 'failures', 'knobs'))
for path in sys.argv[1:]:
    note = res = None
    for line in open(path, errors='replace'):
        m = re.search(r'MDBENCH-NOTE (.*)', line)
        if m and note is None:
            note = m.group(1).strip()
        m = re.search(r'RESULT (\d+) grows, (\d+) stalls, (\d+) failures', line)
        if m:
            res = m.groups()
    name = path.rsplit('/', 1)[-1]
    if res:
        print('%-44s %6s %6s %8s  %s' % (name, res[0], res[1], res[2], note or ''))
    else:
        print('%-44s %6s %6s %8s  %s' % (name, '-', '-', '-', 'no RESULT line (hang or boot failure)'))
