#!/usr/bin/env python3
"""Recompute the Galloper dice vectors independently of the Rust code.

Uses only hashlib and PyCA `cryptography` (for ChaCha20). Reads
tests/data/dice-vectors.json (or the path given as the first argument),
recomputes every value from the inputs, prints one line per failure and a
closing count, and exits non-zero if anything differs.

    python3 tests/dice_vectors.py
"""

import hashlib
import json
import pathlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def commit(kind: str, game: str, step: int, secret: bytes) -> bytes:
    tag = b"galloper-commit-" + kind.encode() + b"-v1"
    return sha256(tag + b"\0" + game.encode() + b"\0" + str(step).encode() + b"\0" + secret)


def seed(kind: str, secret: bytes, mix: bytes) -> bytes:
    return sha256(b"galloper-" + kind.encode() + b"-v1" + b"\0" + secret + mix)


def seed_v2(kind: str, secret: bytes, mix: bytes, beacon: bytes) -> bytes:
    """Protocol version 2: the beacon round's randomness (32 bytes) comes last."""
    return sha256(b"galloper-" + kind.encode() + b"-v2" + b"\0" + secret + mix + beacon)


class Stream:
    """ChaCha20 keystream of `key`, counter 0, nonce 0, as little-endian u32 words."""

    BLOCK_WORDS = 16 * 64  # words per refill; any multiple of 16 gives the same stream

    def __init__(self, key: bytes):
        # cryptography's ChaCha20 nonce is 16 bytes: 4-byte LE counter, then 12-byte nonce.
        cipher = Cipher(algorithms.ChaCha20(key, bytes(16)), mode=None)
        self._enc = cipher.encryptor()
        self._words = []
        self.position = 0

    def next_word(self) -> int:
        if not self._words:
            block = self._enc.update(bytes(4 * self.BLOCK_WORDS))
            self._words = list(struct.unpack("<%dI" % self.BLOCK_WORDS, block))
            self._words.reverse()
        self.position += 1
        return self._words.pop()

    def roll(self, sides: int) -> int:
        limit = (2**32 // sides) * sides
        while True:
            word = self.next_word()
            if word < limit:
                return word % sides + 1

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.roll(i + 1) - 1
            items[i], items[j] = items[j], items[i]


def words(key: bytes, n: int) -> list:
    s = Stream(key)
    return ["%08x" % s.next_word() for _ in range(n)]


def check_vector(v: dict, check) -> None:
    name = v["name"]
    p = bytes.fromhex(v["public_secret"])
    h = bytes.fromhex(v["hidden_secret"])
    files = [bytes.fromhex(o["bytes"]) for o in v["orders"]]

    check(name, "commit_public", commit("public", v["game"], v["step"], p).hex(), v["commit_public"])
    check(name, "commit_hidden", commit("hidden", v["game"], v["step"], h).hex(), v["commit_hidden"])
    hashes = [sha256(f) for f in files]
    check(name, "order_hashes", [x.hex() for x in hashes], v["order_hashes"])
    mix = b"".join(hashes)
    check(name, "mix", mix.hex(), v["mix"])
    ps = seed("public", p, mix)
    hs = seed("hidden", h, mix)
    check(name, "public_seed", ps.hex(), v["public_seed"])
    check(name, "hidden_seed", hs.hex(), v["hidden_seed"])
    check(name, "public_words", words(ps, len(v["public_words"])), v["public_words"])
    check(name, "hidden_words", words(hs, len(v["hidden_words"])), v["hidden_words"])

    s = Stream(ps)
    check(name, "public_d6", [s.roll(6) for _ in v["public_d6"]], v["public_d6"])
    s = Stream(ps)
    check(name, "public_d10", [s.roll(10) for _ in v["public_d10"]], v["public_d10"])
    s = Stream(hs)
    deck = list(range(len(v["hidden_shuffle"])))
    s.shuffle(deck)
    check(name, "hidden_shuffle", deck, v["hidden_shuffle"])

    big = v["public_big_die"]
    s = Stream(ps)
    rolls = []
    for _ in big["rolls"]:
        index = s.position
        rolls.append({"index": index, "value": s.roll(big["sides"])})
    check(name, "public_big_die", rolls, big["rolls"])


def check_beacon_vector(v: dict, check) -> None:
    """Protocol version 2. The BLS signature itself is verified by the Rust
    tests (drand-verify); here, everything that follows from it."""
    name = v["name"]
    p = bytes.fromhex(v["public_secret"])
    h = bytes.fromhex(v["hidden_secret"])
    mix = bytes.fromhex(v["mix"])
    b = sha256(bytes.fromhex(v["signature"]))
    check(name, "randomness", b.hex(), v["randomness"])
    ps = seed_v2("public", p, mix, b)
    hs = seed_v2("hidden", h, mix, b)
    check(name, "public_seed", ps.hex(), v["public_seed"])
    check(name, "hidden_seed", hs.hex(), v["hidden_seed"])
    check(name, "public_words", words(ps, len(v["public_words"])), v["public_words"])
    check(name, "hidden_words", words(hs, len(v["hidden_words"])), v["hidden_words"])
    s = Stream(ps)
    check(name, "public_d6", [s.roll(6) for _ in v["public_d6"]], v["public_d6"])
    s = Stream(hs)
    deck = list(range(len(v["hidden_shuffle"])))
    s.shuffle(deck)
    check(name, "hidden_shuffle", deck, v["hidden_shuffle"])


def main() -> int:
    default = pathlib.Path(__file__).parent / "data" / "dice-vectors.json"
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else default
    data = json.loads(path.read_text(encoding="utf-8"))
    passed = failed = 0

    def check(vector: str, what: str, got, expected) -> None:
        nonlocal passed, failed
        if got == expected:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {vector}: {what}\n  expected {expected}\n  computed {got}")

    ref = data["chacha20_reference"]
    key = bytes.fromhex(ref["seed"])
    check("chacha20 reference", "words", words(key, len(ref["words"])), ref["words"])
    for v in data["vectors"]:
        check_vector(v, check)
    for v in data.get("beacon_vectors", []):
        check_beacon_vector(v, check)

    print(f"dice vectors: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
