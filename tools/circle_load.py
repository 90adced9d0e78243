#!/usr/bin/env python3
"""The circles' load test (docs/circles.md#scale), run by tools/circle-load.sh.

A real mosquitto on loopback with the documented password file and ACL for 1,000 members, a
course circle holding all of them and 50 circles of 50 members (each member in two or three);
lightweight publishers (a few lines of MQTT 3.1.1 below, one connection per member with the
member's own credential) publish real member reports (docs/circles.md#what-a-member-shares) on the
real topics. Then, each one JSON line on stdout:

- circle_load_publish: every member's reports published (retained, QoS 1), how long it took;
- circle_load_converge: 50 `deskpet-bridge circle watch` processes, one per member of a 50-member
  circle, each with that member's credential (the bridge's report ingestion, no DeskPet behind
  them), first take in the retained reports, then every member publishes a new report at once,
  with forged reports for other members, replays of the old reports and duplicates in the same
  burst: the seconds until every process shows the expected leaderboard;
- circle_load_report: `deskpet-bridge circle report` over the 1,000 learners, end to end;
- circle_load_memory: one `circle watch` holding the 50 circles' members, its peak RSS.

Exits 1 when a check fails (a wrong leaderboard, a forged report taken, the report over 5 s).
"""
import argparse
import datetime
import json
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

MEMBERS, CIRCLES, SIZE, STEP = 1000, 50, 50, 20
ROOT = "deskpet-load"


def member_id(i):
    return "m%04d" % i


def circle_members(c):
    return sorted({(c * STEP + j) % MEMBERS for j in range(SIZE)})


# --- A minimal MQTT 3.1.1 publisher (CONNECT, PUBLISH QoS 1, PUBACK, DISCONNECT).
def _str(x):
    b = x.encode()
    return struct.pack(">H", len(b)) + b


def _len(n):
    out = bytearray()
    while True:
        b, n = n % 128, n // 128
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


