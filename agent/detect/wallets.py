"""Crypto wallet addresses, checked by their own checksums (through libraries): Bitcoin
base58check (python-stdnum), Bitcoin bech32/bech32m segwit (bech32m, BIP 173/350), and
Ethereum with the EIP-55 mixed-case checksum (Keccak-256 from pycryptodome)."""

from __future__ import annotations

import re

import bech32m
from Crypto.Hash import keccak
from stdnum import bitcoin

BITCOIN_BASE58 = r"[13][1-9A-HJ-NP-Za-km-z]{25,34}"
BITCOIN_BECH32 = r"(?:bc1[02-9ac-hj-np-z]{11,71}|BC1[02-9AC-HJ-NP-Z]{11,71})"
ETHEREUM = r"0x[0-9a-fA-F]{40}"


def bitcoin_valid(value: str) -> bool:
    if value[:3].lower() == "bc1":
        try:
            bech32m.decode("bc", value.lower())
        except (bech32m.DecodeError, bech32m.HrpDoesNotMatch, ValueError, TypeError):
            return False  # (an undecodable string reaches the library's bit conversion as None)
        return True
    return bitcoin.is_valid(value)


def eip55(hex_address: str) -> str:
    """The EIP-55 spelling of a 40-hex-digit address: a letter is upper case where the
    Keccak-256 of the lower-case address has a nibble of 8 or more."""
    lower = hex_address.lower()
    digest = keccak.new(digest_bits=256, data=lower.encode("ascii")).hexdigest()
    return "".join(c.upper() if c.isalpha() and int(digest[i], 16) >= 8 else c for i, c in enumerate(lower))


def ethereum_valid(value: str) -> bool:
    if not re.fullmatch(ETHEREUM, value):
        return False
    body = value[2:]
    if body == body.lower() or body == body.upper():
        return True  # written in one case: no checksum to check
    return eip55(body) == body
