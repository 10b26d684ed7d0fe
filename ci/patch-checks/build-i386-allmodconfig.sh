#!/bin/bash
# i386 allmodconfig, as 0-day builds it: the KUnit suites are modules, and
# a 64-bit division by a variable in any drivers/md module the patch
# touches (a sector_t divided with / or %) needs a libgcc helper the
# kernel does not export, so the module cannot load; bot_state reports
# each such helper. Also: no new W=1 warning, modpost's namespace checks.
. "$(dirname "$0")/lib.sh"
state() { bot_state i386 allmodconfig bot-allmod.config "$1" $MODS; }
judge() { bot_judge "$@"; }
needs_parent() { bot_needs_parent "$1"; }
run_module_check "$@"
