#!/bin/bash
# New 'scripts/kernel-doc -none -Wall' warnings in the C files and headers
# the patch touches.
. "$(dirname "$0")/lib.sh"
kdoc_of() { # kdoc_of STATE OUTFILE
	local f blob tmp
	tmp=$(mktemp)
	: >"$2"
	while IFS= read -r f; do
		case "$f" in *.c|*.h) ;; *) continue ;; esac
		blob=$(git -C "$TREE" rev-parse -q --verify "$1:$f" 2>/dev/null) || continue
		git -C "$TREE" show "$blob" >"$tmp"
		(cd "$TREE" && scripts/kernel-doc -none -Wall "$tmp" 2>&1) | sed "s|$tmp|$f|g" >>"$2"
	done < <(touched)
	rm -f "$tmp"
}
judge() {
	local out=$OUT/$CHECK.txt
	touched | grep -qE '\.[ch]$' || return 2
	kdoc_of "$PARENT" "$OUT/kdoc.parent"
	kdoc_of "$COMMIT" "$OUT/kdoc.self"
	added "$OUT/kdoc.parent" "$OUT/kdoc.self" >>"$out"
	[ ! -s "$out" ]
}
run_check "$@"
