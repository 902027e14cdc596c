"""A client of sensorwatch's live stream (SPEC §22) for scripts/it/live-stream.sh.

`python3 live_client.py MODE SOCKET [ARGS…]`: exits 0 when the mode's checks hold, else
prints why and exits 1. Only the standard library (socket, json)."""
import json
import os
import socket
import sys
import time


def fail(message):
    print("live_client: " + message, file=sys.stderr)
    sys.exit(1)


class Client:
    def __init__(self, path, subscribe=None, rcvbuf=None):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.settimeout(10)
        self.s.connect(path)
        self.buf = b""
        if subscribe is not None:
            self.send(json.dumps({"subscribe": {"sensor": subscribe}}) + "\n")

    def send(self, text):
        self.s.sendall(text.encode())

    def next(self):
        """The next message, or None at the end of the stream."""
        while b"\n" not in self.buf:
            chunk = self.s.recv(1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def start(self):
        hello, snapshot = self.next(), self.next()
        if not hello or hello["type"] != "hello" or hello["version"] != 1:
            fail("expected hello version 1, got %r" % (hello,))
        for key in ("host", "pid", "started"):
            if key not in hello:
                fail("hello without %s: %r" % (key, hello))
        if not snapshot or snapshot["type"] != "snapshot":
            fail("expected a snapshot, got %r" % (snapshot,))
        return hello, snapshot

    def change_until(self, check, seconds=5):
        deadline = time.time() + seconds
        while time.time() < deadline:
            m = self.next()
            if m is None:
                fail("the stream ended while waiting")
            if m["type"] == "change" and check(m):
                return m
        fail("no such change within %ss" % seconds)

    def expect_error(self, seconds=5):
        deadline, got = time.time() + seconds, []
        m = self.next()
        while m is not None and m["type"] != "error":
            got.append(m["type"])
            if time.time() > deadline:
                fail("no error within %ss, but %s" % (seconds, got[:5]))
            m = self.next()
        if m is None:
            fail("no error before the end")
        if self.next() is not None:
            fail("the daemon did not close after its error")
        return m["message"]


def put(path, text):
    with open(path, "w") as f:
        f.write(text + "\n")


def sensor(m, id):
    return next((s for s in m.get("sensors", []) if s["id"] == id), None)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    if mode == "basic":  # TEMPFILE ID: snapshot, then a change when the file changes
        temp, id = args
        for _ in range(50):  # a snapshot before the first poll has no values: again, later
            c = Client(path, subscribe=["thermal:*"])
            _, snap = c.start()
            s = sensor(snap, id)
            if s is not None and s["value"] is not None:
                break
            time.sleep(0.1)
        if s is None or s["value"] != 50 or "limits" not in s or "alarms" not in s or "asleep" not in s:
            fail("snapshot lacks %s as status.json shows it: %r" % (id, s))
        if not snap["history"].get(id):
            fail("snapshot has no history for %s" % id)
        put(temp, "85000")
        seen = {"value": False, "firing": False}

        def hot(m):
            s = sensor(m, id)
            if s is not None:
                if s["value"] != 85:
                    fail("%s changed to %r, not 85" % (id, s["value"]))
                seen["value"] = True
            others = [s["id"] for s in m.get("sensors", []) if s["id"] != id]
            if others:
                fail("the change carries unchanged sensors too: %r" % others)
            if any(a["sensor"] == id and a["state"] == "firing" for a in m.get("alerts", [])):
                seen["firing"] = True
            return seen["value"] and seen["firing"]
        c.change_until(hot)
        put(temp, "50000")
        c.change_until(lambda m: any(a["sensor"] == id and a["state"] == "ok" for a in m.get("alerts", [])))
    elif mode == "subscribe":  # GLOB PREFIX: only sensors whose id starts with PREFIX
        glob, prefix = args
        c = Client(path, subscribe=[glob])
        _, snap = c.start()
        ids = [s["id"] for s in snap["sensors"]]
        if not ids or any(not i.startswith(prefix) for i in ids):
            fail("subscribed to %s, got %r" % (glob, ids))
        m = c.change_until(lambda m: bool(m.get("sensors")))
        if any(not s["id"].startswith(prefix) for s in m["sensors"]):
            fail("a change outside the subscription: %r" % m)
    elif mode == "junk":  # LINE: sent first, answered by an error and the end
        c = Client(path)
        c.send(args[0] + "\n")
        print(c.expect_error())
    elif mode == "many":  # 64 clients stream, the 65th gets an error
        clients = [Client(path, subscribe=["*"]) for _ in range(64)]
        for c in clients:
            c.start()
        extra = Client(path)
        message = extra.expect_error()
        if "too many" not in message:
            fail("the 65th got %r" % message)
        print(message)
    elif mode == "hotplug":  # FROM TO ID: a zone directory moved in appears, moved out goes
        src, dst, id = args
        c = Client(path, subscribe=["*"])
        c.start()
        os.rename(src, dst)
        c.change_until(lambda m: id in m.get("appeared", []) and sensor(m, id) is not None)
        os.rename(dst, src)
        c.change_until(lambda m: id in m.get("gone", []))
    elif mode == "hold":  # READY: subscribes, reads nothing, a buffer of 4 KiB
        c = Client(path, subscribe=["*"], rcvbuf=4096)
        put(args[0], "ready")
        time.sleep(3600)
    elif mode == "pace":  # ID SECONDS INTERVAL_MS: the sensor's samples keep their pace
        id, seconds, interval = args[0], float(args[1]), float(args[2]) / 1000
        c = Client(path, subscribe=[id])
        c.start()
        times, deadline = [], time.time() + seconds
        while time.time() < deadline:
            m = c.next()
            s = sensor(m, id) if m and m["type"] == "change" else None
            if s:
                times.append(time.time())
        gaps = [b - a for a, b in zip(times, times[1:])]
        expected = seconds / interval
        if len(times) < expected * 0.7 or (gaps and max(gaps) > interval * 4):
            fail("%d changes in %ss (expected about %d), largest gap %.3fs" % (len(times), seconds, expected, max(gaps or [0])))
        print("%d changes in %ss, largest gap %.3fs" % (len(times), seconds, max(gaps or [0])))
    elif mode == "readonly":  # reads like anyone; a request to change something is refused
        c = Client(path)
        c.start()
        c2 = Client(path)
        c2.send(json.dumps({"silence": {"add": {"rule": "*", "for": "1h"}}}) + "\n")
        print(c2.expect_error())
    elif mode == "attach":  # READY: a reading client that stays until the daemon goes
        c = Client(path, subscribe=["*"])
        c.start()
        put(args[0], "ready")
        while c.next() is not None:
            pass
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main()
