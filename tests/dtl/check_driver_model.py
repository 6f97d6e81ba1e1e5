#!/usr/bin/env python3
"""The simulated vpa_dtl driver (tests/support/sim_dtl.c) against a model of the
driver written here, separately, from arch/powerpc/perf/vpa-dtl.c (the
version with the (aux_size - 32) / 48 threshold): vpa_dtl_dump_sample_data,
vpa_dtl_capture_aux, and perf_aux_output_end's aux_head.

usage: check_driver_model.py DTL_DRIVER_TEST

For AUX areas of 4, 8, 16 and 64 KiB and polls of random sizes (bursts past
the hypervisor's 85 entries among them), with a reader that keeps up, every
output (aux_offset, size) of every poll and the driver's counts (entries
written, reported, lost past the wrap, dropped by the hypervisor buffer and
at the wrap, headers) must be the model's.  And the figures issue 16 gives
from a third model of the driver: 10 entries a poll, 4 KiB, 400 polls: 3,759
written, 3,359 reported; 60 a poll, 128 KiB, 2,000 polls: 118,739 and 116,219.
"""
import random
import subprocess
import sys

N_DISPATCH_LOG = 85
ENTRY = 48


def model(aux_size, polls):
    """Per poll, the outputs; then the counts."""
    threshold = (aux_size - 32) // ENTRY          # vpa_dtl_setup_aux
    st = dict(written=0, reported=0, wrap_lost=0, hv=0, batch=0, headers=0)
    buf = dict(head=0, head_size=0, full=False, saved=False)
    dtl_idx = last_idx = aux_head = 0
    result = []
    for n in polls:
        dtl_idx += n                              # the hypervisor logs
        outs, copied = [], []

        def capture(count):                        # vpa_dtl_capture_aux
            if buf["head"] + count >= threshold:
                st["batch"] += count - (threshold - buf["head"])
                count = threshold - buf["head"]
                buf["full"] = True
            copied.extend((buf["head"] + k) * ENTRY for k in range(count))
            st["written"] += count
            buf["head"] = 0 if buf["full"] else buf["head"] + count
            return count

        def output_end(size):                      # perf_aux_output_end
            nonlocal aux_head
            at = aux_head % aux_size
            for off in copied:
                if at <= off and off + ENTRY <= at + size:
                    st["reported"] += 1
                else:
                    st["wrap_lost"] += 1
            copied.clear()
            if size:
                outs.append((aux_head, size))
                aux_head += size

        def finish(entries):
            size = entries * ENTRY
            if size + buf["head_size"] > aux_size:
                output_end(aux_size - buf["head_size"])
                buf["head"] = buf["head_size"] = 0
            else:
                buf["head_size"] += size
                output_end(size)

        cur, last = dtl_idx, last_idx
        if last + N_DISPATCH_LOG <= cur:
            st["hv"] += cur - N_DISPATCH_LOG + 1 - last
            last = cur - N_DISPATCH_LOG + 1
        n_req = cur - last
        if n_req > 0:
            last_idx = last + n_req
            i = last % N_DISPATCH_LOG
            n_read = 0
            if not buf["saved"]:
                buf["saved"] = True
                buf["head"] += 1
                n_read += 1
                st["headers"] += 1
            done = False
            if i + n_req > N_DISPATCH_LOG:
                asked = N_DISPATCH_LOG - i
                got = capture(asked)
                n_req -= got
                n_read += got
                if buf["full"]:
                    st["batch"] += n_req - (asked - got)
                    finish(n_read)
                    done = True
            if not done:
                n_req = capture(n_req)
                finish(n_req + n_read)
            buf["full"] = False
        result.append(outs)
    return result, st


def simulated(tool, aux_size, polls):
    r = subprocess.run([tool, "outputs", str(aux_size)], input="\n".join(map(str, polls)),
                       capture_output=True, text=True, check=True)
    result, st = [], None
    for line in r.stdout.splitlines():
        f = line.split()
        if f[0] == "poll":
            result.append([])
        elif f[0] == "end":
            v = list(map(int, f[1:]))
            st = dict(written=v[0], reported=v[1], wrap_lost=v[2], hv=v[3], batch=v[4],
                      headers=v[5])
        else:
            result[-1].append((int(f[0]), int(f[1])))
    return result, st


def main():
    tool = sys.argv[1]
    failures = 0
    for aux_size in (4096, 8192, 16384, 65536):
        for seed in range(3):
            rnd = random.Random(aux_size * 10 + seed)
            polls = [rnd.choice((0, 1, 1, 2, 5, rnd.randrange(90), rnd.randrange(200), 85))
                     for _ in range(3000)]
            want, want_st = model(aux_size, polls)
            got, got_st = simulated(tool, aux_size, polls)
            bad = [k for k, (a, b) in enumerate(zip(want, got)) if a != b]
            if len(got) != len(want) or bad or want_st != got_st:
                failures += 1
                k = bad[0] if bad else -1
                print(f"aux {aux_size} seed {seed}: poll {k}: model {want[k] if bad else ''} "
                      f"sim {got[k] if bad else ''}; counts model {want_st} sim {got_st}",
                      file=sys.stderr)
            elif want_st["wrap_lost"] == 0 or want_st["hv"] == 0 or want_st["batch"] == 0:
                failures += 1
                print(f"aux {aux_size} seed {seed}: a case not reached: {want_st}",
                      file=sys.stderr)
    for aux_size, n, polls, written, reported in ((4096, 10, 400, 3759, 3359),
                                                  (131072, 60, 2000, 118739, 116219)):
        for name, (_, st) in (("model", model(aux_size, [n] * polls)),
                              ("simulated", simulated(tool, aux_size, [n] * polls))):
            if (st["written"], st["reported"]) != (written, reported):
                failures += 1
                print(f"{name}, {n} a poll, {aux_size} bytes, {polls} polls: {st['written']} "
                      f"written, {st['reported']} reported; issue 16: {written}, {reported}",
                      file=sys.stderr)
    print("12 runs of 3000 polls: the simulated driver's outputs and counts are the model's; "
          "issue 16's figures reproduced" if not failures else f"{failures} runs differ")
    return 1 if failures else 0


sys.exit(main())
