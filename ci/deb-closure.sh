#!/bin/bash
# Put a program from a Debian package into an unpacked root with only the
# shared objects it needs; no chroot, no dpkg database, foreign arches too:
#   ci/deb-closure.sh [-x PKG]... DEBARCH SUITE PKG WORK ROOT FILE...
# 1. Package closure: PKG and, recursively, its Depends and Pre-Depends from
#    SUITE (apt-cache with APT::Default-Release=SUITE), following library
#    packages only (Section libs/oldlibs or named lib*): python3, systemd,
#    init-system-helpers, debconf... are left out. Of an alternative (a | b)
#    or virtual package the first library package that provides it is taken.
#    -x PKG: ROOT already has PKG (its dependencies are still followed).
# 2. The closure is downloaded into WORK/debs (its file names are the
#    versions) and unpacked into WORK/tree.
# 3. FILE... (paths inside PKG, e.g. usr/bin/fio) are copied into ROOT, then
#    every DT_NEEDED soname of them, transitively (readelf, so any arch),
#    looked up as ld.so does: the object's own RUNPATH, else its RPATH (an
#    RPATH's inheritance by what the object loads is not modelled), then
#    /lib/<triplet>, /usr/lib/<triplet>, /lib, /usr/lib; in ROOT first (what
#    ROOT has is used as it is, e.g. its libc6), then in WORK/tree. Only the
#    objects found there and the links to them are copied, into ROOT's merged
#    /usr. A soname found nowhere is an error. WORK/needed lists each soname,
#    the file that provides it and where from (root or tree); WORK/tree is
#    removed at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

skip=()
while getopts x: o; do
	case "$o" in
	x) skip+=("$OPTARG") ;;
	*) die "usage: deb-closure.sh [-x PKG]... DEBARCH SUITE PKG WORK ROOT FILE..." ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 6 ] || die "usage: deb-closure.sh [-x PKG]... DEBARCH SUITE PKG WORK ROOT FILE..."
