#!/bin/bash
# New 'make coccicheck MODE=report' reports on the drivers/md C files the
# patch touches, run through the x86_64 allmodconfig build dir. Reports are
# cached per file content in $MDS_CACHE/cocci (a raid5.c takes minutes).
. "$(dirname "$0")/lib.sh"
cocci_of() { # cocci_of STATE OUTFILE
	local f blob raw
	: >"$2"
	while IFS= read -r f; do
		case "$f" in drivers/md/*.c) ;; *) continue ;; esac
		blob=$(git -C "$TREE" rev-parse -q --verify "$1:$f" 2>/dev/null) || continue
		if ! [ -f "$MDS_CACHE/cocci/$blob" ]; then
			git -C "$TREE" checkout -q -f "$1" || return 1
			raw=$OUT/cocci.raw
			(cd "$TREE" && "${BOT_MK[@]}" C=2 CHECK="$TREE/scripts/coccicheck" MODE=report \
				J="$(nproc)" "${f%.c}.o" 2>&1) >"$raw"
			# the kernel skips an unusable checker with only this line
			if grep -q 'not available or not up to date' "$raw"; then
				echo "coccicheck did not run: $(head -n 1 "$raw")" >>"$2"
				continue
			fi
			grep -E "$(basename "$f"):[0-9]" "$raw" >"$MDS_CACHE/cocci/$blob.tmp" || true
			mv "$MDS_CACHE/cocci/$blob.tmp" "$MDS_CACHE/cocci/$blob"
		fi
		sed "s|^.*$(basename "$f"):|$f:|" "$MDS_CACHE/cocci/$blob" >>"$2"
	done < <(touched)
}
judge() {
	local out=$OUT/$CHECK.txt sd
	touched | grep -qE '^drivers/md/.*\.c$' || return 2
	mkdir -p "$MDS_CACHE/cocci"
	sd=$(mktemp -d)
	# the kbuild environment coccicheck runs in: x86_64 allmodconfig, which
	# builds every md file, the KUnit suites too
	bot_config x86_64 allmodconfig bot-allmod.config "$sd" "$MDS_OUT/build/bot-build-x86_64-allmodconfig" ||
		{ cat "$sd/config.log" >>"$out"; rm -rf "$sd"; return 1; }
	rm -rf "$sd"
	cocci_of "$PARENT" "$OUT/cocci.parent"
	cocci_of "$COMMIT" "$OUT/cocci.self"
	git -C "$TREE" checkout -q -f "$COMMIT"
	added "$OUT/cocci.parent" "$OUT/cocci.self" >>"$out"
	[ ! -s "$out" ]
}
run_check "$@"
