#!/usr/bin/env python3
"""Sends sensorwatch alert entries straight to journald's socket, the way sd_journal_sendv
does (one datagram of NAME=value lines each), each followed by the wake the daemon sends
to a running notify (an empty datagram to /run/sensorwatch-notify/wake, if it is there):
COUNT entries, RATE a second (0: at once).
usage: notify-send.py COUNT RATE [PRIORITY] [nowake]  (PRIORITY: 4, warning, by default;
nowake: the journal entries only, as a daemon before the wake existed)"""
import socket, sys, time

count, rate = int(sys.argv[1]), float(sys.argv[2])
priority = sys.argv[3] if len(sys.argv) > 3 else "4"
waking = "nowake" not in sys.argv[4:]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.connect("/run/systemd/journal/socket")
w = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
start = time.monotonic()
for i in range(count):
    if rate > 0:
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    state = "firing" if i % 2 == 0 else "resolved"
    mid = "f96e031d73b04032b5e2b8ab87332769" if state == "firing" else "e4eda26d66284e999fe0af5ec5782b44"
    fields = [
        f"MESSAGE=bench-{i} {state}: sim:cpu 85 °C above 80 °C", f"PRIORITY={priority}", "SYSLOG_IDENTIFIER=sensorwatch",
        f"MESSAGE_ID={mid}", f"ALERT_RULE=bench-{i}", f"ALERT_STATE={state}", "ALERT_SEVERITY=warning",
        "ALERT_THRESHOLD=80", "SENSOR_ID=sim:cpu", "SENSOR_QUANTITY=temperature", "SENSOR_VALUE=85",
        "SENSOR_UNIT=°C",
    ]
    s.send(("\n".join(fields) + "\n").encode())
    if waking:
        try:
            w.sendto(b"", "/run/sensorwatch-notify/wake")
        except OSError:
            pass  # nobody listens, or a wake is already queued: as the daemon, go on
