#!/usr/bin/env python3
"""Rebuild every applied orders file of a sealed archive from docs/DICE.md
("Applied orders") alone, byte for byte, with nothing but the standard
library: python3 tests/applied_orders.py ARCHIVE_DIR

For each step, the sides whose entry in step-NNNN/orders.yaml carries
`applied:` had orders applied by the server; their files are
sealed/step-NNNN/orders-SIDE.yaml. Each must be the nine lines the document
gives, with the entropy computed from public values and the orders written
as canonical JSON, under a policy the step's notice allows. Exit status 0
when every file rebuilds (its count printed), 1 at the first that does not.
"""

import hashlib
import json
import os
import re
import sys


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def applied_sides(index_text):
    """Sides of orders.yaml whose entry has an `applied:` key."""
    sides, current = [], None
    for line in index_text.splitlines():
        m = re.match(r"^- side: (.+)$", line)
        if m:
            current = m.group(1).strip().strip("'\"")
        elif current is not None and line.startswith("  applied:"):
            sides.append(current)
    return sides


def notice_missed(notice_text):
    m = re.search(r"^missed: (\S+)$", notice_text, re.M)
    return m.group(1) if m else None


def rebuild(game, step, side, notice_hash, policy, orders):
    tag = b"galloper-applied-v1\0"
    parts = [game, str(step), side, notice_hash]
    entropy = sha256_hex(tag + b"\0".join(p.encode() for p in parts))
    j = json.dumps(orders, sort_keys=True, ensure_ascii=False)
    return (
        f"# galloper applied orders: {policy}\n"
        "galloper: 1\n"
        f"game: {game}\n"
        f"step: {step}\n"
        f"side: {side}\n"
        f"notice: {notice_hash}\n"
        "revision: 0\n"
        f"entropy: {entropy}\n"
        f"orders: {j}\n"
    ).encode()


def main(root):
    game = re.search(r"^game: (\S+)$", open(os.path.join(root, "game.yaml")).read(), re.M).group(1)
    checked = 0
    sealed = os.path.join(root, "sealed")
    for name in sorted(os.listdir(sealed)):
        m = re.match(r"^step-(\d{4})$", name)
        if not m:
            continue
        step = int(m.group(1))
        pub = os.path.join(root, name)
        notice = open(os.path.join(pub, "notice.yaml"), "rb").read()
        notice_hash = sha256_hex(notice)
        missed = notice_missed(notice.decode())
        for side in applied_sides(open(os.path.join(pub, "orders.yaml")).read()):
            path = os.path.join(sealed, name, f"orders-{side}.yaml")
            data = open(path, "rb").read()
            first = data.split(b"\n", 1)[0].decode()
            policy = first.removeprefix("# galloper applied orders: ")
            if policy not in ("default", "standing"):
                sys.exit(f"{path}: no policy line")
            if missed not in ("default", "standing") or (policy == "standing" and missed != "standing"):
                sys.exit(f"{path}: policy {policy} under the notice's missed: {missed}")
            last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1].decode()
            if not last.startswith("orders: "):
                sys.exit(f"{path}: the last line is not `orders: JSON`")
            orders = json.loads(last[len("orders: "):])
            expected = rebuild(game, step, side, notice_hash, policy, orders)
            if expected != data:
                sys.exit(f"{path}: not the file DICE.md builds:\n{expected.decode()}---\n{data.decode()}")
            checked += 1
    print(f"{checked} applied orders file(s) rebuilt byte for byte from DICE.md")


if __name__ == "__main__":
    main(sys.argv[1])
