#!/usr/bin/python3
"""qg_mmcr_read.py - read the MMCRs a POWER guest's kernel programmed, through
QEMU's gdb stub, at each call of the guest probe's qg_mmcr_point; and give
the guest another processor version first.

    qg_mmcr_read.py --port PORT [--addr HEX --out FILE] [--pvr HEX] [--timeout S]

--pvr HEX writes the PVR (SPR 287) before the guest's first instruction, so
that QEMU's power10 model boots as a Power11 (PVR 0x00820200): QEMU 7.2 has
no Power11 model and no option for the PVR, and its TCG mfspr reads what the
stub wrote.  The stub hands the 64-bit register over in the CPU's byte order
of the moment, big-endian before the kernel switches to little-endian
(gdb's `set $pvr = 0x0002820000000000` writes 0x00820200); the order is
taken from the value read first (the PVR is 32 bits: the reading that fits
them), and the value read back must be the one written.  Without --addr no
breakpoint is set: the guest runs to its end (run-guest.sh --pvr).

--timeout S: how long the stub may stay silent (default 600): each answer
starts the wait anew, so a slow (busy) machine never fails a run that goes on.

Speaks the GDB remote serial protocol itself (what gdb-multiarch's `hbreak`,
`commands` and `printf $mmcr0 ...` do, without gdb's per-stop work: it fetches
no frame, no memory and no other register): a hardware breakpoint (Z1) at
ADDR, then at each stop r3 (the group id, the first argument) and MMCR0,
MMCR1, MMCR2 and MMCRA by register number ('p'), found in QEMU's target
description (qXfer:features:read), then continue.  Writes "M ID MMCR0 MMCR1
MMCR2 MMCRA" (hex) a stop.  Ends when the guest powers off (QEMU closes the
connection); every wait is bounded and a silent stub is named.
"""
import argparse
import re
import socket
import sys
import time


class StubError(Exception):
    pass


