"""Time a command as a whole process: wall and CPU (user + system, the process and its children, as
the kernel counts them), over several runs after a warm-up; prints min, median and max.

    python scripts/cli_time.py -n 10 -- graphmem search -g alice "我住哪？"

What docs/benchmarks.md quotes for `graphmem search` with and without a running `graphmem serve`.
Standard library only.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time


def run_once(command: list[str]) -> tuple[float, float, int]:
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10, help="counted runs (default 10)")
    parser.add_argument("--warmup", type=int, default=1, help="runs not counted, first (default 1)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARG ...]")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    for _ in range(args.warmup):
        run_once(command)
    walls, cpus, codes = [], [], set()
    for _ in range(args.n):
        wall, cpu, code = run_once(command)
        walls.append(wall)
        cpus.append(cpu)
        codes.add(code)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{' '.join(command)}")
    print(f"  {args.n} runs, exit codes {sorted(codes)}, {os.cpu_count()} cores, {platform.machine()}, load {load:.1f}")
    for name, values in (("wall s", walls), ("cpu s", cpus)):
        print(f"  {name:<7} min {min(values):.3f}  median {statistics.median(values):.3f}  max {max(values):.3f}")
    sys.exit(0 if codes == {0} else 1)


if __name__ == "__main__":
    main()
