# Shared settings and helpers for the md series scripts. Sourced, not run.
# shellcheck shell=bash

MDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything expensive and reusable lives outside the clone, so CI and the next
# session reuse it: the unpacked base tree, ccache, sparse, guest packages.
MDS_CACHE=${MDS_CACHE:-/var/cache/md-series}
# Build trees and run logs: inside the clone, ignored by git.
MDS_OUT=${MDS_OUT:-$MDS_ROOT/out}

BASE_PKG=linux-source-7.3
BASE_VER=7.3.4-1~bpo13+1
BASE_TAG=md-base-7.3.4
SERIES_BRANCH=md-series

export CCACHE_DIR=${CCACHE_DIR:-$MDS_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Debian's tools first: scripts/spdxcheck.py (run by checkpatch) needs the
# python3-ply of Debian's python3, not whatever python3 comes first in PATH.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# Stable release string: a git tree would otherwise append '+' and rebuild version files.
export LOCALVERSION=

# The base tree: KERNEL_SRC if the user gave one, else the cached Debian tree.
kernel_tree() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		printf '%s\n' "$KERNEL_SRC"
	else
		printf '%s\n' "$MDS_CACHE/linux"
	fi
}

# disk_specs FILE: the MDS_DISKS words (selftests/run-guest.sh) of FILE,
# one per line, '#' lines left out
disk_specs() {
	local l
	grep -v '^#' "$1" | while IFS= read -r l; do
		[ -n "$l" ] && printf '%s ' "$l"
	done
}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The patch files in series order, as absolute paths.
series_patches() {
	local p
	while IFS= read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		printf '%s\n' "$MDS_ROOT/patches/$p"
	done <"$MDS_ROOT/series"
}

# The Debian tarball base has no history: checkpatch can resolve no upstream
# commit id there, and asks of every new file whether MAINTAINERS needs
# updating. On such a base both types are ignored and ci/check-series.sh
# checks them itself (ci/known-commits, get_maintainer.pl -f).
CHECKPATCH_HISTORYLESS_IGNORE=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
# The release the base tree is, as a maintainer can fetch it: the
# base-commit the mails name when the base has no history (the Debian
# tarball import exists in no public tree).
MDS_PUBLIC_BASE=${MDS_PUBLIC_BASE:-v7.3.4}

# b4_cover_template TREE OUTFILE: on a base without history, make b4 name
# MDS_PUBLIC_BASE as the base-commit (b4's own cover template with that one
# line changed; b4 would otherwise name the local import); on a mainline
# checkout, b4's own template, which names the real commit.
b4_cover_template() {
	if base_has_history "$1" md-series-base; then
		git -C "$1" config --unset b4.prep-cover-template || true
		return
	fi
	# shellcheck disable=SC2016 # b4's template variables, not the shell's
	printf '\n${cover}\n\n---\n${shortlog}\n\n${diffstat}\n---\nbase-commit: %s\nchange-id: ${change_id}\n${prerequisites}\nBest regards,\n-- \n${signature}\n' \
		"$MDS_PUBLIC_BASE" >"$2"
	git -C "$1" config b4.prep-cover-template "$2"
}
base_has_history() { # base_has_history TREE REV
	[ -n "$(git -C "$1" rev-list --parents -n 1 "$2" | cut -s -d' ' -f2)" ]
}

# The identity every patch of this repository is authored and signed off by:
# a placeholder (an RFC 2606 .example address, which no mail reaches), not a
# person. A submitter replaces it with their own (ci/resign.sh) before a real
# 'b4 send'; ci/b4-send-guard.sh refuses to send while any commit carries it.
# ci/resign-check.sh fails if the applied series no longer carries it (this
# would then be stale).
MDS_PLACEHOLDER_NAME='Seed a7756a7d maintainers'
MDS_PLACEHOLDER_EMAIL='maintainers@users.noreply.a-seed-a7756a7d.example'

