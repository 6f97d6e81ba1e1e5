#!/bin/sh
# sysfs_dump.sh ROOT PMU... - one line per attribute file of each PMU under
# ROOT/bus/event_source/devices, "PMU/PATH=first line", sorted (LC_ALL=C), or
# "PMU absent"; the driver core's power/ and uevent are left out.  Run in the QEMU
# guests on /sys and on the host on tests/fakesys trees, so both are dumped alike.
root=$1
shift
for pmu in "$@"; do
	dir=$root/bus/event_source/devices/$pmu
	if [ ! -d "$dir" ]; then
		echo "$pmu absent"
		continue
	fi
	(cd "$dir/" && find . -type f ! -path './power/*' ! -name uevent) | while read -r f; do
		echo "$pmu/${f#./}=$(head -n 1 "$dir/$f")"
	done
done | LC_ALL=C sort
