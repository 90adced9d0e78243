#!/usr/bin/env python3
"""A DeskPet phone-link client written from docs/protocol.md alone (standard library only).

It is the protocol's second implementation: PetLinkTests run it against a simulated device.

    deskpet_link.py --unix PATH pair [--name NAME] [--token-file FILE]   # prompts for the code
    deskpet_link.py --tcp 127.0.0.1:7300 send task.create title="Water plants" [--id ID]
    deskpet_link.py --unix PATH watch [--last-seq N]                      # prints events as JSON lines
    deskpet_link.py --unix PATH selftest --db JOURNAL                     # the scripted check the tests run

The token is kept in --token-file (default ./deskpet-token, mode 0600).
"""
import argparse
import hashlib
import hmac
import json
import os
import socket
import sqlite3
import struct
import sys
import time

MAX_FRAME = 65536
VERSION = 1


class LinkError(Exception):
    """An `error` message from the device (code, message) or a broken stream."""

    def __init__(self, code, message, msg=None):
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.msg = code, message, msg or {}


class Link:
    """One connection: frames (4-byte big-endian length + JSON object) both ways."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.pending = []   # messages read while waiting for another

    @staticmethod
    def connect(tcp=None, unix=None, timeout=10.0):
        if unix:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(timeout)
            s.connect(unix)
        else:
            host, port = tcp.rsplit(":", 1)
            s = socket.create_connection((host, int(port)), timeout=timeout)
        return Link(s)

    def send(self, obj):
        body = json.dumps(obj, separators=(",", ":"), sort_keys=True).encode("utf-8")
        if len(body) > MAX_FRAME:
            raise ValueError("message over the 64 KiB frame limit")
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def read(self):
        """The next message (blocks up to the socket timeout)."""
        if self.pending:
            return self.pending.pop(0)
        while True:
            if len(self.buf) >= 4:
                (n,) = struct.unpack(">I", self.buf[:4])
                if n == 0 or n > MAX_FRAME:
                    raise LinkError("frame_too_large", f"device sent a frame of {n} bytes")
                if len(self.buf) >= 4 + n:
                    body, self.buf = self.buf[4:4 + n], self.buf[4 + n:]
                    return json.loads(body.decode("utf-8"))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise LinkError("closed", "the device closed the connection")
            self.buf += chunk

    def wait_for(self, pred, keep=True):
        """Reads until a message matches; others are kept for later reads (or dropped)."""
        skipped = []
        while True:
            m = self.read()
            if pred(m):
                if keep:
                    self.pending = skipped + self.pending
                return m, skipped
            skipped.append(m)

    # -- protocol steps --------------------------------------------------------------------

    def hello(self, token=None, last_seq=None, client="deskpet_link.py"):
        msg = {"type": "hello", "version": VERSION, "client": client}
        if token:
            msg["token"] = token
        if last_seq is not None:
            msg["last_seq"] = last_seq
        self.send(msg)
        m, _ = self.wait_for(lambda m: m.get("type") in ("welcome", "error"))
        if m["type"] == "error":
            raise LinkError(m["code"], m["message"], m)
        return m

    def pair(self, read_code, name="deskpet_link.py"):
        """pair.begin, then the code the device shows (from read_code()), then pair.finish."""
        self.send({"type": "pair.begin"})
        m, _ = self.wait_for(lambda m: m.get("type") in ("pair.challenge", "error"))
        if m["type"] == "error":
            raise LinkError(m["code"], m["message"], m)
        challenge = bytes.fromhex(m["challenge"])
        code = read_code().strip()
        nonce = os.urandom(16)
        mac = hmac.new(code.encode("ascii"), challenge + nonce, hashlib.sha256).hexdigest()
        self.send({"type": "pair.finish", "nonce": nonce.hex(), "mac": mac, "name": name})
        m, _ = self.wait_for(lambda m: m.get("type") in ("paired", "error"))
        if m["type"] == "error":
            raise LinkError(m["code"], m["message"], m)
        return m["token"], m["phone"]

    def command(self, cid, name, fields=None, on_reply=None):
        """Sends a command; returns (reply, messages that came before it: its events, state)."""
        msg = {"type": "command", "id": cid, "name": name}
        if fields:
            msg["fields"] = fields
        self.send(msg)
        m, before = self.wait_for(lambda m: m.get("type") in ("reply", "error", "state") and m.get("id") == cid, keep=False)
        if on_reply:
            on_reply(m)
        if m["type"] == "error":
            raise LinkError(m["code"], m["message"], m)
        return m, before


def _fields(pairs):
    out = {}
    for p in pairs:
        k, _, v = p.partition("=")
        out[k] = v
    return out


def _token_load(path):
    with open(path) as f:
        return f.read().strip()


def _token_save(path, token):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")


def selftest(link, db, name):
    """Pairs (code from stdin), adds and completes a task, checks that each reply comes only
    after its journal row exists, that the reward event arrives, and that a repeated id is a
    duplicate with no second reward. Prints one JSON object with what it saw."""
    print(json.dumps({"step": "hello", "welcome": link.hello()}), flush=True)
    token, phone = link.pair(lambda: sys.stdin.readline(), name=name)
    out = {"phone": phone, "token_len": len(token)}
    journal = sqlite3.connect(f"file:{db}?mode=ro", uri=True)

    def rows(cmd):
        return journal.execute("SELECT count(*) FROM events WHERE command_id = ?", (f"{phone}:{cmd}",)).fetchone()[0]

    seen = {}

    def check(cid):
        return lambda m: seen.__setitem__(cid, [rows(cid), m.get("events")])

    link.command("c1", "task.create", {"task": "t1", "title": "Water the plants"}, on_reply=check("c1"))
    reply, before = link.command("c2", "task.complete", {"task": "t1"}, on_reply=check("c2"))
    rewards = [m for m in before if m.get("type") == "event" and m.get("kind") == "reward"]
    out["rows_at_reply"] = seen
    out["reward_events"] = len(rewards)
    out["reward_seq"] = rewards[0]["seq"] if rewards else None
    out["coins"] = reply.get("coins")
    again, before2 = link.command("c2", "task.complete", {"task": "t1"})
    out["duplicate"] = again.get("duplicate", False)
    out["coins_after_duplicate"] = again.get("coins")
    out["reward_events_after_duplicate"] = len([m for m in before2 if m.get("kind") == "reward"])
    try:
        link.command("c3", "task.fly", {})
    except LinkError as e:
        out["unknown_command"] = e.code
    print(json.dumps(out, sort_keys=True), flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description="DeskPet phone-link client (docs/protocol.md)")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--tcp", metavar="HOST:PORT")
    where.add_argument("--unix", metavar="PATH")
    ap.add_argument("--token-file", default="deskpet-token")
    ap.add_argument("--timeout", type=float, default=30.0)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pair", help="pair with the code the device shows (typed at the prompt)")
    p.add_argument("--name", default="deskpet_link.py")
    s = sub.add_parser("send", help="send one command: NAME key=value...")
    s.add_argument("name")
    s.add_argument("fields", nargs="*")
    s.add_argument("--id", default=None)
    w = sub.add_parser("watch", help="print events as JSON lines")
    w.add_argument("--last-seq", type=int, default=None)
    t = sub.add_parser("selftest", help="the scripted check PetLinkTests run")
    t.add_argument("--db", required=True)
    t.add_argument("--name", default="selftest")
    a = ap.parse_args(argv)

    link = Link.connect(tcp=a.tcp, unix=a.unix, timeout=a.timeout)
    try:
        if a.cmd == "selftest":
            selftest(link, a.db, a.name)
        elif a.cmd == "pair":
            link.hello()
            token, phone = link.pair(lambda: input("code shown on the device: "), name=a.name)
            _token_save(a.token_file, token)
            print(f"paired as {phone}")
        elif a.cmd == "send":
            link.hello(token=_token_load(a.token_file))
            cid = a.id or f"py-{int(time.time() * 1000)}"
            reply, _ = link.command(cid, a.name, _fields(a.fields))
            print(json.dumps(reply, sort_keys=True))
        elif a.cmd == "watch":
            link.hello(token=_token_load(a.token_file), last_seq=a.last_seq)
            link.sock.settimeout(60)   # the device drops connections silent for 120 s: ping
            while True:
                try:
                    m = link.read()
                except socket.timeout:
                    link.send({"type": "ping"})
                    continue
                print(json.dumps(m, sort_keys=True), flush=True)
    except LinkError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        link.sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
