#!/usr/bin/env python3
# Makes ci/postings/topics and ci/postings/NAME.txt, the per-topic cover
# letters, from cover-letter.txt: each topic's entries of the patch list,
# numbered within the posting ("patch N" renumbered, or named as "K of the
# NAME posting" when it is in another), the stripe queues' figures, and how
# to run the tests. Run from the repository's top: ci/postings/make.py
# (writes), ci/postings/make.py --check (exit 1 if a file would change).
import sys, os
CHECK = '--check' in sys.argv
written = {}
def emit(path, text):
    written[path] = text
import re, textwrap
s=open('cover-letter.txt').read()
entries={}; cur=None
for l in s.split('\n'):
    mm=re.match(r'^ *(\d+)  (\S.*)$', l)
    if mm and len(l)-len(l.lstrip())<=2:
        cur=int(mm.group(1)); entries[cur]=[l]; continue
    if cur is not None:
        if l.startswith('     ') and l.strip():
            entries[cur].append(l); continue
        cur=None
def block(a,b):
    out=[]
    for i,n in enumerate(range(a,b+1)):
        e=list(entries[n]); e[0]=re.sub(r'^ *\d+  ', '%3d  ' % (i+1), e[0]); out+=e
    return '\n'.join(out)
figures=s[s.index('Member sectors read per MiB written'):s.index('How to run the tests:')].rstrip()
bitmap_found=s[s.index('What the bitmap tests found'):s.index('Fault tests (for md-next)')].rstrip()
# the sections on single patches ('== Patch N, ...') of the fixes, the
# stripe_size and the bitmap postings (the stripe queues' are in figures)
fixes_detail=s[s.index('== Patch 4,'):s.index('Features and tests (for md-next)')].rstrip()
stripe_size_detail=s[s.index('== Patch 22,'):s.index('== Patch 24,')].rstrip()
bitmap_detail=s[s.index('== Patch 24,'):s.index('What the bitmap tests found')].rstrip()
kselftest_run='  make -C tools/testing/selftests TARGETS=drivers/md run_tests   # as root'
tests='''How to run the tests:

  ./tools/testing/kunit/kunit.py run --kunitconfig=drivers/md
'''+kselftest_run
faults_tests='''How to run the tests:

'''+kselftest_run+'''

run_tests leaves md_unclean_stop.sh out (it resets the machine): it runs
only on disks whose serial starts with "mdcrash", over two boots, as its
header says.'''
fixes_repro='''How to reproduce: the sections above and each patch's message say, on
v7.3.4 with mdadm.'''
def fill(t): return textwrap.fill(t,72,break_on_hyphens=False)
BASE=("The base is the stable release v7.3.4: 'git checkout v7.3.4' in linux-stable (linux-7.3.y), "
      'or the 7.3.4 release tarball. The base-commit line b4 adds below names that tag, not a commit id: '
      "the series was prepared on Debian's linux-source-7.3 7.3.4-1~bpo13+1, whose drivers/md is "
      'v7.3.4\'s unchanged (Debian patches nothing there), and which carries no git history. ')
WHY={
 'tests': 'its KUnit test of the data offset move tests a helper that the fixes posting adds',
 'after-tests': 'the kselftest library and the KUnit build lines it extends come with the tests posting, which needs the fixes',
 'faults': 'the kselftest library it extends comes with the tests posting, which needs the fixes; its reshape and stripe_cache_size cases test fixes of the fixes posting',
 'stripe-queue': 'it builds on the raid5 code and md.rst text of stripe-size, puts its md_pattern.c anyof mode beside the member mode of linear, and calls md_mdadm_grows, which faults adds to the kselftest library; it needs nothing of the bitmap posting',
}
def prereq(name, names):
    if not names: return BASE + 'It applies to v7.3.4 alone; no other posting needs to be applied first.'
    why = WHY.get(name, WHY['after-tests'])
    many = len(names) > 1
    return (BASE + 'It applies to v7.3.4 after the %s posting%s, and needs no other: %s. '
            'The prerequisite-change-id lines below name %s by b4 change-id, '
            'the prerequisite-patch-id lines %s patches.'
            % (', '.join(names[:-1]) + (' and ' if many else '') + names[-1],
               's, in that order' if many else '', why,
               'those postings' if many else 'it', 'their' if many else 'its'))
