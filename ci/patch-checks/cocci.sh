#!/bin/bash
# New 'make coccicheck MODE=report' reports on the drivers/md C files the
# patch touches, run through the x86_64 allmodconfig build dir. Reports are
# cached per file content in $MDS_CACHE/cocci.
#
# One raid5.c takes about 3.5 minutes on two cores, and most patches of the
# series touch raid5.c: to stay within CI's time, a file is judged at the
# last patch of the series that touches it, against the series base (the
# patches before it say SKIP for it). MDS_COCCI_EVERY=1 judges every patch
# against its parent, as NIPA does.
. "$(dirname "$0")/lib.sh"
# the files to judge at this patch: all it touches, or (by default) those
# no later patch of the series touches
cocci_files() {
	local f
	touched | while IFS= read -r f; do
		case "$f" in drivers/md/*.c) ;; *) continue ;; esac
		if [ "${MDS_COCCI_EVERY:-0}" != 1 ] &&
		   [ -n "$(git -C "$TREE" rev-list "$COMMIT..$SERIES_BRANCH" -- "$f")" ]; then
			continue
		fi
		echo "$f"
	done
}
cocci_of() { # cocci_of STATE OUTFILE FILES...
	local f blob raw st=$1 of=$2
	shift 2
	: >"$of"
	for f in "$@"; do
		blob=$(git -C "$TREE" rev-parse -q --verify "$st:$f" 2>/dev/null) || continue
		if ! [ -f "$MDS_CACHE/cocci/$blob" ]; then
			git -C "$TREE" checkout -q -f "$st" || return 1
			raw=$OUT/cocci.raw
			(cd "$TREE" && "${BOT_MK[@]}" C=2 CHECK="$TREE/scripts/coccicheck" MODE=report \
				J="$(nproc)" "${f%.c}.o" 2>&1) >"$raw"
			# the kernel skips an unusable checker with only this line
			if grep -q 'not available or not up to date' "$raw"; then
				echo "coccicheck did not run: $(head -n 1 "$raw")" >>"$of"
				continue
			fi
			grep -E "$(basename "$f"):[0-9]" "$raw" >"$MDS_CACHE/cocci/$blob.tmp" || true
			mv "$MDS_CACHE/cocci/$blob.tmp" "$MDS_CACHE/cocci/$blob"
		fi
		sed "s|^.*$(basename "$f"):|$f:|" "$MDS_CACHE/cocci/$blob" >>"$of"
	done
}
judge() {
	local out=$OUT/$CHECK.txt sd from=$PARENT files
	mapfile -t files < <(cocci_files)
	[ ${#files[@]} = 0 ] && return 2
	[ "${MDS_COCCI_EVERY:-0}" = 1 ] || from=$(git -C "$TREE" rev-parse md-series-base)
	echo "judged: ${files[*]} against $(git -C "$TREE" log -1 --format=%h "$from")" >>"$out"
	mkdir -p "$MDS_CACHE/cocci"
	sd=$(mktemp -d)
	# the kbuild environment coccicheck runs in: x86_64 allmodconfig, which
	# builds every md file, the KUnit suites too
	bot_config x86_64 allmodconfig bot-allmod.config "$sd" "$MDS_OUT/build/bot-build-x86_64-allmodconfig" ||
		{ cat "$sd/config.log" >>"$out"; rm -rf "$sd"; return 1; }
	rm -rf "$sd"
	cocci_of "$from" "$OUT/cocci.parent" "${files[@]}"
	cocci_of "$COMMIT" "$OUT/cocci.self" "${files[@]}"
	git -C "$TREE" checkout -q -f "$COMMIT"
	added "$OUT/cocci.parent" "$OUT/cocci.self" >"$OUT/cocci.new"
	[ -s "$OUT/cocci.new" ] && { echo "new reports:"; cat "$OUT/cocci.new"; } >>"$out"
	[ ! -s "$OUT/cocci.new" ]
}
run_check "$@"
