#!/bin/bash
# The md KUnit suites on UML, at native speed: tools/testing/kunit/kunit.py run
# with drivers/md/.kunitconfig. Prints kunit.py's summary; exit status is kunit.py's.
#   kunit/run-uml.sh [KUNIT.PY RUN OPTIONS]   build and run the suites
#   kunit/run-uml.sh config                   only 'kunit.py config': fails if
#       an option of drivers/md/.kunitconfig does not land in UML's .config
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"
tree=$(kernel_tree)
[ -f "$tree/drivers/md/.kunitconfig" ] || die "$tree has no drivers/md/.kunitconfig (is the series applied?)"
cd "$tree" || exit 1
if [ "${1:-}" = config ]; then
	exec python3 tools/testing/kunit/kunit.py config --kunitconfig=drivers/md/.kunitconfig \
		--build_dir="$MDS_OUT/kunit-uml" --make_options LOCALVERSION=
fi
python3 tools/testing/kunit/kunit.py run --kunitconfig=drivers/md/.kunitconfig \
	--build_dir="$MDS_OUT/kunit-uml" --jobs="$(nproc)" --make_options "CC=ccache gcc" \
	--make_options LOCALVERSION= "$@"