# identity_commits NAME EMAIL RANGE...: the commits of 'git log RANGE...'
# (in the current repository) that carry the identity as author or in a
# Signed-off-by: line (its name or its address, any case); "<sha> <subject>"
# a line.
identity_commits() {
	local n=$1 e=$2
	shift 2
	git log --format='%x01%h %s%n%an <%ae>%n%B' "$@" |
		awk -v pn="$n" -v pe="$e" '
			function carries(s) { s = tolower(s); return index(s, tolower(pe)) || (pn != "" && index(s, tolower(pn))) }
			function flush() { if (c != "" && hit) print c; c = ""; hit = 0 }
			/^\001/ { flush(); c = substr($0, 2); author = 1; next }
			author { author = 0; if (carries($0)) hit = 1; next }
			tolower($0) ~ /^[ \t]*signed-off-by:/ && carries($0) { hit = 1 }
			END { flush() }'
}
# placeholder_commits RANGE...: those that carry the placeholder identity
placeholder_commits() { identity_commits "$MDS_PLACEHOLDER_NAME" "$MDS_PLACEHOLDER_EMAIL" "$@"; }

# b4_write_mails B4 ARGS...: 'B4 send ARGS' for a send that only writes
# files (-o). b4 refuses an unsigned send through its web endpoint even
# then, so where git config names no SMTP server one is named for this
# command alone (GIT_CONFIG_KEY_n, after any the caller set); nothing
# connects to it, and the submitter's git config is left as it was.
b4_write_mails() {
	local b4=$1 n=${GIT_CONFIG_COUNT:-0}

	shift
	if git config sendemail.smtpserver >/dev/null; then
		"$b4" send "$@"
	else
		env GIT_CONFIG_COUNT=$((n + 1)) "GIT_CONFIG_KEY_$n=sendemail.smtpserver" \
			"GIT_CONFIG_VALUE_$n=localhost" "$b4" send "$@"
	fi
}

# The files of MAINTAINERS' DEVICE-MAPPER entry other than drivers/md/Kconfig
# and Makefile, as an ERE over a patch's '+++ b/PATH' lines: a patch that
# touches none of them is not addressed to device-mapper's people
# (ci/b4-recipients.sh; checked by ci/b4-topics.sh).
MDS_DM_FILES_ERE='^\+\+\+ b/(drivers/md/(dm|persistent-data/)|include/linux/device-mapper\.h|Documentation/admin-guide/device-mapper/)'

# b4_auto_to_cc B4 [B4-OPTIONS]: 'B4 B4-OPTIONS prep --auto-to-cc', with To: and Cc:
# from ci/b4-recipients.sh (get_maintainer.pl, without device-mapper's
# entry unless a patch touches device-mapper) where git config names no
# command of its own; for this command alone, as b4_write_mails() does.
b4_auto_to_cc() {
	local b4=$1 n=${GIT_CONFIG_COUNT:-0} k
	local -a env=()

	shift
	for k in to cc; do
		git config "b4.send-auto-$k-cmd" >/dev/null && continue
		env+=("GIT_CONFIG_KEY_$n=b4.send-auto-$k-cmd"
		      "GIT_CONFIG_VALUE_$n=$MDS_ROOT/ci/b4-recipients.sh $k")
		n=$((n + 1))
	done
	env GIT_CONFIG_COUNT="$n" "${env[@]}" "$b4" "$@" prep --auto-to-cc
}

# md_must_run TREE: every TEST_PROGS of the series' drivers/md kselftest
# Makefile, as drivers/md/NAME, comma separated (what make expands it to)
md_must_run() {
	make -s --no-print-directory -C "$1/tools/testing/selftests/drivers/md" \
		-f Makefile -f <(printf 'mds-print-progs:\n\t@echo $(TEST_PROGS)\n') mds-print-progs |
		tr ' ' '\n' | sed -n 's|^\(md_.*\.sh\)$|drivers/md/\1|p' | paste -sd, -
}

# ksft_knobs ARCH: the kselftests' knobs CI boots that arch with (ci/test.sh
# says why each); empty with MDS_FULL=1
ksft_knobs() {
	[ "${MDS_FULL:-0}" = 1 ] && return
	case $1 in
	x86_64) echo "SQ_GROWS=1 SQ_BURSTS=4 MD_FAIL_BITMAPS=internal MD_BITMAP_GEOMS=512e-io_opt64K,512e-misaligned" ;;
	arm64) echo "SQ_GROWS=1 SQ_BURSTS=4 MD_RESHAPE_STRIPE_SIZES=4096,16384 MD_BITMAP_GEOMS=4Kn-2T,512-pbs16K-1G" ;;
	esac
}
