#!/bin/bash
# x86_64 allmodconfig: the KUnit suites are modules too, so a helper used by
# a test module must be exported to it and its namespace imported (modpost).
# The drivers/md modules the patch touches build and link, with no new W=1
# warning.
. "$(dirname "$0")/lib.sh"
state() { bot_state x86_64 allmodconfig bot-allmod.config "$1" $MODS; }
judge() { bot_judge "$@"; }
needs_parent() { bot_needs_parent "$1"; }
run_module_check "$@"
