"""Stand-ins for crypto wallet addresses: the same kind of address (base58 version byte,
segwit version and program length, Ethereum letter case), random payload, valid checksum,
no digit run of the real one kept."""

from __future__ import annotations

import random

import base58
import bech32m
from stdnum import bitcoin

from agent.detect.wallets import eip55
from agent.substitute.id_standins import shares_digit_run


def _payload(rng: random.Random, size: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(size))


def bitcoin_stand_in(rng: random.Random, real: str) -> str | None:
    for _ in range(20):
        if real[:3].lower() == "bc1":
            decoded = bech32m.decode("bc", real.lower())
            candidate = bech32m.encode("bc", decoded.witver, _payload(rng, len(decoded.witprog)))
            if real.isupper():
                candidate = candidate.upper()
        else:
            version = bitcoin.b58decode(real)[:1]
            candidate = base58.b58encode_check(version + _payload(rng, 20)).decode("ascii")
        if candidate != real and not shares_digit_run(real, candidate):
            return candidate
    return None


def ethereum_stand_in(rng: random.Random, real: str) -> str | None:
    body = real[2:]
    for _ in range(20):
        new = _payload(rng, 20).hex()
        if body == body.upper() and body != body.lower():
            new = new.upper()
        elif body != body.lower():
            new = eip55(new)
        candidate = real[:2] + new
        if not shares_digit_run(real, candidate):
            return candidate
    return None
