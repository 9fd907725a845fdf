"""The type table: one row per kind of entity Veil protects. The label rows carry what
every stage needs to know about a label (display name, notification noun, highlight hue,
residual-risk weight, whether a value is found again where it recurs); the identifier
rows (agent/detect/id_table.py) add patterns, cue words, validators and stand-in makers.

`python -m agent.detect.table --write README.md` writes the README's list of what Veil
protects from this table (tests/test_ids_table.py checks that the README matches)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from agent.detect.id_table import ID_TYPES
from agent.detect.spec import EntityType
from agent.entities import Label
from agent.substitute import label_standins


def _row(label: Label, name: str, noun: tuple[str, str], hue: int, risk: float, family: str, generate, plausible=None,
         *, propagate: bool = True) -> EntityType:
    return EntityType(key=label.value, label=label, name=name, noun=noun, hue=hue, risk=risk, family=family,
                      generate=generate, plausible=plausible, propagate=propagate)


S = label_standins
# label, display name, notification noun (one, many), hue, residual-risk weight, family,
# stand-in generator, plausibility of a proposed stand-in, found again where it recurs.
LABEL_TYPES: tuple[EntityType, ...] = (
    _row(Label.PERSON, "Person names", ("person", "persons"), 210, 5, "names", S.person, S.plausible_person),
    _row(Label.ORG, "Organisations", ("organisation", "organisations"), 275, 2, "names", S.org),
    _row(Label.LOCATION, "Places", ("place", "places"), 140, 2, "names", S.place),
    _row(Label.ADDRESS, "Postal addresses", ("address", "addresses"), 160, 4, "contact", S.address),
    _row(Label.EMAIL, "E-mail addresses (also written [at] / dot)", ("email", "emails"), 25, 4, "contact", S.email,
         S.plausible_email),
    _row(Label.PHONE, "Phone numbers", ("phone number", "phone numbers"), 40, 4, "contact", S.phone, S.plausible_phone),
    _row(Label.DATE, "Dates", ("date", "dates"), 190, 1, "dates", S.date, S.plausible_date, propagate=False),
    _row(Label.ID, "IDs and reference numbers", ("ID", "IDs"), 330, 3, "national_id", S.same_shape_of, S.plausible_length),
    _row(Label.URL, "URLs and host names", ("URL", "URLs"), 55, 2, "network", S.url),
    _row(Label.IP, "IP addresses", ("IP address", "IP addresses"), 5, 3, "network", S.ip),
    _row(Label.MAC, "MAC addresses", ("MAC address", "MAC addresses"), 15, 3, "network", S.mac),
    _row(Label.CREDIT_CARD, "Card numbers", ("card number", "card numbers"), 350, 5, "card", S.card, S.plausible_card),
    _row(Label.IBAN, "IBANs", ("IBAN", "IBANs"), 345, 5, "bank", S.iban, S.plausible_iban),
    _row(Label.SSN, "Social security numbers", ("SSN", "SSNs"), 0, 5, "national_id", S.ssn, S.plausible_length),
    _row(Label.USERNAME, "Usernames", ("username", "usernames"), 300, 3, "contact", S.username, S.plausible_length),
    _row(Label.SECRET, "Secrets (API keys, passwords, credentials in config)", ("secret", "secrets"), 355, 5, "secret",
         S.secret),
    _row(Label.NORP, "Nationalities and groups", ("group", "groups"), 95, 0.5, "names", S.group, propagate=False),
    _row(Label.MISC, "Other names", ("other item", "other items"), 230, 1, "names", S.other),
)
TYPES: tuple[EntityType, ...] = LABEL_TYPES + ID_TYPES
_BY_LABEL = {row.label: row for row in LABEL_TYPES}


def label_row(label: Label) -> EntityType:
    return _BY_LABEL[label]


def row_of(span) -> EntityType:
    """The table row a span was found as: its identifier row, else its label's."""
    from agent.detect.id_table import table_type_of

    return table_type_of(span) or _BY_LABEL[span.label]


def label_names() -> dict[str, str]:
    """Display name per label (settings, menus)."""
    return {row.key: row.name for row in LABEL_TYPES}


def hues() -> dict[str, int]:
    """Highlight hue per label (the desktop's colours)."""
    return {row.key: row.hue for row in LABEL_TYPES}


def nouns() -> dict[str, tuple[str, str]]:
    return {row.key: row.noun for row in LABEL_TYPES}


def risk_weights() -> dict[Label, float]:
    return {row.label: row.risk for row in LABEL_TYPES}


def risk_of(span) -> float:
    """Residual-risk weight of a span sent as is: its identifier row's own weight (a
    national ID 5, a VAT number 3), else its label's."""
    return row_of(span).risk


def propagating_labels() -> frozenset[Label]:
    return frozenset(row.label for row in LABEL_TYPES if row.propagate)


_FAMILIES = {
    "national_id": "National and government identity numbers",
    "tax_id": "Tax identifiers",
    "health_id": "Health identifiers",
    "travel_document": "Passports and driving licences",
    "bank": "Bank identifiers",
    "card": "Payment cards",
    "crypto": "Crypto wallets",
}
_CHECK_NAMES = {
    "format_only": "format", "_npi": "Luhn with the 80840 prefix (python-stdnum)",
    "_card": "Luhn (python-stdnum) and network prefix", "bitcoin_valid": "base58check (python-stdnum) / bech32(m)",
    "ethereum_valid": "EIP-55 (Keccak-256)",
}
START, END = "<!-- protects:start (generated by python -m agent.detect.table --write README.md) -->", "<!-- protects:end -->"


def protects_markdown() -> str:
    lines = [START, "", "| kind | what | validated by |", "|---|---|---|"]
    for row in LABEL_TYPES:
        lines.append(f"| {row.label.value} | {row.name} | |")
    for family, title in _FAMILIES.items():
        rows = [t for t in ID_TYPES if t.family == family]
        if not rows:
            continue
        lines.append(f"| **{title}** | | |")
        for t in rows:
            check = t.validate.__name__ if t.validate is not None else "cue word and format"
            check = _CHECK_NAMES.get(check, check)
            where = f" ({t.country})" if t.country else ""
            lines.append(f"| {t.label.value} | {t.name}{where} | {check} |")
    lines += ["", END]
    return "\n".join(lines)


def write_readme(path: Path) -> bool:
    """Replace the generated section of the README; True when it changed."""
    text = path.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{path}: no '{START}' ... '{END}' section to write")
    before, rest = text.split(START, 1)
    _, after = rest.split(END, 1)
    new = before + protects_markdown() + after
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="print or write the README's list of what Veil protects")
    parser.add_argument("--write", type=Path, metavar="README", help="replace the generated section of this file")
    args = parser.parse_args(argv)
    if args.write:
        changed = write_readme(args.write)
        print(f"{args.write}: {'updated' if changed else 'already up to date'}")
    else:
        sys.stdout.write(protects_markdown() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
