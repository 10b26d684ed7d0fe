# Shared by the per-patch checks in ci/patch-checks/. Sourced, not run.
# shellcheck shell=bash
#
# Each check is one script that judges one patch on its own, the way NIPA's
# tests/patch/<check>/ scripts do:
#
#   ci/patch-checks/NAME.sh TREE PARENT COMMIT PATCHFILE OUTDIR
#
# It exits 0 (pass), 1 (fail) or 2 (does not apply to this patch: a skip,
# never counted as a pass), and leaves what a reader needs in
# OUTDIR/NAME.txt. A check that compares states defines state() (run with
# the tree checked out at a state, results into the directory it is given)
# and judge() (parent's and commit's result directories); run_check
# computes each state once per object set and caches it under
# $MDS_OUT/checks/state/, so the parent of patch N+1 is never rebuilt.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

CHECK=$(basename "$0" .sh)
SPARSE=$MDS_CACHE/sparse/bin/sparse
DICT=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt

# Normalize warnings for comparing states: drop line and column numbers,
# also those inside a message ("preceding lock on line 480").
norm() { sed -E 's/:[0-9]+(:[0-9]+(-[0-9]+)?)?([: ])/:\3/; s/ (at|on) line [0-9]+//g' | sort; }
# added OLD NEW: lines of NEW (normalized) beyond their count in OLD.
added() { comm -13 <(norm <"$1") <(norm <"$2"); }

# Files the patch touches.
touched() { git -C "$TREE" diff --name-only "$PARENT" "$COMMIT"; }

# Does the patch change what the kernel builds (C, headers, Kconfig, Makefiles)?
touches_kernel() {
	touched | grep -qvE '^(tools/|Documentation/)|\.kunitconfig$'
}