class Conn:
    def __init__(self, port, user, password, cid):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.mid = 0
        self.unacked = 0
        self._send(0x10, _str("MQTT") + bytes([4, 0xC2]) + struct.pack(">H", 60) + _str(cid) + _str(user) + _str(password))
        t, body = self._read()
        if t != 0x20 or body[1] != 0:
            raise RuntimeError("%s: the broker refused the connection (%d)" % (user, body[1] if len(body) > 1 else -1))

    def _send(self, head, body):
        self.sock.sendall(bytes([head]) + _len(len(body)) + body)

    def _need(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("the broker closed the connection")
            self.buf += chunk

    def _read(self):
        self._need(2)
        n, mul, i = 0, 1, 1
        while True:
            self._need(i + 1)
            b = self.buf[i]
            n += (b & 0x7F) * mul
            mul *= 128
            i += 1
            if not b & 0x80:
                break
        self._need(i + n)
        head, body, self.buf = self.buf[0], self.buf[i:i + n], self.buf[i + n:]
        return head & 0xF0, body

    def publish(self, topic, payload, retain=True):
        self.mid = self.mid % 65535 + 1
        self._send(0x32 | (1 if retain else 0), _str(topic) + struct.pack(">H", self.mid) + payload)
        self.unacked += 1

    def acks(self):
        while self.unacked:
            t, _ = self._read()
            if t == 0x40:
                self.unacked -= 1

    def close(self):
        try:
            self._send(0xE0, b"")
        finally:
            self.sock.close()


# --- Real member reports (the fields of MemberReport, docs/circles.md#what-a-member-shares).
TODAY = datetime.date.today()
WEEK = (TODAY - datetime.timedelta(days=TODAY.weekday()) - datetime.date(1970, 1, 1)).days
MONTH = TODAY.year * 12 + TODAY.month - 1


def report(i, seq, coins, challenge=None, course=False):
    rnd = random.Random(i * 7919 + seq)
    r = {"member": member_id(i), "seq": seq, "sentAt": int(time.time()), "petName": "Pip %d" % i,
         "level": 1 + i % 30, "week": WEEK, "month": MONTH, "coinsWeek": coins, "coinsMonth": coins + rnd.randrange(400),
         "tasksWeek": rnd.randrange(30), "focusWeek": rnd.randrange(600), "focusMonth": rnd.randrange(2400),
         "screenWeek": rnd.randrange(1200), "screenMonth": rnd.randrange(5000), "screenGoal": 90 * (i % 2),
         "streak": rnd.randrange(70), "challenges": []}
    if course:
        day = 1 + i % 66
        r["courseDay"], r["postsRead"] = day, rnd.randrange(day + 1)
        r["habitWeek"], r["habitDays"] = rnd.randrange(400), rnd.randrange(8)
    if challenge:
        r["challenges"] = [{"challenge": challenge, "met": rnd.random() < 0.5, "value": rnd.randrange(10), "left": False}]
    return json.dumps(r, separators=(",", ":")).encode()


def leaderboard(coins):
    """The expected week's coins leaderboard (Leaderboard.rank): by value, then member id; equal
    values share a rank."""
    rows = sorted(coins.items(), key=lambda kv: (-kv[1], kv[0]))
    out, prev = [], None
    for k, (m, v) in enumerate(rows):
        rank = out[-1][0] if prev == v else k + 1
        out.append((rank, m, v))
        prev = v
    return ";".join("%d:%s:%d" % r for r in out)


class Watcher:
    """A `deskpet-bridge circle watch` process; its lines (time in ms, the leaderboard) kept."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines, self.tail = [], ""
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            if line.startswith("held "):
                self.tail = line
                continue
            parts = line.split(" ", 3)
            if len(parts) == 4:
                self.lines.append((int(parts[0]) / 1000.0, parts[3] if parts[2] != "0" else ""))

    def first(self, rows, since=0.0):
        return next((t for t, r in self.lines if r == rows and t >= since), None)

    def last(self):
        return self.lines[-1][1] if self.lines else None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.t.join(timeout=5)
        return self.tail


def wait_until(pred, seconds):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.05)
    return pred()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bridge", required=True)
    ap.add_argument("--mosquitto", default="mosquitto")
    ap.add_argument("--work", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--broker-extra", default="", help="more mosquitto.conf lines")
    a = ap.parse_args()
    w, port, bridge = a.work, a.port, a.bridge
    broker = "mqtt://127.0.0.1:%d" % port
    failed = []

    def check(what, ok):
        print(("ok   " if ok else "FAIL ") + what, file=sys.stderr)
        if not ok:
            failed.append(what)

    # --- The broker's accounts and ACL, as docs/circles.md#the-brokers-acl writes them.
    rnd = random.Random(20261127)
    pw = {member_id(i): "pw-%d-%08x" % (i, rnd.getrandbits(32)) for i in range(MEMBERS)}
    pw["course_leader"] = "leader-%08x" % rnd.getrandbits(32)
    with open(w + "/passwd", "w") as f:
        for u, p in pw.items():
            f.write("%s:%s\n" % (u, p))
    os.chmod(w + "/passwd", 0o600)
    subprocess.run(["mosquitto_passwd", "-U", w + "/passwd"], check=True)
    circles_of = {i: ["course"] for i in range(MEMBERS)}
    for c in range(CIRCLES):
        for i in circle_members(c):
            circles_of[i].append("c%02d" % c)
    with open(w + "/acl", "w") as f:
        for c in ["course"] + ["c%02d" % c for c in range(CIRCLES)]:
            f.write("pattern readwrite %s/%s/%%u/#\n" % (ROOT, c))
        for i in range(MEMBERS):
            f.write("user %s\n" % member_id(i))
            for c in circles_of[i]:
                f.write("topic read %s/%s/#\n" % (ROOT, c))
        f.write("user course_leader\ntopic read %s/#\n" % ROOT)
    with open(w + "/leader.pw", "w") as f:
        f.write(pw["course_leader"] + "\n")
    os.chmod(w + "/leader.pw", 0o600)
    for i in circle_members(0):
        with open("%s/%s.pw" % (w, member_id(i)), "w") as f:
            f.write(pw[member_id(i)] + "\n")
    with open(w + "/mosquitto.conf", "w") as f:
        f.write("listener %d 127.0.0.1\nallow_anonymous false\npassword_file %s/passwd\nacl_file %s/acl\npersistence false\n"
                "%s" % (port, w, w, a.broker_extra))
    if os.getuid() == 0:
        subprocess.run(["chown", "mosquitto", w + "/passwd", w + "/acl"], stderr=subprocess.DEVNULL)
    log = open(w + "/mosquitto.log", "w")
    broker_proc = subprocess.Popen([a.mosquitto, "-c", w + "/mosquitto.conf", "-v"], stdout=log, stderr=log)
    watchers = []
    try:
        if not wait_until(lambda: "Opening ipv4 listen socket on port %d" % port in open(w + "/mosquitto.log").read(), 10):
            print("the broker did not start", file=sys.stderr)
            return 1

        # --- Round 1: every member publishes its course report and its circles' reports.
        coins1 = {i: rnd.randrange(300) for i in range(MEMBERS)}
        t0 = time.time()
        n = sum(len(circles_of[i]) for i in range(MEMBERS))
        errors = []

        def publisher(k):   # 25 at once: members report concurrently, as devices do
            try:
                for i in range(k, MEMBERS, 25):
                    m = member_id(i)
                    c = Conn(port, m, pw[m], "load-" + m)
                    for circle in circles_of[i]:
                        ch = "%s-1" % circle if circle != "course" else None
                        c.publish("%s/%s/%s/report" % (ROOT, circle, m), report(i, 1, coins1[i], ch, course=circle == "course"))
                    c.acks()
                    c.close()
            except Exception as e:  # noqa: BLE001 - reported as a failed check
                errors.append(str(e))
        threads = [threading.Thread(target=publisher, args=(k,)) for k in range(25)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        check("every member published its reports with its own credential", not errors)
        dt = time.time() - t0
        print(json.dumps({"figure": "circle_load_publish", "members": MEMBERS, "circles": CIRCLES + 1, "reports": n,
                          "seconds": round(dt, 2), "reports_per_s": round(n / dt)}), flush=True)

        # --- 50 devices of circle c00, each a `circle watch` with its member's credential.
        c00 = [member_id(i) for i in circle_members(0)]
        prefix = "%s/c00" % ROOT
        expected1 = leaderboard({member_id(i): coins1[i] for i in circle_members(0)})
        t_start = time.time()
        for m in c00:
            watchers.append(Watcher([bridge, "circle", "watch", "--broker", broker, "--prefix", prefix, "--user", m,
                                     "--password-file", "%s/%s.pw" % (w, m), "--seconds", "150"]))
        joined = wait_until(lambda: all(x.first(expected1) for x in watchers), 60)
        check("every device of the 50-member circle holds the same leaderboard from the retained reports", joined)
        join_s = max((x.first(expected1) or time.time()) for x in watchers) - t_start

        # Round 2: every member of c00 reports at once (new coins: ranks change, some ties), and in
        # the same burst forged reports for other members, replays of round 1 and duplicates.
        conns = {m: Conn(port, m, pw[m], "load2-" + m) for m in c00}
        coins2 = {member_id(i): (coins1[i] * 7 + 13) % 250 // 5 * 5 for i in circle_members(0)}
        expected2 = leaderboard(coins2)
        check("round 2's leaderboard differs from round 1's", expected2 != expected1)
        idx = {member_id(i): i for i in circle_members(0)}
        t1 = time.time()
        for m in c00:
            conns[m].publish("%s/%s/report" % (prefix, m), report(idx[m], 2, coins2[m], "c00-1"))
        for k, m in enumerate(c00[:10]):
            victim = c00[(k + 1) % len(c00)]
            conns[m].publish("%s/%s/report" % (prefix, victim), report(idx[victim], 99, 9999, "c00-1"))  # forged: the ACL
            conns[m].publish("%s/%s/report" % (prefix, m), report(idx[victim], 99, 9999, "c00-1"))  # forged: the device
            conns[m].publish("%s/%s/report" % (prefix, m), report(idx[m], 1, coins1[idx[m]], "c00-1"))  # a replay
            conns[m].publish("%s/%s/report" % (prefix, m), report(idx[m], 2, coins2[m], "c00-1"))  # a duplicate
        for c in conns.values():
            c.acks()
        converged = wait_until(lambda: all(x.first(expected2, t1 - 0.5) for x in watchers), 60)
        update_s = max((x.first(expected2, t1 - 0.5) or time.time()) for x in watchers) - t1
        time.sleep(1.0)   # anything still on its way
        same = all(x.last() == expected2 for x in watchers)
        check("every device converges on the new leaderboard", converged)
        check("and stays on it: forged reports, replays and duplicates change nothing", same)
        check("no device ever showed a forged figure", not any("9999" in r for x in watchers for _, r in x.lines))
        mlog = open(w + "/mosquitto.log").read()
        check("the broker refused the forged reports", mlog.count("Denied PUBLISH from load2-") >= 10)
        for c in conns.values():
            c.close()
        tails = [x.stop() for x in watchers]
        rss1 = [int(t.rsplit(" ", 1)[1]) for t in tails if "peak_rss_kib" in t]
        watchers = []
        print(json.dumps({"figure": "circle_load_converge", "circle_members": SIZE, "devices": len(c00),
                          "device": "deskpet-bridge circle watch (the bridge's ingestion; no DeskPet)",
                          "join_converge_s": round(join_s, 2), "update_converge_s": round(update_s, 2),
                          "same_leaderboard": converged and same, "forged": 10, "replays": 10, "duplicates": 10,
                          "device_peak_rss_kib_max": max(rss1) if rss1 else None}), flush=True)

        # --- The leader's report over the 1,000 learners, end to end.
        t2 = time.time()
        r = subprocess.run([bridge, "circle", "report", "--broker", broker, "--prefix", ROOT + "/course", "--circle", "course",
                            "--user", "course_leader", "--password-file", w + "/leader.pw", "--out", w + "/report"],
                           capture_output=True, text=True, timeout=60)
        report_s = time.time() - t2
        rows = sum(1 for _ in open(w + "/report/circle-report.csv")) - 1 if r.returncode == 0 else 0
        listed = "\n%d learner(s)" % MEMBERS in r.stdout
        check("the leader's report lists the 1,000 learners (CSV: one row each)", r.returncode == 0 and listed and rows == MEMBERS)
        check("the leader's report took at most 5 s (%.2f s)" % report_s, report_s <= 5.0)
        print(json.dumps({"figure": "circle_load_report", "learners": MEMBERS, "seconds": round(report_s, 2), "csv_rows": rows,
                          "limit_s": 5, "ok": r.returncode == 0 and listed and rows == MEMBERS and report_s <= 5.0}), flush=True)

        # --- One bridge process holding the 50 circles' members.
        t3 = time.time()
        r = subprocess.run([bridge, "circle", "watch", "--broker", broker, "--prefix",
                            ",".join("%s/c%02d" % (ROOT, c) for c in range(CIRCLES)), "--user", "course_leader",
                            "--password-file", w + "/leader.pw", "--members", str(CIRCLES * SIZE), "--seconds", "60"],
                           capture_output=True, text=True, timeout=90)
        held = [l for l in r.stdout.splitlines() if l.startswith("held ")]
        rss = int(held[0].rsplit(" ", 1)[1]) if held else None
        check("one bridge holds the 50 circles' %d members" % (CIRCLES * SIZE),
              r.returncode == 0 and held and "%d member(s)" % (CIRCLES * SIZE) in held[0])
        print(json.dumps({"figure": "circle_load_memory", "circles": CIRCLES, "members_held": CIRCLES * SIZE,
                          "seconds": round(time.time() - t3, 2), "peak_rss_kib": rss}), flush=True)
    finally:
        for x in watchers:
            x.stop()
        broker_proc.terminate()
        broker_proc.wait(timeout=10)
    if failed:
        print("circle-load: %d check(s) failed" % len(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
