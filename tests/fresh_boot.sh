#!/bin/sh
# fresh_boot.sh CMD [ARG]... - runs CMD as on a freshly booted machine, where
# nothing has mounted tracefs (nor debugfs, whose tracing/ would mount it):
# in a mount namespace of its own (unshare -m, private propagation), both
# unmounted there, the host's mounts untouched.  Root only, as CI runs.
set -u
[ $# -ge 1 ] || { echo "usage: fresh_boot.sh CMD [ARG]..."; exit 2; }
command -v unshare >/dev/null || { echo "FAIL: unshare missing: install the Debian package util-linux"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: fresh_boot.sh needs root (a mount namespace)"; exit 1; }
exec unshare -m --propagation private sh -c '
	for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug; do
		while grep -q " $m " /proc/self/mounts; do umount "$m" || exit 1; done
	done
	if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
		echo "FAIL: fresh_boot.sh: tracefs still mounted"; exit 1
	fi
	exec "$@"' sh "$@"
