#!/usr/bin/env python3
"""ipmi-sweeps.py CAPTURE FROZEN_PORT T_STOP T_CONT PORTS: the other BMCs' sweeps while one is frozen.

CAPTURE is `tcpdump -n -tt -l` text of the BMCs' UDP ports (PORTS, comma-separated). A BMC's
sweep is a burst of datagrams to and from its port (its sensors and its event log; a gap over
0.5 s starts the next). For every BMC but FROZEN_PORT: the sweeps' durations (first datagram to
last) and the time from one sweep's start to the next, before T_STOP (Unix seconds) and while
frozen (T_STOP to T_CONT), as p50 / p99 / max. Issue 37: the others keep their sweep times,
p99 within 50 ms of before."""
import collections
import re
import sys

capture, frozen, t_stop, t_cont = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
ports = set(sys.argv[5].split(","))
line_re = re.compile(r"^(\d+\.\d+) IP 127\.0\.0\.1\.(\d+) > 127\.0\.0\.1\.(\d+): UDP")
times = collections.defaultdict(list)
for line in open(capture):
    m = line_re.match(line)
    if m:
        bmc = m.group(3) if m.group(3) in ports else m.group(2) if m.group(2) in ports else None
        if bmc:
            times[bmc].append(float(m.group(1)))


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))] if values else float("nan")


phases = {"before": ([], []), "frozen": ([], [])}
for bmc, ts in times.items():
    if bmc == frozen:
        continue
    sweeps = [[ts[0]]]
    for t in ts[1:]:
        if t - sweeps[-1][-1] > 0.5:
            sweeps.append([t])
        else:
            sweeps[-1].append(t)
    for i, sweep in enumerate(sweeps):
        phase = "before" if sweep[0] < t_stop else "frozen" if sweep[0] < t_cont else None
        if phase is None:
            continue
        phases[phase][0].append((sweep[-1] - sweep[0]) * 1000)
        if i > 0 and (sweeps[i - 1][0] < t_stop) == (sweep[0] < t_stop):
            phases[phase][1].append((sweep[0] - sweeps[i - 1][0]) * 1000)
for phase, (durations, gaps) in phases.items():
    print(
        f"the other BMCs, {phase}: sweep {percentile(durations, 50):.1f} / {percentile(durations, 99):.1f} / "
        f"{max(durations, default=float('nan')):.1f} ms (p50 / p99 / max, {len(durations)} sweeps); start to start "
        f"{percentile(gaps, 50):.1f} / {percentile(gaps, 99):.1f} / {max(gaps, default=float('nan')):.1f} ms"
    )
