#!/usr/bin/env python3
"""deskpet-bridge's figures (docs/home-assistant.md#figures), one JSON line each, measured against the
real parts tools/bridge-test.sh --bench has started: a mosquitto on loopback, the simulator's link,
deskpetctl paired as a phone, the bridge (its process id given).

- bridge_rss: the bridge's resident memory (VmRSS) after the run.
- bridge_idle_wakeups: context switches of each of the bridge's threads over --idle seconds with
  nothing happening (its own thread: the link keep-alive; libmosquitto's network thread).
- bridge_event_to_mqtt_ms: a completed task's event as the device pushes it to deskpetctl (watching)
  and to the bridge at the same moment, until it arrives from the broker (mosquitto_sub): p50/p95.
- bridge_commands_per_second: QoS 1 task/set commands published in one go until all are in the journal.
Stdlib only; the clients are deskpetctl and mosquitto_sub/mosquitto_pub.
"""
import argparse, json, os, subprocess, sqlite3, threading, time


BUILD = 'debug'


def figure(name, value, unit, **extra):
    print(json.dumps({'figure': name, 'value': value, 'unit': unit, 'build': BUILD, **extra}), flush=True)


def threads(pid):
    out = {}
    for t in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{t}/status') as f:
                s = dict(l.split(':', 1) for l in f.read().splitlines() if ':' in l)
            with open(f'/proc/{pid}/task/{t}/comm') as f:
                name = f.read().strip()
            out[t] = (name, int(s['voluntary_ctxt_switches']) + int(s['nonvoluntary_ctxt_switches']))
        except FileNotFoundError:
            pass
    return out


def rss_kib(pid):
    with open(f'/proc/{pid}/status') as f:
        for l in f:
            if l.startswith('VmRSS:'):
                return int(l.split()[1])
    return None


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def main():
    a = argparse.ArgumentParser()
    a.add_argument('--port', type=int, required=True)
    a.add_argument('--ctl', required=True)
    a.add_argument('--db', required=True)
    a.add_argument('--pid', type=int, required=True)
    a.add_argument('--idle', type=int, default=65)
    a.add_argument('--events', type=int, default=100)
    a.add_argument('--commands', type=int, default=200)
    a.add_argument('--build', default='debug', help='the configuration the programs were built with (printed)')
    o = a.parse_args()
    global BUILD
    BUILD = o.build
    mq = ['-h', '127.0.0.1', '-p', str(o.port)]

    # Idle wake-ups.
    time.sleep(2)
    t0 = threads(o.pid)
    time.sleep(o.idle)
    t1 = threads(o.pid)
    per = {}
    for tid, (name, n) in t1.items():
        if tid in t0:
            per[f'{name}#{tid}'] = round((n - t0[tid][1]) * 60 / o.idle, 1)
    figure('bridge_idle_wakeups', round(sum(per.values()), 1), 'per minute', seconds=o.idle, threads=per)

    # Event → MQTT latency: both the watching phone and the bridge get the device's push.
    seen_ctl, seen_mqtt = {}, {}
    watch = subprocess.Popen([o.ctl, 'watch', '--json'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    sub = subprocess.Popen(['mosquitto_sub', *mq, '-t', 'deskpet/deskpet/event/task_completed'], stdout=subprocess.PIPE, text=True, bufsize=1)

    def read(p, into, key):
        for line in p.stdout:
            t = time.monotonic()
            try:
                m = json.loads(line)
            except ValueError:
                continue
            k = key(m)
            if k is not None:
                into.setdefault(k, t)
    threading.Thread(target=read, args=(watch, seen_ctl, lambda m: m.get('seq') if m.get('kind') == 'reward' else None), daemon=True).start()
    threading.Thread(target=read, args=(sub, seen_mqtt, lambda m: m.get('seq')), daemon=True).start()
    time.sleep(2)
    batch = ''.join(json.dumps({'name': 'task.create', 'fields': {'task': f'b{i}', 'title': f'Bench {i}'}}) + '\n' for i in range(o.events))
    subprocess.run([o.ctl, 'batch', '-'], input=batch, text=True, check=True, stdout=subprocess.DEVNULL)
    for i in range(o.events):   # one at a time: each completion is its own push
        subprocess.run([o.ctl, 'task', 'done', f'b{i}'], check=True, stdout=subprocess.DEVNULL)
    end = time.monotonic() + 10
    while time.monotonic() < end and len(set(seen_ctl) & set(seen_mqtt)) < o.events:
        time.sleep(0.1)
    lat = [(seen_mqtt[s] - seen_ctl[s]) * 1000 for s in seen_ctl if s in seen_mqtt]
    watch.terminate(); sub.terminate()
    if lat:
        figure('bridge_event_to_mqtt_ms', round(pct(lat, 95), 2), 'ms (p95)', p50=round(pct(lat, 50), 2),
               p99=round(pct(lat, 99), 2), n=len(lat), of=o.events)
    else:
        figure('bridge_event_to_mqtt_ms', None, 'ms (p95)', n=0, of=o.events, error='no event arrived')

    # Commands per second through the bridge.
    db = sqlite3.connect(f'file:{o.db}?mode=ro', uri=True)
    before = db.execute("select count(*) from commands where id like 'phone-%:mq-%'").fetchone()[0]
    lines = ''.join(f'Bench command {i}\n' for i in range(o.commands))
    t0 = time.monotonic()
    subprocess.run(['mosquitto_pub', *mq, '-q', '1', '-t', 'deskpet/deskpet/task/set', '-l'], input=lines, text=True, check=True)
    end = t0 + 60
    n = 0
    while time.monotonic() < end:
        n = db.execute("select count(*) from commands where id like 'phone-%:mq-%'").fetchone()[0] - before
        if n >= o.commands:
            break
        time.sleep(0.02)
    dt = time.monotonic() - t0
    figure('bridge_commands_per_second', round(n / dt, 1), 'commands/s', n=n, of=o.commands, seconds=round(dt, 2))

    figure('bridge_rss', rss_kib(o.pid), 'KiB')


if __name__ == '__main__':
    main()