# md_modules: the drivers/md modules whose objects the patch touches,
# directly or through a header of drivers/md they include (one level of
# headers including headers), and the users of a touched X.c (the files
# that include X.h), as kbuild names them (raid456, linear, ...).
md_modules() {
	local f objs=() h inc
	while IFS= read -r f; do
		case "$f" in
		drivers/md/*.c|drivers/md/*.h)
			# a changed X.c may drop or change what its users take from
			# it: they include X.h, so build them too
			[ "${f%.c}" != "$f" ] && objs+=("$(basename "${f%.c}")")
			h=$(basename "${f%.[ch]}").h
			[ -f "$TREE/drivers/md/$h" ] || continue
			for inc in $(cd "$TREE/drivers/md" && grep -l "#include \"$h\"" -- *.c *.h 2>/dev/null); do
				case "$inc" in
				*.c) objs+=("${inc%.c}") ;;
				*.h) objs+=($(cd "$TREE/drivers/md" && grep -l "#include \"$inc\"" -- *.c 2>/dev/null | sed 's/\.c$//')) ;;
				esac
			done
			;;
		drivers/md/Kconfig|drivers/md/Makefile) objs+=(md) ;;
		esac
	done < <(git -C "$TREE" diff --name-only "$PARENT" "$COMMIT")
	[ ${#objs[@]} = 0 ] && return 0
	# composite modules (NAME-y += a.o b.o) and plain ones (obj-$(..) += a.o)
	printf '%s\n' "${objs[@]}" | sort -u | while read -r o; do
		awk -v o="$o.o" '
			/^[a-z0-9_-]+-(y|objs|\$\(CONFIG_[A-Z0-9_]+\))[ \t]*[+:]?=/ {
				name = $1; sub(/-(y|objs|\$\(CONFIG_[A-Z0-9_]+\))$/, "", name)
				if (name == "obj") name = ""
				line = $0
				while (line ~ /\\$/ && (getline nxt) > 0) line = line " " nxt
				n = split(line, w, /[ \t\\]+/)
				for (i = 1; i <= n; i++) if (w[i] == o && name != "") print name
			}
			/^obj-\$\(CONFIG_[A-Z0-9_]+\)[ \t]*\+=/ {
				n = split($0, w, /[ \t]+/)
				for (i = 1; i <= n; i++) if (w[i] == o) print substr(o, 1, length(o) - 2)
			}
		' "$TREE/drivers/md/Makefile"
	done | sort -u
}

# compute_state REV KEY: state() of REV into its cache dir, once
compute_state() {
	local sd=$MDS_OUT/checks/state/$1/$2
	[ -f "$sd/.done" ] && return 0
	rm -rf "$sd" && mkdir -p "$sd"
	git -C "$TREE" checkout -q -f "$1" || return 1
	state "$sd"
	touch "$sd/.done"
}

# run_check TREE PARENT COMMIT PATCHFILE OUTDIR [STATE-KEY]
run_check() {
	TREE=$1 PARENT=$2 COMMIT=$3 PATCH=$4 OUT=$5
	local key=${6:-$CHECK} s sd rc
	mkdir -p "$OUT"
	: >"$OUT/$CHECK.txt"
	if declare -F state >/dev/null; then
		# The commit's state first. The parent's is computed only if
		# the judge needs it: never with STATE_COMMIT_ONLY=1, and not
		# when the check's needs_parent() says the commit's state alone
		# decides (a build with no warning cannot have added one); the
		# judge then compares with an empty state.
		compute_state "$COMMIT" "$key" || return 1
		sd=$MDS_OUT/checks/state/$PARENT/$key
		if ! [ -f "$sd/.done" ]; then
			if [ "${STATE_COMMIT_ONLY:-0}" != 1 ] &&
			   { ! declare -F needs_parent >/dev/null ||
			     needs_parent "$MDS_OUT/checks/state/$COMMIT/$key"; }; then
				compute_state "$PARENT" "$key" || return 1
			else
				sd=$OUT/$CHECK.empty-parent
				rm -rf "$sd" && mkdir -p "$sd" && : >"$sd/warnings"
			fi
		fi
		git -C "$TREE" checkout -q -f "$COMMIT"
		judge "$sd" "$MDS_OUT/checks/state/$COMMIT/$key"
	else
		git -C "$TREE" checkout -q -f "$COMMIT"
		judge
	fi
	rc=$?
	return $rc
}

# bot_state ARCH BASE FRAGMENT SD MODULE...: what a build bot gets for the
# drivers/md modules of a patch: BASE (defconfig, allmodconfig) with the
# FRAGMENT merged, then 'make W=1 drivers/md/MODULE.ko ...' (each module
# with its final link and modpost) in a build dir of its own. Modules the
# config leaves out are not built. Results in SD: rc, warnings (compiler,
# modpost), config.
bot_state() {
	local arch=$1 base=$2 frag=$3 sd=$4 targets
	shift 4
	bot_config "$arch" "$base" "$frag" "$sd" "$MDS_OUT/build/bot-$CHECK" "$@" || return
	[ -s "$sd/targets" ] || { echo 0 >"$sd/rc"; : >"$sd/warnings"; return; }
	mapfile -t targets <"$sd/targets"
	# W=1 on a clean object set, so every warning is seen at every state
	find "$BOT_DIR/drivers/md" -maxdepth 1 \( -name '*.o' -o -name '*.ko' \) -delete 2>/dev/null
	# Without vmlinux.o modpost cannot resolve the kernel's own symbols and
	# would stop on every one of them: let it warn (KBUILD_MODPOST_WARN)
	# and drop those lines; namespace and other modpost findings stay.
	"${BOT_MK[@]}" W=1 KBUILD_MODPOST_WARN=1 "${targets[@]}" >"$sd/build.log" 2>&1
	echo $? >"$sd/rc"
	grep -E '(warning|error|ERROR|WARNING):' "$sd/build.log" |
		grep -vE "vmlinux\.o is missing|Module\.symvers is missing|^make|symbol '[^']+' undefined!\$|unresolved symbol warnings" \
		>"$sd/warnings" || true
	# modpost without vmlinux skips the unresolved-symbol check, so a
	# 64-bit division that gcc turns into a libgcc call on a 32-bit arch
	# (__udivdi3 and the like, which the kernel does not export) links
	# here and fails only at modpost of a whole build: look for them.
	for ko in "${targets[@]}"; do
		[ -f "$BOT_DIR/$ko" ] || continue
		nm -u "$BOT_DIR/$ko" 2>/dev/null |
			awk -v ko="$ko" '$2 ~ /^__(u?(div|mod)di3|u?divmoddi4|aeabi_u?ldivmod)$/ {
				print "ERROR: " ko " needs the libgcc helper " $2 " (use div_u64() and friends)" }' \
			>>"$sd/warnings"
	done
	# modpost without vmlinux skips the unresolved-symbol check: check at
	# least that what one of these modules takes from another is exported
	# (each module's global symbols listed once, not once per lookup)
	local ko other u
	for ko in "${targets[@]}"; do
		[ -f "$BOT_DIR/$ko" ] &&
			nm --defined-only "$BOT_DIR/$ko" 2>/dev/null | awk '$2 ~ /^[TDRB]$/ {print $3}' \
				>"$sd/defined.$(basename "$ko")"
	done
	for ko in "${targets[@]}"; do
		[ -f "$BOT_DIR/$ko" ] || continue
		for other in "${targets[@]}"; do
			{ [ "$other" = "$ko" ] || ! [ -f "$BOT_DIR/$other" ]; } && continue
			for u in $(nm -u "$BOT_DIR/$ko" 2>/dev/null | awk '{print $2}'); do
				grep -qxF -- "$u" "$sd/defined.$(basename "$other")" || continue
				grep -qE "^0x[0-9a-f]+[[:space:]]+$u[[:space:]]" "$BOT_DIR/modules-only.symvers" 2>/dev/null ||
					echo "ERROR: $ko uses $u of $other, which $other does not export" >>"$sd/warnings"
			done
		done
	done
}

# bot_config ARCH BASE FRAGMENT SD DIR MODULE...: configure DIR (BASE, then
# configs/FRAGMENT merged, then olddefconfig) and list in SD/targets the
# drivers/md/MODULE.ko that this config builds as modules. Sets BOT_DIR
# and BOT_MK (the make command line for DIR).
bot_config() {
	local arch=$1 base=$2 frag=$3 sd=$4 dir=$5 karch cross m sym
	shift 5
	case "$arch" in
	x86_64) karch=x86_64; cross= ;;
	i386) karch=i386; cross= ;;
	arm64) karch=arm64; cross=aarch64-linux-gnu- ;;
	esac
	mkdir -p "$dir"
	BOT_DIR=$dir
	BOT_MK=(make -s -C "$TREE" O="$dir" ARCH="$karch" CROSS_COMPILE="$cross"
		CC="ccache ${cross}gcc" LOCALVERSION= -j"$(nproc)")
	export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=md KBUILD_BUILD_HOST=md-series
	: >"$sd/targets"
	# The .config depends only on the Kconfig files, the arch's defconfigs,
	# kconfig itself, the fragment and the compiler: most patches change
	# none of them, so DIR keeps the last one made from the same inputs
	# (about 7 s a configuration on two cores, four or five per patch).
	local key
	key=$({ echo "$arch $base"; cat "$MDS_ROOT/configs/$frag"; "${cross}gcc" --version | head -n 1
		git -C "$TREE" ls-tree -r HEAD | grep -E '(^|/)Kconfig[^/]*$|/configs/|^scripts/kconfig/'; } |
		sha1sum | cut -d' ' -f1)
	if [ -f "$dir/.config" ] && [ "$(cat "$dir/.config.key" 2>/dev/null)" = "$key" ] &&
	   ! [ "$dir/.config" -nt "$dir/.config.key" ]; then
		echo "configuration kept: same inputs ($key)" >"$sd/config.log"
	else
		rm -f "$dir/.config.key"
		{
			"${BOT_MK[@]}" "$base" &&
			KCONFIG_CONFIG="$dir/.config" ARCH="$karch" "$TREE/scripts/kconfig/merge_config.sh" \
				-m -O "$dir" "$dir/.config" "$MDS_ROOT/configs/$frag" &&
			"${BOT_MK[@]}" olddefconfig
		} >"$sd/config.log" 2>&1 || { echo config >"$sd/rc"; : >"$sd/warnings"; return 1; }
		echo "$key" >"$dir/.config.key"
	fi
	cp "$dir/.config" "$sd/config"
	for m in "$@"; do
		# the Kconfig symbol that builds MODULE.o: obj-$(CONFIG_X) += MODULE.o
		sym=$(sed -nE "s/^obj-\\\$\((CONFIG_[A-Z0-9_]+)\)[[:space:]]*\+=(.*[[:space:]])?$m\.o([[:space:]].*)?\$/\1/p" \
			"$TREE/drivers/md/Makefile" | head -n 1)
		if [ -n "$sym" ] && grep -q "^$sym=m" "$dir/.config"; then
			echo "drivers/md/$m.ko" >>"$sd/targets"
		fi
	done
}

# bot_needs_parent COMMIT-SD: a failed build or configuration fails on its
# own, and a build with no warning has added none: the parent's build is
# needed only to tell its warnings from the patch's.
bot_needs_parent() { [ "$(cat "$1/rc" 2>/dev/null)" = 0 ] && [ -s "$1/warnings" ]; }

# bot_judge PARENT-SD COMMIT-SD: fail on a broken build or a new warning.
bot_judge() {
	local p=$1 c=$2 out=$OUT/$CHECK.txt
	{
		echo "config: $(grep -E '^CONFIG_(KUNIT|WERROR|BLK_DEV_MD|MD_RAID456|MD_LINEAR|DM_RAID|ARM64_64K_PAGES)=' "$c/config" 2>/dev/null | tr '\n' ' ')"
		echo "built: $(tr '\n' ' ' <"$c/targets" 2>/dev/null)"
	} >>"$out"
	if [ "$(cat "$c/rc")" = config ]; then
		{ echo "configuration failed:"; tail -n 20 "$c/config.log"; } >>"$out"
		return 1
	fi
	if [ "$(cat "$c/rc")" != 0 ]; then
		{ echo "build failed:"; grep -E 'error|Error' "$c/build.log" | head -n 20; } >>"$out"
		return 1
	fi
	added "$p/warnings" "$c/warnings" >"$c/new"
	if [ -s "$c/new" ]; then
		{ echo "new warnings:"; cat "$c/new"; } >>"$out"
		return 1
	fi
	return 0
}

# run_module_check TREE PARENT COMMIT PATCHFILE OUTDIR: run_check for a
# check on the drivers/md modules the patch touches (MODS), with the state
# cached per module set; a patch that touches none is a skip.
run_module_check() {
	TREE=$1 PARENT=$2 COMMIT=$3
	touches_kernel || exit 2
	MODS=$(md_modules | tr '\n' ' ')
	[ -n "$MODS" ] || exit 2
	run_check "$@" "$CHECK-$(echo "$MODS" | cksum | cut -d' ' -f1)"
}