topics=[
 ('fixes',1,12,'PATCH',[],"md: raid5 with pages above 4K, reshape fixes, and bitmap writes over the bad-block log",
  "Twelve fixes, for md-fixes (eight also for stable): two in raid5 with pages larger than 4K, three in how the bitmap is written over what follows it on the member and read back, a member reference kept when a bitmap write is refused, one where the lockless bitmap marked its own superblock dirty, a reshape that waited for ever when stripe_cache_size was lowered under it, a stripe_cache_size above INT_MAX taken truncated, a grow that stopped at its start with raid5d spinning, and two in reshapes that move the data offset, which recorded no position before they overwrote old data (a chunk-size change stopped and assembled again misplaced data): one of a running array, which ran as if the data did not move, and one for a move of up to twice the larger chunk.",
  '20261125-md-fixes-b4e2ecf3c550'),
 ('tests',13,17,'PATCH',['fixes'],"md: KUnit and kselftests, and the raid5 pivot for every layout",
  "KUnit suites beside raid5.c, kselftests that drive mdadm over loop devices (tools/testing/selftests/drivers/md), and the lowest-chunk pivot of raid5_make_request() (fc05e06e6098) found from the geometry, for the symmetric layouts too; a KUnit test for the data offset move a reshape allows for.",
  '20261125-md-tests-ee1bcd8a070d'),
 ('linear',18,19,'PATCH',['fixes','tests'],"md/md-linear: scan the last few members in which_dev()",
  "which_dev() bisects while more than a few members are left and scans the rest, after Coly Li's V3 and its review; a KUnit suite and a kselftest.",
  '20261125-md-linear-532ab4c24bfe'),
 ('stripe-size',20,23,'PATCH',['fixes','tests'],"md/raid5: a build-time default stripe_size for pages above 4K",
  "A Kconfig choice of the stripe_size new arrays start with where pages are larger than 4K, after the request limit is sized for the smallest stripe; a KUnit table and a kselftest.",
  '20261125-md-stripe-size-eb1f44dbbfe0'),
 ('bitmap',24,29,'PATCH',['fixes','tests'],"md: bitmap writes sized for the member",
  "The bitmap's and the v1.x superblock's writes in whole physical blocks where they start on one and that fits their space (io_opt where it fits, as 8745faa95611 does; a v1.x superblock of 1 KiB or less with no bitmap in use, PPL included, keeps its logical-block write short of sb+2, where a bitmap may be added); the rounding never reaches the data, the superblock, PPL, a bad-block log or the member's end. Two writes stay where v7.3.4 puts them: a lockless bitmap's states, which v7.3.4 sizes without its 1 KiB header, run up to 2 sectors past the reserved sectors (its last write is now padded to the physical block, within the room before what follows), and a classic bitmap that older mdadm laid over the bad-block log is still written over it, in logical blocks. bitmap/space is bounded by what follows the bitmap; KUnit for the size, room and superblock-limit helpers, kselftests with members of a terabyte and a bitmap added to a running array.",
  '20261125-md-bitmap-70868220c5ca'),
 ('faults',30,35,'PATCH',['fixes','tests'],"selftests: md: fault tests",
  "kselftests that fail a member, repair read errors, verify with fio, reshape under writes, write bad input and stop an array uncleanly.",
  '20261125-md-faults-8e280dfe5e93'),
 ('stripe-queue',36,45,'RFC PATCH',['fixes','tests','linear','stripe-size','faults'],"md/raid5: stripe queues",
  "Pending writes tracked apart from stripe_head memory, served fewest reads first, and O_DIRECT partial stripes held while other writes may complete them. An RFC: the figures below are from QEMU guests, not from disks, and the default stays off. Two knobs, both off by default: md/preread_hold (patch 2, the O_DIRECT hold, which needs no queue) and md/stripe_queue_size (patches 4-6, the queues). In the guests the hold alone cuts concurrent O_DIRECT writers' member reads at every cache size (by 4 to 9 times at the default stripe_cache_size), and the queues cut buffered writers' reads and make a buffered stream write faster, at a cost in raid5d CPU and, at stripe_cache_size 32, in O_DIRECT p99 latency. Figures from real disks are not measured.",
  '20261125-md-stripe-queue-21b43b7cf273'),
]
topics_text = ('''# One b4 posting per topic (ci/b4-topics.sh), in the order of the series.
# NAME FIRST LAST PREFIX CHANGE-ID DEPS: patches FIRST..LAST of 'series';
# PREFIX is the subject prefix ("PATCH" or "RFC_PATCH", '_' for the space);
# CHANGE-ID is the posting's b4 change-id, kept from one version to the
# next; DEPS the postings it needs applied first (comma separated, '-' for
# none), declared to b4 by change-id and patch-ids: its patches apply with
# git am on v7.3.4 after exactly those, and CI checks that they do, and
# that all postings in this order give the series. Its cover letter
# (subject line, blank line, body) is ci/postings/NAME.txt, made from
# cover-letter.txt.
''')
topics_text += ''.join('%s %d %d %s %s %s\n' % (t[0], t[1], t[2], t[3].replace(' ', '_'), t[7], ','.join(t[4]) or '-') for t in topics)
emit('ci/postings/topics', topics_text)
def where(n):
    for t in topics:
        if t[1] <= n <= t[2]: return t
