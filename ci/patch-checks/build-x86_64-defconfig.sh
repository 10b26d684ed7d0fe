#!/bin/bash
# x86_64_defconfig with every md level and dm-raid as modules, KUnit off
# (what 0-day builds first): the drivers/md modules the patch touches build,
# link and pass modpost, with no new W=1 warning. CONFIG_WERROR is off so
# that a new warning is reported as one; defconfig would stop on it.
. "$(dirname "$0")/lib.sh"
state() { bot_state x86_64 x86_64_defconfig bot-md.config "$1" $MODS; }
judge() { bot_judge "$@"; }
needs_parent() { bot_needs_parent "$1"; }
run_module_check "$@"
