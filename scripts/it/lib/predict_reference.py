"""An independent reference of SPEC §5 and §10 for predict rules, against `simulate --json`.

    predict_reference.py BINARY SEED DIR

Writes a random scenario (two sensors, irregular explicit sample times, failed reads) and
four random predict rules (above/below, hysteresis, for, clearFor, repeat) into DIR, works
out the events with an exact rational least-squares fit and the alert state machine as the
contract words them, and compares them with what the binary prints: every event, its time,
value and `predicted` (within 1e-9, relative). Exit 0 when they agree, 1 when not.
"""
import json, os, random, subprocess, sys
from fractions import Fraction as F

BIN = sys.argv[1]
seed = int(sys.argv[2])
os.chdir(sys.argv[3])
rnd = random.Random(seed)

def gen_samples():
    t = 0
    out = []
    v = rnd.uniform(40, 80)
    slope = rnd.uniform(-0.5, 0.5)
    for _ in range(rnd.randint(50, 400)):
        t += rnd.choice([1, 1, 1, 2, 5, 10, 250, 500, 1000]) * 10**6 * rnd.choice([1, 10, 100])  # ns
        if rnd.random() < 0.03: slope = rnd.uniform(-0.5, 0.5)
        v += slope * rnd.uniform(0, 2) + rnd.uniform(-0.3, 0.3)
        val = None if rnd.random() < 0.05 else round(v, 3)
        out.append((t, val))
    return out

def dur(ns):
    return f"{ns}ns"

rules = []
for i in range(4):
    above = rnd.random() < 0.6
    r = dict(name=f"r{i}", above=above, T=round(rnd.uniform(40, 90), 1),
             H=rnd.choice([1, 2, 5, 30, 60]) * 10**9, W=rnd.choice([1, 3, 10, 30]) * 10**9,
             hyst=rnd.choice([0, 0, 0.5, 2]), hold=rnd.choice([0, 0, 2, 5]) * 10**9,
             clear=rnd.choice([0, 0, 1, 3]) * 10**9, rep=rnd.choice([None, None, 2 * 10**9, 10 * 10**9]))
    rules.append(r)
sensors = {"sim:a": gen_samples(), "sim:b": gen_samples()}

def fmt_t(ns):
    return f"{ns // 10**9}.{ns % 10**9:09d}"

with open("s.json5", "w") as f:
    f.write('{ sensors: [' + ",".join(
        '{ id: "%s", quantity: "temperature", samples: [%s] }' % (sid[4:], ",".join(
            "[%s, %s]" % (fmt_t(t), "null" if v is None else repr(v)) for t, v in s))
        for sid, s in sensors.items()) + '] }')
def rule_json(r):
    side = "above" if r["above"] else "below"
    s = '{ name: "%s", sensor: "sim:*", predict: { %s: %r, within: "%s", over: "%s" }, hysteresis: %r' % (
        r["name"], side, r["T"], dur(r["H"]), dur(r["W"]), r["hyst"])
    if r["hold"]: s += ', for: "%s"' % dur(r["hold"])
    if r["clear"]: s += ', clearFor: "%s"' % dur(r["clear"])
    if r["rep"]: s += ', repeat: "%s"' % dur(r["rep"])
    return s + " }"
with open("c.json5", "w") as f:
    f.write('{ sources: [ { type: "simulated", scenario: "s.json5" } ], rules: [ %s ] }' % ", ".join(map(rule_json, rules)))

def predict(window, t, H):
    times = {x for x, _ in window}
    if len(times) < 2: return None
    n = len(window)
    xs = [F(x - t, 10**9) for x, _ in window]
    ys = [F(y) for _, y in window]
    mx = sum(xs) / n; my = sum(ys) / n
    cxx = sum((x - mx) ** 2 for x in xs)
    cxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    return my + cxy / cxx * (F(H, 10**9) - mx)

events = []
for ri, r in enumerate(rules):
    T = F(r["T"]); h = F(r["hyst"])
    for sid, samples in sensors.items():
        phase = "ok"; cond = False; since = clearing = last = None
        ok_samples = []
        for t, v in samples:
            if v is None: continue
            ok_samples.append((t, v))
            window = [(x, y) for x, y in ok_samples if t - r["W"] <= x <= t]
            p = predict(window, t, r["H"])
            if p is None: cond = False
            elif r["above"]: cond = p > (T - h if cond else T)
            else: cond = p < (T + h if cond else T)
            def ev(kind): events.append((t, ri, sid, kind, v, None if p is None else float(p)))
            if phase == "ok":
                if cond:
                    if r["hold"] <= 0: phase = "firing"; since = t; clearing = None; last = t; ev("firing")
                    else: phase = "pending"; since = t
            elif phase == "pending":
                if not cond: phase = "ok"
                elif t >= since + r["hold"]: phase = "firing"; clearing = None; last = t; ev("firing")
            else:
                if cond: clearing = None
                else:
                    first = clearing if clearing is not None else t
                    if t >= first + r["clear"]:
                        phase = "ok"; ev("resolved"); continue
                    clearing = first
                if r["rep"] and t >= last + r["rep"]: last = t; ev("repeat")
events.sort(key=lambda e: (e[0], e[1], e[2]))
out = subprocess.run([BIN, "simulate", "--config", "c.json5", "--json"], capture_output=True, text=True)
if out.returncode != 0: print(out.stderr); sys.exit(2)
got = [json.loads(l) for l in out.stdout.splitlines()]
bad = 0
if len(got) != len(events):
    print(f"seed {seed}: {len(got)} events, reference {len(events)}"); bad = 1
for g, e in zip(got, events):
    t, ri, sid, kind, v, p = e
    same = (abs(g["time"] - t / 1e9) < 1e-9 and g["rule"] == rules[ri]["name"] and g["sensor"] == sid and g["event"] == kind
            and g["value"] == v and ((p is None and g["predicted"] is None) or (p is not None and g["predicted"] is not None and abs(g["predicted"] - p) <= 1e-9 * max(1, abs(p)))))
    if not same:
        print(f"seed {seed}: got {g} want {e}"); bad = 1; break
print(f"seed {seed}: {len(got)} events {'OK' if not bad else 'MISMATCH'}")
sys.exit(bad)
