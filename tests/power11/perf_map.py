#!/usr/bin/python3
"""perf_map.py MAPFILE DTS... - the processor versions of our descriptions
against perf's own map of processors to event files
(tools/perf/pmu-events/arch/powerpc/mapfile.csv; tests/data/perf-json/).

Each DTS (pmugen's tree of a description) says its platform, its processor
versions (pvr-versions, else pvr's) and the description it extends.  Its
events are those of perf's directory named as its platform, or, for a
description that extends another, as its base's (power11 extends power10:
its events are POWER10's, imported from perf's power10 directory).  For
every processor version v, perf's map must send a PVR of that version
(0xVVVV0200) to that directory; and every PVR the map sends to a directory
one of the descriptions was imported from must be a processor version of
one of them.  So Power11 gets from perf exactly the events it has here, and
no processor perf gives POWER10's events to is left without a description.
"""
import re
import sys


def prop(text, name):
    m = re.search(r"^\s*%s = (.*);$" % re.escape(name), text, re.M)
    return m.group(1) if m else None


def description(path):
    text = open(path).read()
    platform = prop(text, "platform").strip('"')
    extends = prop(text, "extends")
    versions = prop(text, "pvr-versions")
    pvr = prop(text, "pvr")
    if versions:
        versions = [int(v, 0) for v in versions.strip("<>").split()]
    elif pvr:
        versions = [int(pvr.strip("<>"), 0) >> 16]
    else:
        versions = []
    return platform, (extends.strip('"') if extends else platform), versions


def main():
    mapfile, trees = sys.argv[1], sys.argv[2:]
    rules = []
    for line in open(mapfile):
        if line.startswith("#") or not line.strip():
            continue
        regex, _, directory, kind = line.strip().split(",")
        if kind == "core":
            rules.append((re.compile(regex.replace("[[:xdigit:]]", "[0-9a-fA-F]")), directory))

    def perf_dir(pvr):
        for regex, directory in rules:
            if regex.fullmatch("0x%08x" % pvr):
                return directory
        return None

    fails, ours = 0, {}
    for tree in trees:
        platform, events_dir, versions = description(tree)
        if not versions:
            print("FAIL %s: no processor versions" % tree)
            fails += 1
        for v in versions:
            ours[v] = platform
            got = perf_dir(v << 16 | 0x0200)
            if got != events_dir:
                print("FAIL %s: perf gives processor version 0x%04x the events of %s, "
                      "not %s's" % (platform, v, got, events_dir))
                fails += 1
            else:
                print("ok   %s: perf gives processor version 0x%04x the events of %s" %
                      (platform, v, got))
    imported = {description(t)[1] for t in trees}
    for v in range(1 << 16):
        directory = perf_dir(v << 16 | 0x0200)
        if directory in imported and v not in ours:
            print("FAIL perf gives processor version 0x%04x the events of %s, which no "
                  "description here claims" % (v, directory))
            fails += 1
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
