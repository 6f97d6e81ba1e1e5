#!/usr/bin/env python3
"""compare_graph_test.py - compare.py graph, the check of pmutool report's
call graphs against perf report's, refuses what differs from perf's
drawing: branches in another order, a frame under another parent, rows in
another order, a branch missing; and lets through the one thing perf's
output does not tell: sibling branches of equal weight whose first frames
lie in different files (perf orders those by where its dso objects lie in
memory, util/callchain.c match_chain_dso_addresses).

The drawings are perf 6.1's report --stdio layout (ui/stdio/hist.c), each
checked both ways round."""
import os
import subprocess
import sys
import tempfile

COMPARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare.py")

# perf report --stdio (Children): main calls alpha (in the program), then
# beta and gamma (both in libc.so.6: equal weight, different files from
# alpha's), alpha calls alpha_inner; two rows of equal Children, the caller
# first
PERF = """\
# Children      Self  Command  Shared Object  Symbol
#
    60.00%     0.00%  spin     spin           [.] main
            |
            ---main
               |          
               |--30.00%--alpha
               |          |          
               |           --20.00%--alpha_inner
               |          
               |--15.00%--beta
               |          
                --15.00%--gamma

    30.00%    10.00%  spin     spin           [.] alpha
            |
            ---alpha
               |          
                --20.00%--alpha_inner

    20.00%    20.00%  spin     spin           [.] alpha_inner
    15.00%    15.00%  spin     libc.so.6      [.] beta
    15.00%    15.00%  spin     libc.so.6      [.] gamma
"""


def ours(perf_text):
    """The same drawing as pmutool report prints it: Samples and Period
    before the percentages."""
    out = []
    for line in perf_text.splitlines():
        if "%  spin" in line:
            line = "           1         250000" + line
        out.append(line)
    return "\n".join(out) + "\n"


def run(our_text, perf_text, *more):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for name, text in [("ours", our_text), ("perf", perf_text)] + list(more):
            paths.append(os.path.join(d, name))
            with open(paths[-1], "w") as f:
                f.write(text)
        return subprocess.run([sys.executable, COMPARE, "graph", paths[0], paths[1], "2"] +
                              paths[2:], capture_output=True, text=True)


def swap(text, a, b):
    return text.replace(a, "\0").replace(b, a).replace("\0", b)


failures = []


def expect(name, passes, perf_text, our_text, *more):
    for direction, (x, y) in (("pmutool's", (our_text, perf_text)),
                              ("perf's", (ours(perf_text), ours_to_perf(our_text)))):
        r = run(x, y, *more)
        if (r.returncode == 0) != passes:
            failures.append(f"{name} ({direction} side changed): exit {r.returncode}, "
                            f"{'expected to pass' if passes else 'expected to fail'}\n"
                            f"{r.stdout}{r.stderr}")


def ours_to_perf(our_text):
    return "\n".join(line.replace("           1         250000", "", 1)
                     for line in our_text.splitlines()) + "\n"


same = ours(PERF)
expect("the same drawing", True, PERF, same)
# the heavier branch last: reversed branch order
expect("branches of different weight in reverse order", False, PERF, ours(PERF.replace(
    """               |--30.00%--alpha
               |          |          
               |           --20.00%--alpha_inner
               |          
               |--15.00%--beta
               |          
                --15.00%--gamma""",
    """               |--15.00%--beta
               |          
               |--15.00%--gamma
               |          
                --30.00%--alpha
                          |          
                           --20.00%--alpha_inner""")))
# beta and gamma are one file's: perf orders them by address, and so must
# pmutool
expect("equal branches of one file swapped", False, PERF, ours(swap(PERF, "--beta", "--gamma")))
# gamma in another file than beta: either order may be perf's
other_file = PERF.replace("libc.so.6      [.] gamma", "libm.so.6      [.] gamma")
expect("equal branches of different files swapped", True, other_file,
       ours(swap(other_file, "--beta", "--gamma")))
# alpha_inner under main instead of under alpha: the same lines, "|" aside
expect("a frame under another parent", False, PERF, ours(PERF.replace(
    """               |--30.00%--alpha
               |          |          
               |           --20.00%--alpha_inner
               |          """,
    """               |--30.00%--alpha
               |          
               |--20.00%--alpha_inner
               |          """)))
expect("a frame missing from a node", False, PERF, ours(PERF.replace(
    "               |--30.00%--alpha\n", "               |--30.00%--alph\n")))
expect("rows of equal Children in another order", False, PERF,
       ours(swap(PERF, "libc.so.6      [.] beta", "libc.so.6      [.] gamma")))
expect("a row missing", False, PERF, ours(PERF.replace(
    "    15.00%    15.00%  spin     libc.so.6      [.] gamma\n", "")))
expect("a branch missing", False, PERF, ours(PERF.replace(
    """               |--15.00%--beta
               |          
                --15.00%--gamma""", """                --15.00%--beta""")))
# without Children, files come from another view's rows (MORE): gamma's in
# another file there, so the swap may be perf's
no_rows = "\n".join(line for line in other_file.splitlines() if "[.] beta" not in line and
                    "[.] gamma" not in line) + "\n"
expect("equal branches swapped, files from another view", True, no_rows,
       ours(swap(no_rows, "--beta", "--gamma")), ("more", other_file))
expect("equal branches swapped, files unknown", True, no_rows,
       ours(swap(no_rows, "--beta", "--gamma")))
expect("no rows at all", False, "# nothing\n", "# nothing\n")

if failures:
    sys.exit("\n".join(failures))
print("compare.py graph: every case as expected")