def renum(text, a, b):
    def one(n):
        n=int(n)
        if a <= n <= b: return str(n-a+1)
        t=where(n)
        return '%d of the %s posting' % (n-t[1]+1, t[0]) if t else str(n)
    # one pass for "patch N" and "patches N-M": a number it renumbered is
    # not read again as one of the series
    text=re.sub(r'\b(patch(?:es)?|Patch(?:es)?)( ?\n? *)(\d+)(?:-(\d+))?\b',
                lambda m: '%s%s%s' % (m.group(1), m.group(2), one(m.group(3))) +
                          ('-' + one(m.group(4)) if m.group(4) else ''), text)
    text=re.sub(r'\b(without|needs|of|by) (\d+)-(\d+)\b', lambda m: '%s %s-%s' % (m.group(1), one(m.group(2)), one(m.group(3))), text)
    text=re.sub(r'\b(needs|needed by|version of) (\d+)\b', lambda m: '%s %s' % (m.group(1), one(m.group(2))), text)
    return text
def rewrap(entries):
    # an entry that renumbering made wider than 72 columns, filled again
    out=[]; cur=[]
    def flush():
        if cur and max(len(l) for l in cur) > 72:
            m=re.match(r'^( *\d+  )', cur[0])
            words=' '.join(l.strip() for l in cur)[len(m.group(1).strip()):].strip()
            out.extend(textwrap.wrap(words, 72, initial_indent=m.group(1), subsequent_indent='     ',
                                     break_on_hyphens=False, break_long_words=False))
        else:
            out.extend(cur)
        cur.clear()
    for l in entries.split('\n'):
        if re.match(r'^ *\d+  \S', l): flush()
        cur.append(l)
    flush()
    return '\n'.join(out)
for name,a,b,prefix,deps,subj,intro,cid in topics:
    part=rewrap(renum(block(a,b),a,b))
    if name=='stripe-queue': part+='\n\n'+renum(figures,a,b)
    if name=='fixes': part+='\n\n'+renum(fixes_detail,a,b)
    if name=='stripe-size': part+='\n\n'+renum(stripe_size_detail,a,b)
    if name=='bitmap': part+='\n\n'+renum(bitmap_detail,a,b)+'\n\n'+renum(bitmap_found,a,b)
    body=[subj,'',fill(intro),'',fill('This is v1: nothing of it has been posted before. '+prereq(name,deps)),'',part]
    body+=['',fixes_repro if name=='fixes' else faults_tests if name=='faults' else tests,'']
    emit('ci/postings/%s.txt' % name, '\n'.join(body))

stale = [p for p, t in written.items() if not os.path.exists(p) or open(p).read() != t]
if CHECK:
    for p in stale:
        print('stale: %s (run ci/postings/make.py)' % p)
    sys.exit(1 if stale else 0)
for p in stale:
    open(p, 'w').write(written[p])
