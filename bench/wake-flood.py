#!/usr/bin/env python3
"""Floods notify's wake socket with COUNT empty datagrams, as any local user can (run it
under setpriv as another user). nowait (default): each sendto with MSG_DONTWAIT, as fast as
the kernel takes them, a full queue (EAGAIN) counted and skipped; wait: blocking sends, each
one queued, until COUNT or SECONDS have passed. Prints "sent queued seconds".
usage: wake-flood.py COUNT [nowait|wait] [SECONDS] [PATH]"""
import errno, socket, sys, time

count = int(sys.argv[1])
mode = sys.argv[2] if len(sys.argv) > 2 else "nowait"
limit = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
path = sys.argv[4] if len(sys.argv) > 4 else "/run/sensorwatch-notify/wake"
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
if mode == "wait":
    s.settimeout(0.1)
flags = socket.MSG_DONTWAIT if mode == "nowait" else 0
queued = sent = 0
start = time.monotonic()
while sent < count and time.monotonic() - start < limit:
    try:
        s.sendto(b"", flags, path)
        queued += 1
        sent += 1
    except BlockingIOError:
        sent += 1 if mode == "nowait" else 0
    except socket.timeout:
        pass
    except OSError as e:
        if e.errno != errno.EAGAIN:
            raise
        sent += 1 if mode == "nowait" else 0
print(sent, queued, f"{time.monotonic() - start:.3f}")
