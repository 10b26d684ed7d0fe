#!/bin/bash
# Where md's metadata writes land on members of a given geometry (issue 13).
# The members are the guest's mdgeomN disks (selftests/run-guest.sh
# MDS_DISKS), taken in pairs of the same geometry. For each pair, level
# (1, 10), superblock (1.2, 1.0) and bitmap (internal, lockless): create
# the array, record one bad block on the first member, send 4K random
# O_DIRECT writes, let the bitmap daemon clear, stop; then assemble again
# and report whether both members came back with their bad block, and
# whether the data reads back. Every write issued to a member outside its
# data area is classified by where it starts (superblock, bitmap, bad-block
# log) and what it covers, and printed as a histogram line:
#   MDBITMAP-HIST CASE DEV KIND FIRST-LAST_START SECTORS COUNT FLAGS
# FLAGS: subpbs (smaller than the physical block), over-sb, over-bblog,
# over-data, past-reserved (a bitmap write beyond the bitmap's space).
. /bench/lib.sh
N=${BITMAP_IO_WRITES:-200}
BB_SECTOR=${BITMAP_IO_BB:-100000}
fail=0

geom() {	# geom DEV: "LBS PBS IOOPT SIZE_SECTORS"
	local q=/sys/block/$1/queue
	echo "$(cat $q/logical_block_size) $(cat $q/physical_block_size) $(cat $q/optimal_io_size) $(cat /sys/block/$1/size)"
}

# layout DEV: "SB BM BB BBSZ DOFF DSIZE" in absolute sectors, from mdadm -E
layout() {
	mdadm -E "/dev/$1" | awk '
		/Super Offset :/ { sb = $4 }
		/Data Offset :/ { doff = $4 }
		/Avail Dev Size :/ { dsz = $5 }
		/Internal Bitmap :/ { bm = $4 }
		/Bad Block Log :/ { bbsz = $5 * 8 / 512; bb = $10 }
		END { printf "%d %d %d %d %d %d\n", sb, sb + bm, bb == "" ? -1 : sb + bb, bbsz, doff, dsz }'
}

