#!/usr/bin/env python3
"""Runs a command with stderr (and, with --all, stdout too) on a pseudo-terminal, as a
person's terminal would be; sends SIGTERM after --stop seconds (if given) and prints what
the terminal showed (CR LF as LF), then, with --all unset, what stdout gave after a line
`--- stdout`; with --until TEXT, sends SIGTERM once the terminal has shown TEXT (or after
--stop seconds, if given, when it never does). Exits with the command's exit status.

usage: pty_run.py [--stop SECONDS] [--until TEXT] [--all] -- COMMAND...
"""
import os, pty, select, signal, subprocess, sys, time

args = sys.argv[1:]
stop = None
until = None
everything = False
while args and args[0] != "--":
    if args[0] == "--stop":
        stop = float(args[1]); args = args[2:]
    elif args[0] == "--until":
        until = args[1].encode(); args = args[2:]
    elif args[0] == "--all":
        everything = True; args = args[1:]
    else:
        sys.exit(f"pty_run.py: unknown option {args[0]}")
cmd = args[1:]
master, slave = pty.openpty()
child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave if everything else subprocess.PIPE,
                         stderr=slave, close_fds=True)
os.close(slave)
seen = b""
started = time.monotonic()
sent = False
while True:
    if not sent and ((stop is not None and time.monotonic() - started >= stop) or (until is not None and until in seen)):
        child.send_signal(signal.SIGTERM); sent = True
    r, _, _ = select.select([master], [], [], 0.05)
    if r:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data and child.poll() is not None:
            break
        seen += data
    elif child.poll() is not None:
        # Drain what is left.
        try:
            while select.select([master], [], [], 0.05)[0]:
                data = os.read(master, 65536)
                if not data: break
                seen += data
        except OSError:
            pass
        break
out = b"" if everything else child.stdout.read()
code = child.wait()
sys.stdout.write(seen.replace(b"\r\n", b"\n").decode("utf-8", "replace"))
if not everything:
    sys.stdout.write("--- stdout\n" + out.decode("utf-8", "replace"))
sys.exit(code)
