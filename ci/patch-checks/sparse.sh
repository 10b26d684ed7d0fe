#!/bin/bash
# New sparse (>= 0.6.5) warnings on the drivers/md modules the patch
# touches, in i386 allmodconfig (make C=2), which builds the KUnit suites
# too: the build dir the i386 check has just built at every patch (the
# x86_64 ones build only at each posting's last patch). "sparse is not
# available or not up to date" is a failure, not a silent pass.
. "$(dirname "$0")/lib.sh"
state() {
	local sd=$1
	bot_config i386 allmodconfig bot-allmod.config "$sd" "$MDS_OUT/build/bot-build-i386-allmodconfig" $MODS ||
		return
	mapfile -t targets <"$sd/targets"
	[ ${#targets[@]} = 0 ] && { : >"$sd/warnings"; return; }
	# the build check's flags (bot_state): after it, the objects are up
	# to date and C=2 runs sparse alone, without compiling them again
	"${BOT_MK[@]}" W=1 KBUILD_MODPOST_WARN=1 C=2 CHECK="$SPARSE" "${targets[@]}" >"$sd/raw" 2>&1
	grep -q 'sparse is not available or not up to date' "$sd/raw" &&
		echo "sparse is not available or not up to date: $SPARSE" >"$sd/broken"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$sd/raw" | grep -v '\[-W' >"$sd/warnings" || true
}
# no warning at the patch: nothing can be new, the parent is not needed
needs_parent() { ! [ -f "$1/broken" ] && [ -s "$1/warnings" ]; }
judge() {
	local out=$OUT/$CHECK.txt
	[ -x "$SPARSE" ] || { echo "sparse not built: run ci/setup-host.sh" >>"$out"; return 1; }
	[ -f "$2/broken" ] && { cat "$2/broken" >>"$out"; return 1; }
	[ -f "$2/config" ] || { echo "configuration failed" >>"$out"; return 1; }
	echo "checked: $(tr '\n' ' ' <"$2/targets")" >>"$out"
	added "$1/warnings" "$2/warnings" >"$OUT/sparse.new"
	[ -s "$OUT/sparse.new" ] && { echo "new warnings:"; cat "$OUT/sparse.new"; } >>"$out"
	[ ! -s "$OUT/sparse.new" ]
}
run_module_check "$@"