run_case() {
	local a=$1 b=$2 tag=$3 level=$4 meta=$5 bm=$6 name lay res majmin pbs got bbok members refused rc=0
	name=$tag-raid$level-$meta-$bm
	echo "MDBITMAP-CASE $name"
	if ! mdadm --create /dev/md0 --run --quiet --metadata="$meta" --level="$level" \
		--raid-devices=2 --bitmap="$bm" --assume-clean "/dev/$a" "/dev/$b" >/tmp/err 2>&1; then
		echo "MDBITMAP-RESULT $name create-refused $(tr '\n' ' ' </tmp/err)"
		mdadm --zero-superblock "/dev/$a" "/dev/$b" 2>/dev/null
		return 0
	fi
	lay=$(layout "$a")
	echo "MDBITMAP-LAYOUT $name $(geom "$a") $lay"
	mdadm -E "/dev/$a" | grep -E 'Offset|Bitmap|Bad Block|Dev Size|Sector' | sed "s/^/MDBITMAP-E $name /"
	cat /sys/block/md0/md/bitmap/location 2>/dev/null | sed "s/^/MDBITMAP-E $name location /"
	# bitmap_super_t.sectors_reserved (byte 64), as the member holds it
	res=$(dd if="/dev/$a" bs=512 skip="$(echo "$lay" | cut -d' ' -f2)" count=1 2>/dev/null | od -An -tu4 -j64 -N4 | tr -d ' ')
	echo "MDBITMAP-E $name sectors_reserved $res"
	tr '\n' ' ' </sys/block/md0/md/llbitmap/metadata 2>/dev/null | sed "s/^/MDBITMAP-E $name llbitmap /;s/$/\n/"
	echo 1 >/sys/block/md0/md/bitmap/time_base 2>/dev/null
	[ -e /sys/block/md0/md/llbitmap/daemon_sleep ] && echo 1 >/sys/block/md0/md/llbitmap/daemon_sleep
	[ -e /sys/block/md0/md/llbitmap/barrier_idle ] && echo 1 >/sys/block/md0/md/llbitmap/barrier_idle
	bench_trace_start
	echo "$BB_SECTOR 8" >"/sys/block/md0/md/dev-$a/bad_blocks" || echo "MDBITMAP-NOTE $name bad block not recorded"
	md_randio write /dev/md0 77 0 $((32 << 20)) 4096 "$N" || rc=1
	sleep 4
	mdadm --stop /dev/md0 >/dev/null || rc=1
	echo 0 >$T/tracing_on
	echo 0 >$T/events/block/block_rq_issue/enable
	pbs=$(cat /sys/block/$a/queue/physical_block_size)
	for d in "$a" "$b"; do
		majmin=$(tr : , <"/sys/block/$d/dev")
		# shellcheck disable=SC2086
		awk -v mm="$majmin" -v name="$name" -v dev="$d" -v pbs=$((pbs / 512)) -v lay="$lay" -v res="${res:-0}" '
			BEGIN { split(lay, L, " "); sb = L[1]; bm = L[2]; bb = L[3]; bbsz = L[4]; doff = L[5]; dsz = L[6]
				# the bitmap may use up to the next object after it
				bmend = 1e18
				if (sb > bm && sb < bmend) bmend = sb
				if (bb > bm && bb < bmend) bmend = bb
				if (doff > bm && doff < bmend) bmend = doff
				# what the bitmap claims (llbitmap: sectors_reserved)
				claim = bmend - bm; if (res + 0 > claim) claim = res + 0 }
			function ov(s, n, a, b) { return s < b && s + n > a }
			$0 ~ "block_rq_issue: " mm " " {
				for (i = 1; i <= NF; i++) if ($i == "block_rq_issue:") break
				rwbs = $(i + 2); s = $(i + 5); n = $(i + 7)
				if (rwbs !~ /W/ || n == 0) next
				if (s >= doff && s + n <= doff + dsz) { data++; next }
				if (s == sb) k = "sb"; else if (s == bb && n == bbsz) k = "bblog"
				else if (s >= bm && s < bm + claim) k = "bitmap"; else k = "other"
				f = ""
				if (n < pbs) f = f ",subpbs"
				if (k != "sb" && ov(s, n, sb, sb + 8)) f = f ",over-sb"
				if (k != "bblog" && bb >= 0 && ov(s, n, bb, bb + bbsz)) f = f ",over-bblog"
				if (ov(s, n, doff, doff + dsz)) f = f ",over-data"
				if (k == "bitmap" && s + n > bmend) f = f ",past-reserved"
				x = k " " n " " (f == "" ? "-" : substr(f, 2))
				if (!(x in h) || s < lo[x]) lo[x] = s
				if (!(x in h) || s > hi[x]) hi[x] = s
				h[x]++
			}
			END { for (x in h) { split(x, X, " ")
					print "MDBITMAP-HIST", name, dev, X[1], lo[x] "-" hi[x], X[2], h[x], X[3] }
				print "MDBITMAP-DATA", name, dev, data + 0 }' $T/trace
	done
	# back again: both members, with the bad block?
	dmesg -c >/dev/null
	mdadm --assemble /dev/md0 --run --quiet "/dev/$a" "/dev/$b" >/tmp/err 2>&1 || echo "MDBITMAP-NOTE $name assemble: $(tr '\n' ' ' </tmp/err)"
	members=$(ls -d /sys/block/md0/md/dev-* 2>/dev/null | wc -l)
	got=$(cat "/sys/block/md0/md/dev-$a/bad_blocks" 2>/dev/null | tr '\n' ' ')
	bbok=no; [ "$got" = "$BB_SECTOR 8 " ] && bbok=yes
	refused=$(dmesg | grep -c 'does not have a valid')
	echo "MDBITMAP-RESULT $name members=$members badblock=$bbok refused=$refused ($got)"
	if [ -e /sys/block/md0/md ]; then
		md_randio verify /dev/md0 77 0 $((32 << 20)) 4096 "$N" || { echo "MDBITMAP-NOTE $name data differ"; rc=1; }
		mdadm --stop /dev/md0 >/dev/null
	fi
	mdadm --zero-superblock "/dev/$a" "/dev/$b" 2>/dev/null
	dd if=/dev/zero of="/dev/$a" bs=1M count=2 2>/dev/null
	dd if=/dev/zero of="/dev/$b" bs=1M count=2 2>/dev/null
	return $rc
}

disks=()
for s in /sys/block/vd*; do
	case "$(cat "$s/serial" 2>/dev/null)" in mdgeom*) disks+=("$(basename "$s")") ;; esac
done
echo "MDBENCH-NOTE geometry members: ${disks[*]}"
for ((i = 0; i + 1 < ${#disks[@]}; i += 2)); do
	a=${disks[$i]} b=${disks[$((i + 1))]}
	read -r lbs pbs opt size <<<"$(geom "$a")"
	tag=l${lbs}p${pbs}o${opt}s$((size / 2048))M
	for level in ${BITMAP_IO_LEVELS:-1 10}; do
		for meta in 1.2 1.0; do
			for bm in internal lockless; do
				run_case "$a" "$b" "$tag" "$level" "$meta" "$bm" || fail=1
			done
		done
	done
done
exit $fail
