#!/usr/bin/env python3
"""A stand-in for the daemon's live stream (SPEC §22) in the mqtt tests.

Listens on the Unix socket SOCKET. Each client gets `hello` and a `snapshot` of the current
state, then every `change`. The test drives it by writing lines to the FIFO CONTROL:
  a `change` message (NDJSON, as §22 writes it): applied to the state, sent to every client;
  `drop`: closes every client (the daemon went and came back);
  `stop` / `start`: closes the socket and every client / listens again (the daemon gone a while);
  `sensors N`: replaces the state with N sensors sim:s0000… (temperature, value 20);
  `churn N`: from now on, every second, a change of N of those sensors (the next N in turn).
"""
import json, os, socket, sys, threading, time

path, control = sys.argv[1], sys.argv[2]
lock = threading.Lock()
sensors, alerts, clients = {}, {}, []
listener = None

def now():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % int((t % 1) * 1000)

def sensor(i, value):
    return {"id": i, "label": "", "quantity": "temperature", "unit": "°C", "value": value, "time": now(),
            "ok": True, "error": None, "limits": None, "alarms": [], "asleep": False}

def send(conn, obj):
    try:
        conn.sendall((json.dumps(obj, ensure_ascii=False) + "\n").encode())
        return True
    except OSError:
        return False

def greet(conn):
    with lock:
        ok = send(conn, {"type": "hello", "version": 1, "host": "fake", "pid": os.getpid(), "started": now()}) and \
            send(conn, {"type": "snapshot", "sensors": list(sensors.values()),
                        "alerts": [a for a in alerts.values() if a["state"] != "ok"], "silences": [], "history": {}})
        if ok:
            clients.append(conn)

def serve():
    global listener
    while True:
        s = listener
        if s is None:
            time.sleep(0.05)
            continue
        try:
            conn, _ = s.accept()
        except OSError:
            continue
        greet(conn)

def listen():
    global listener
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chmod(path, 0o666)
    s.listen(64)
    listener = s

def close_clients():
    with lock:
        for c in clients:
            try:
                c.shutdown(socket.SHUT_RDWR)
                c.close()
            except OSError:
                pass
        clients.clear()

def churn(n):
    step = 0
    while True:
        time.sleep(1)
        with lock:
            ids = sorted(sensors)
            if not ids:
                continue
            changed = []
            for k in range(n):
                i = ids[(step * n + k) % len(ids)]
                sensors[i] = sensor(i, 20 + (step % 50) / 10)
                changed.append(sensors[i])
            step += 1
            message = {"type": "change", "time": now(), "sensors": changed}
            for c in list(clients):
                if not send(c, message):
                    clients.remove(c)

listen()
threading.Thread(target=serve, daemon=True).start()
while True:
    with open(control) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            if line == "drop":
                close_clients()
            elif line == "stop":
                s, listener = listener, None
                s.close()
                os.unlink(path)
                close_clients()
            elif line == "start":
                listen()
            elif line.startswith("churn "):
                threading.Thread(target=churn, args=(int(line.split()[1]),), daemon=True).start()
            elif line.startswith("sensors "):
                with lock:
                    sensors.clear()
                    for n in range(int(line.split()[1])):
                        sensors["sim:s%04d" % n] = sensor("sim:s%04d" % n, 20)
            else:
                change = json.loads(line)
                with lock:
                    for i in change.get("gone", []):
                        sensors.pop(i, None)
                        for k in [k for k in alerts if k[1] == i]:
                            alerts.pop(k)
                    for s in change.get("sensors", []):
                        sensors[s["id"]] = s
                    for a in change.get("alerts", []):
                        alerts[(a["rule"], a["sensor"])] = a
                    change.setdefault("time", now())
                    for c in list(clients):
                        if not send(c, change):
                            clients.remove(c)
