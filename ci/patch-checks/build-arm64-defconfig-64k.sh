#!/bin/bash
# arm64 defconfig with 64K pages, every md level and dm-raid as modules,
# KUnit off: the page size where raid5's stripe_size code is compiled. The
# drivers/md modules the patch touches build, link and pass modpost, with
# no new W=1 warning.
. "$(dirname "$0")/lib.sh"
state() { bot_state arm64 defconfig bot-md-arm64-64k.config "$1" $MODS; }
judge() { bot_judge "$@"; }
needs_parent() { bot_needs_parent "$1"; }
run_module_check "$@"