da=$1 suite=$2 top=$3 work=$4 root=$5
shift 5
native=$(dpkg --print-architecture)
case "$da" in
amd64) tri=x86_64-linux-gnu ;;
arm64) tri=aarch64-linux-gnu ;;
*) tri=$(dpkg-architecture -a "$da" -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	die "no multiarch triplet for '$da'" ;;
esac
aptopt=(-o "APT::Default-Release=$suite")

# --- 1. the package closure -------------------------------------------------
# Each apt-cache run costs seconds (Docker's apt disables pkgcache.bin), so
# there are two: the whole dependency graph, then the records of its packages.
declare -A ver sec # candidate version and section, by package name
declare -A deps    # deps[P]: P's dependencies, one line each (see graph)
declare -A member  # the closure
# graph: one line per dependency of each package that PKG pulls in, "P ALT...",
# the packages that satisfy it in apt's order (a | b: a, its providers, b...;
# <virtual>: its providers). Names are without ':DEBARCH'; packages of another
# arch (for a foreign DEBARCH: the unqualified ones) hold no DEBARCH code and
# are left out.
graph() {
	apt-cache depends --recurse "${aptopt[@]}" --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "$top:$da" |
		awk -v da="$da" -v native="$native" '
		function norm(n) {
			if (n ~ /^</) return ""
			if (n ~ ":" da "$") return substr(n, 1, length(n) - length(da) - 1)
			if (n ~ /:/ || da != native) return ""
			return n
		}
		function add(n) { n = norm(n); if (n != "") alts = alts " " n }
		function flush() {
			if (pkg != "" && alts != "") print pkg alts
			alts = ""; closing = 0
		}
		/^[^ ]/ { flush(); pkg = norm($1); next }
		/^ [ |](Pre)?Depends: / {
			if (closing) flush()
			add($2); closing = ($0 !~ /^ \|/); next
		}
		/^    / { add($1) }
		END { flush() }'
}
mapfile -t lines < <(graph)
for l in "${lines[@]}"; do
	deps[${l%% *}]+=$l$'\n'
done
# the candidate records of all the graph's packages: Package, Version, Section
mapfile -t names < <(printf '%s\n' "$top" "${lines[@]}" | tr ' ' '\n' | grep . | sort -u)
while IFS=$'\t' read -r p v s a; do
	[ "$a" = "$da" ] || [ "$a" = all ] || continue
	ver[$p]=$v sec[$p]=${s##*/}
done < <(apt-cache show --no-all-versions "${aptopt[@]}" "${names[@]/%/:$da}" 2>/dev/null |
	awk -F': ' '/^Package:/ {p = $2; v = s = a = ""} /^Version:/ {v = $2}
		/^Section:/ {s = $2} /^Architecture:/ {a = $2}
		/^$/ && p {print p "\t" v "\t" s "\t" a; p = ""}
		END {if (p) print p "\t" v "\t" s "\t" a}')
[ -n "${ver[$top]:-}" ] || die "no $top:$da in $suite (apt-get update? ci/setup-host.sh?)"
library() { # library NAME: a package whose dependencies are followed
	[ -n "${ver[$1]:-}" ] || return 1
	case "$1" in lib*) return 0 ;; esac
	case "${sec[$1]}" in libs | oldlibs) return 0 ;; esac
	return 1
}
todo=("$top")
member[$top]=1
left=()
while [ ${#todo[@]} -gt 0 ]; do
	p=${todo[0]}
	todo=("${todo[@]:1}")
	while read -r -a w; do
		[ ${#w[@]} -gt 1 ] || continue
		pick=
		for a in "${w[@]:1}"; do
			if library "$a"; then pick=$a; break; fi
		done
		if [ -z "$pick" ]; then left+=("${w[1]}"); continue; fi
		[ -z "${member[$pick]+x}" ] || continue
		member[$pick]=1
		todo+=("$pick")
	done <<<"${deps[$p]:-}"
done
mapfile -t left < <(printf '%s\n' "${left[@]}" | sort -u | grep . || true)
log "$top:$da closure: ${#member[@]} packages; not followed: ${left[*]}"

# --- 2. download, unpack ----------------------------------------------------
rm -rf "$work" && mkdir -p "$work/debs" "$work/tree"
get=()
for p in "${!member[@]}"; do
	for s in "${skip[@]}"; do [ "$p" = "$s" ] && continue 2; done
	get+=("$p:$da=${ver[$p]}")
done
mapfile -t get < <(printf '%s\n' "${get[@]}" | sort)
( cd "$work/debs" && apt-get download -qq "${get[@]}" 2>"$work/download.log" ) ||
	{ cat "$work/download.log" >&2; die "apt-get download of the $top closure failed"; }
[ "$(find "$work/debs" -name '*.deb' | wc -l)" -eq ${#get[@]} ] ||
	die "apt-get download: not all of ${get[*]} came"
for d in "$work"/debs/*.deb; do
	dpkg-deb -x "$d" "$work/tree"
done

# --- 3. the files and what they need ----------------------------------------
tree=$work/tree
# canon PATH: PATH made absolute without . and .., no links followed
canon() { realpath -ms "/$1"; }
# resolve BASE REL: REL (relative to BASE) with its last component's symlinks
# followed inside BASE, relative to BASE; fails if it does not exist there
resolve() {
	local b=$1 p t _
	p=$(canon "$2")
	p=${p#/}
	for _ in $(seq 40); do
		if [ -L "$b/$p" ]; then
			t=$(readlink "$b/$p")
			case "$t" in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
			p=$(canon "$p")
			p=${p#/}
		elif [ -e "$b/$p" ]; then
			# the directory links (ROOT's lib -> usr/lib) resolved too
			t=$(realpath --relative-to="$b" "$b/$p")
			case "$t" in ../* | /*) t=$p ;; esac
			printf '%s\n' "$t"
			return 0
		else
			return 1
		fi
	done
	return 1
}
# usr REL: where REL of an unmerged tree lives in the merged ROOT
usr() {
	case "$1" in
	bin/* | sbin/* | lib/* | lib32/* | lib64/* | libx32/*) printf 'usr/%s\n' "$1" ;;
	*) printf '%s\n' "$1" ;;
	esac
}
# install_rel REL: copy REL of the tree into ROOT, links as relative links to
# the file they end at; $got: that file's path in ROOT
declare -A copied # what install_rel put into ROOT
install_rel() {
	local p f l
	f=$(resolve "$tree" "$1") || die "$1 is not in the unpacked $top closure"
	got=$(usr "$f")
	if [ -z "${copied[$got]+x}" ] && ! [ -e "$root/$got" ]; then
		mkdir -p "$root/$(dirname "$got")"
		cp -p "$tree/$f" "$root/$got"
		copied[$got]=1
	fi
	p=$(canon "$1")
	p=${p#/}
	while [ -L "$tree/$p" ]; do
		mkdir -p "$root/$(dirname "$(usr "$p")")"
		ln -sfr "$root/$got" "$root/$(usr "$p")"
		l=$(readlink "$tree/$p")
		case "$l" in /*) p=$l ;; *) p=$(dirname "$p")/$l ;; esac
		p=$(canon "$p")
		p=${p#/}
	done
}

declare -A walked found # objects walked (paths in ROOT), sonames found
queue=()
for f in "$@"; do
	install_rel "$f"
	queue+=("$got")
done
# the program interpreter must be in ROOT already (from its libc6)
interp=$(readelf -lW "$root/${queue[0]}" |
	sed -n 's/.*Requesting program interpreter: \(.*\)\]$/\1/p')
if [ -n "$interp" ]; then
	resolve "$root" "$interp" >/dev/null || die "$interp is not in $root"
fi
: >"$work/needed"
while [ ${#queue[@]} -gt 0 ]; do
	o=${queue[0]}
	queue=("${queue[@]:1}")
	[ -z "${walked[$o]+x}" ] || continue
	walked[$o]=1
	dyn=$(readelf -dW "$root/$o") || die "readelf -d $root/$o failed"
	# search path of o: its RUNPATH, else its RPATH, then the default dirs
	rp=$(sed -n 's/.*(RUNPATH).*\[\(.*\)\]$/\1/p' <<<"$dyn")
	[ -n "$rp" ] || rp=$(sed -n 's/.*(RPATH).*\[\(.*\)\]$/\1/p' <<<"$dyn")
	rp=${rp//\$\{ORIGIN\}/\$ORIGIN}
	rp=${rp//\$ORIGIN//$(dirname "$o")}
	IFS=: read -r -a dirs <<<"$rp"
	dirs+=("lib/$tri" "usr/lib/$tri" lib usr/lib)
	while read -r so; do
		[ -n "$so" ] || continue
		hit=
		for d in "${dirs[@]}"; do
			[ -n "$d" ] || continue
			d=$(canon "$d")
			d=${d#/}
			if hit=$(resolve "$root" "$d/$so"); then
				from=root
				[ -z "${copied[$hit]+x}" ] || from=tree
				break
			fi
			if resolve "$tree" "$d/$so" >/dev/null; then
				install_rel "$d/$so"
				hit=$got from=tree
				break
			fi
			hit=
		done
		[ -n "$hit" ] ||
			die "$so (needed by $o) is neither in $root nor in the $top closure"
		if [ -z "${found[$so]+x}" ]; then
			found[$so]=1
			printf '%s\t%s\t%s\n' "$so" "$hit" "$from" >>"$work/needed"
		fi
		queue+=("$hit")
	done < <(sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' <<<"$dyn")
done
rm -rf "$tree"
log "$top:$da: $* installed with $((${#copied[@]} - $#)) shared objects;" \
	"$(wc -l <"$work/needed") sonames needed in all"
