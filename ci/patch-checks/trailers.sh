#!/bin/bash
# Every trailer of the commit message is in its trailer block, where git
# and b4 read them: a blank line before Signed-off-by: turns the Link:,
# Cc: or Fixes: above it into body text, and b4 then Cc's nobody. Also:
# the block ends with the author's Signed-off-by:, Co-developed-by: is
# followed by that person's Signed-off-by:, and Fixes: names a commit as
# 12+ hex digits ("subject").
. "$(dirname "$0")/lib.sh"
KEYS='Signed-off-by|Co-developed-by|Suggested-by|Reported-by|Reviewed-by|Acked-by|Tested-by|Link|Closes|Fixes|Cc'
judge() {
	local out=$OUT/$CHECK.txt msg parsed line bad=0 author
	msg=$(git -C "$TREE" log -1 --format=%B "$COMMIT")
	parsed=$(printf '%s\n' "$msg" | git interpret-trailers --parse)
	while IFS= read -r line; do
		grep -qxF -- "$line" <<<"$parsed" && continue
		echo "not a trailer (not in the last paragraph, or the block is broken): $line" >>"$out"
		bad=1
	done < <(printf '%s\n' "$msg" | grep -E "^($KEYS): ")
	author=$(git -C "$TREE" log -1 --format='%an <%ae>' "$COMMIT")
	if [ "$(printf '%s\n' "$parsed" | tail -n 1)" != "Signed-off-by: $author" ]; then
		echo "the trailer block does not end with the author's Signed-off-by: $author" >>"$out"
		bad=1
	fi
	printf '%s\n' "$parsed" | awk '
		prev ~ /^Co-developed-by: / && $0 != "Signed-off-by: " substr(prev, 18) {
			print "Co-developed-by: without the Signed-off-by: of the same person: " prev; bad = 1 }
		{ prev = $0 } END { exit bad }' >>"$out" || bad=1
	printf '%s\n' "$parsed" | grep -E '^Fixes: ' | grep -vE '^Fixes: [0-9a-f]{12,40} \(".+"\)$' |
		sed 's/^/malformed: /' >>"$out"
	[ -s "$out" ] && bad=1
	printf '%s\n' "$parsed" | sed 's/^/trailer: /' >>"$out"
	return $bad
}
run_check "$@"
