#!/usr/bin/env python3
"""group_desc_bad.py IN OUT - OUT is perf.data file IN with its group
description's first group led by an event the file does not have (its
leader_idx set to the number of events): a file perf refuses."""
import struct
import sys

GROUP_DESC = 17
data = bytearray(open(sys.argv[1], "rb").read())
attr_size, attrs_size = struct.unpack_from("<QQ", data, 16)[0], struct.unpack_from("<Q", data, 32)[0]
nevents = attrs_size // attr_size
data_offset, data_size = struct.unpack_from("<QQ", data, 40)
bits = int.from_bytes(data[72:104], "little")
if not bits >> GROUP_DESC & 1:
    sys.exit("group_desc_bad: the file has no group description")
index = bin(bits & ((1 << GROUP_DESC) - 1)).count("1")
offset, _ = struct.unpack_from("<QQ", data, data_offset + data_size + 16 * index)
name_len = struct.unpack_from("<I", data, offset + 4)[0]
struct.pack_into("<I", data, offset + 8 + name_len, nevents)
open(sys.argv[2], "wb").write(data)