class Stub:
    def __init__(self, port, silence):
        self.silence = silence
        self.deadline = time.monotonic() + silence
        self.buf = b""
        self.sock = self._connect(port)

    def _connect(self, port):
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                # small packets each waiting for an answer: without this,
                # Nagle's algorithm and delayed ACKs add 40 ms to each
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                return sock
            except OSError as e:
                if time.monotonic() > self.deadline:
                    raise StubError(f"QEMU's gdb stub at 127.0.0.1:{port} did not accept a "
                                    f"connection ({e})")
                time.sleep(0.1)

    def _recv(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise StubError(f"QEMU's gdb stub was silent for {self.silence:.0f} s")
        self.sock.settimeout(left)
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise StubError(f"QEMU's gdb stub was silent for {self.silence:.0f} s")
        if not data:
            return False
        self.deadline = time.monotonic() + self.silence
        self.buf += data
        return True

    def send(self, payload):
        cs = sum(payload.encode()) & 0xFF
        self.sock.sendall(f"${payload}#{cs:02x}".encode())

    def packet(self):
        """The next packet's payload, or None when the connection closed."""
        while True:
            m = re.search(rb"\$([^#]*)#[0-9a-fA-F]{2}", self.buf)
            if m:
                self.buf = self.buf[m.end():]
                self.sock.sendall(b"+")  # QEMU 7.2 has no QStartNoAckMode
                return m.group(1).decode()
            if not self._recv():
                return None

    def ask(self, payload):
        self.send(payload)
        reply = self.packet()
        if reply is None:
            raise StubError(f"QEMU's gdb stub closed the connection after '{payload}'")
        return reply


def target_registers(stub):
    """Register name -> number from QEMU's target description (its XML files,
    registers numbered in order, or by a regnum attribute)."""
    def read(name):
        text, off = "", 0
        while True:
            r = stub.ask(f"qXfer:features:read:{name}:{off:x},ffb")
            text += r[1:]
            off += len(r) - 1
            if r[0] == "l":
                return text
            if r[0] != "m":
                raise StubError(f"QEMU's gdb stub gave no target description ({name}: {r})")

    regs, nextnum = {}, 0
    target = read("target.xml")
    for href in re.findall(r'<xi:include href="([^"]+)"', target):
        for reg in re.finditer(r"<reg ([^>]*)>", read(href)):
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', reg.group(1)))
            num = int(attrs["regnum"]) if "regnum" in attrs else nextnum
            # the first wins: QEMU's power-spr.xml repeats lr, ctr and xer
            # as SPRs, which its stub does not read from the real registers
            regs.setdefault(attrs["name"].lower(), num)
            nextnum = num + 1
    return regs


def le64(reply):
    """A 'p' reply: the register's bytes in the guest's (little-endian) order."""
    if not re.fullmatch(r"[0-9a-fA-F]{16}", reply):
        raise StubError(f"QEMU's gdb stub sent '{reply}' for a register")
    return int.from_bytes(bytes.fromhex(reply), "little")


BLR = "2000804e"  # blr, as the guest (little-endian) holds it


def check_leaf(stub, addr):
    """qg_mmcr_point must be a lone blr for return_from() to stand for it."""
    word = stub.ask(f"m{addr:x},4")
    if word != BLR:
        raise StubError(f"qg_mmcr_point at {addr:x} is not a lone blr (it holds {word}): "
                        "the probe was built differently")


def return_from(stub, regs):
    """Past the breakpoint without removing it: do the blr ourselves (pc =
    lr).  Removing and inserting a breakpoint makes QEMU flush all its
    translated code, which made each stop cost about 100 ms."""
    lr = stub.ask(f"p{regs['lr']:x}")
    if stub.ask(f"P{regs['pc']:x}={lr}") != "OK":
        raise StubError("QEMU's gdb stub did not set pc")


def set_pvr(stub, regs, pvr):
    """Write the PVR in the byte order the stub uses now (see the header)."""
    now = bytes.fromhex(stub.ask(f"p{regs['pvr']:x}"))
    order = "big" if int.from_bytes(now, "big") < 1 << 32 else "little"
    data = pvr.to_bytes(len(now), order).hex()
    if stub.ask(f"P{regs['pvr']:x}={data}") != "OK":
        raise StubError("QEMU's gdb stub did not write the PVR")
    back = int.from_bytes(bytes.fromhex(stub.ask(f"p{regs['pvr']:x}")), order)
    if back != pvr:
        raise StubError(f"the PVR reads 0x{back:x} after writing 0x{pvr:08x}")
    print(f"qg_mmcr_read: PVR 0x{int.from_bytes(now, order):08x} -> 0x{pvr:08x}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--addr")
    ap.add_argument("--out")
    ap.add_argument("--pvr")
    ap.add_argument("--timeout", type=float, default=600)
    a = ap.parse_args()
    if (a.addr is None) != (a.out is None):
        ap.error("--addr and --out go together")
    try:
        stub = Stub(a.port, a.timeout)
        if "qXfer:features:read+" not in stub.ask("qSupported:xmlRegisters=powerpc"):
            raise StubError("QEMU's gdb stub offers no target description (qXfer:features)")
        regs = target_registers(stub)
        want = ["r3", "mmcr0", "mmcr1", "mmcr2", "mmcra"]
        missing = [r for r in want + ["pc", "lr", "pvr"] if r not in regs]
        if missing:
            raise StubError(f"QEMU's target description has no {', '.join(missing)}")
        if a.pvr:
            set_pvr(stub, regs, int(a.pvr, 16))
        if not a.addr:  # run to the end: continue from any stop
            stub.send("c")
            while (reply := stub.packet()) is not None and reply[0] not in "WX":
                if reply[0] in "TS":
                    stub.send("c")
            return 0
        if stub.ask(f"Z1,{int(a.addr, 16):x},4") != "OK":
            raise StubError(f"QEMU's gdb stub refused a hardware breakpoint at {a.addr}")
        stops = 0
        with open(a.out, "w") as out:
            while True:
                stub.send("c")
                reply = stub.packet()
                if reply is None or reply[0] in "WX":
                    break
                if reply[0] != "T" and reply[0] != "S":
                    raise StubError(f"QEMU's gdb stub sent '{reply}' for a stop")
                v = [le64(stub.ask(f"p{regs[r]:x}")) for r in want]
                out.write("M %d %x %x %x %x\n" % tuple(v))
                if not stops:
                    check_leaf(stub, int(a.addr, 16))
                stops += 1
                return_from(stub, regs)
        print(f"qg_mmcr_read: {stops} stops at {a.addr}")
    except (StubError, OSError) as e:
        print(f"qg_mmcr_read: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
