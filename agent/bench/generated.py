"""Bench rows on generated sets (nothing from ../shared/data): identifiers of the type
table, texts with nothing personal (code, configuration, logs, technical prose from the
installed packages), personal data planted in code, leaks (secrets in configuration,
obfuscated contacts, cards with any separator), and restore of reformatted stand-ins."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

import phonenumbers

from agent.bench.code_corpus import nothing_personal, plant_pii
from agent.bench.id_sets import generate_id_samples, generator_runs, score_id_samples, value_present
from agent.bench.leak_sets import leak_items
from agent.bench.metrics import bench_conversation
from agent.engine.interface import PrivacyEngine
from agent.entities import Action, Label

Progress = Callable[[str], None]


def _sanitizer(engine: PrivacyEngine, prefix: str):
    counter = iter(range(10**9))

    def sanitize(text: str):
        return engine.sanitize(text, bench_conversation(f"{prefix}-{next(counter)}"))

    return sanitize


def id_rows(engine: PrivacyEngine, quick: bool = False) -> dict:
    from agent.detect.id_table import ID_TYPES

    samples = generate_id_samples(ID_TYPES, per_type=2 if quick else 24)
    out = score_id_samples(samples, _sanitizer(engine, "ids")).to_json()
    runs = generator_runs(ID_TYPES, seeds=10 if quick else 200)
    out["generator_runs"] = {"n": sum(r["n"] for r in runs.values()), "shared": sum(r["shared"] for r in runs.values()),
                             "types_with_shared": sorted(k for k, r in runs.items() if r["shared"])}
    return out


def nothing_personal_rows(engine: PrivacyEngine, quick: bool = False) -> dict:
    """Share of texts changed, and of code tokens changed, where nothing is personal."""
    texts = nothing_personal()
    if quick:
        texts = texts[::15]
    sanitize = _sanitizer(engine, "plain")
    changed_texts = 0
    tokens = changed_tokens = 0
    by_kind: dict[str, list[int]] = {}
    examples = []
    for item in texts:
        result = sanitize(item.text)
        swapped = [(r.start, r.end) for r in result.entities if r.action is not Action.KEEP]
        changed = bool(swapped)
        changed_texts += changed
        row = by_kind.setdefault(item.kind, [0, 0])
        row[0] += 1
        row[1] += changed
        words = list(re.finditer(r"\w+", item.text))
        tokens += len(words)
        changed_tokens += sum(1 for m in words if any(s <= m.start() < e for s, e in swapped))
        if changed and len(examples) < 12:
            examples.extend(f"{item.kind}: {result.original[r.start:r.end]!r} -> {r.sent!r} ({r.label.value}, {r.detector})"
                            for r in result.entities if r.action is not Action.KEEP)
    return {
        "texts": len(texts), "changed_share": round(changed_texts / len(texts), 4),
        "tokens": tokens, "changed_token_share": round(changed_tokens / tokens, 5) if tokens else None,
        "by_kind": {k: {"n": v[0], "changed": round(v[1] / v[0], 4)} for k, v in sorted(by_kind.items())},
        "examples": examples[:12],
    }


def planted_rows(engine: PrivacyEngine, quick: bool = False) -> dict:
    planted = plant_pii([t for t in nothing_personal() if t.kind in ("code", "config", "log")], count=20 if quick else 200)
    sanitize = _sanitizer(engine, "planted")
    by_kind: dict[str, list[int]] = {}
    for item in planted:
        found = not value_present(item.value, sanitize(item.text).sanitized)
        row = by_kind.setdefault(item.kind, [0, 0])
        row[0] += 1
        row[1] += found
    n = sum(v[0] for v in by_kind.values())
    return {"n": n, "recall": round(sum(v[1] for v in by_kind.values()) / n, 4),
            "by_kind": {k: round(v[1] / v[0], 4) for k, v in sorted(by_kind.items())}}


def leak_rows(engine: PrivacyEngine, quick: bool = False) -> dict:
    items = leak_items(30 if quick else 360)
    sanitize = _sanitizer(engine, "leak")
    by_kind: dict[str, list[int]] = {}
    missed = []
    for item in items:
        found = not value_present(item.value, sanitize(item.text).sanitized)
        row = by_kind.setdefault(item.kind, [0, 0])
        row[0] += 1
        row[1] += found
        if not found and len(missed) < 10:
            missed.append(item.text)
    n = len(items)
    return {"n": n, "recall": round(sum(v[1] for v in by_kind.values()) / n, 4),
            "by_kind": {k: round(v[1] / v[0], 4) for k, v in sorted(by_kind.items())}, "missed": missed}


# -- restore of reformatted stand-ins ---------------------------------------------------
@dataclass(frozen=True)
class _Variant:
    name: str
    label: Label
    rewrite: Callable[[str], str | None]  # a value written this way (stand-in and real alike)


def _phone_rewrite(style: str) -> Callable[[str], str | None]:
    def rewrite(value: str) -> str | None:
        try:
            number = phonenumbers.parse(value, "US")
        except phonenumbers.NumberParseException:
            return None
        if style == "e164":
            return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
        national = phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.NATIONAL)
        if style == "digits":
            return re.sub(r"\D", "", national)
        groups = re.findall(r"\d+", national)
        return ("." if style == "dotted" else " ").join(groups)

    return rewrite


def _compact(value: str) -> str:
    return re.sub(r"[\s.\-]", "", value)


def _grouped(value: str) -> str:
    compact = _compact(value)
    return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))


_DATE_FORMATS = ("%B %d, %Y", "%Y-%m-%d", "%d %B %Y", "%m/%d/%Y", "%d.%m.%Y")


def _date_rewrite(fmt: str) -> Callable[[str], str | None]:
    """The date written in fmt, days without a leading zero in the spelled-out forms."""

    def rewrite(value: str) -> str | None:
        for known in _DATE_FORMATS:
            try:
                day = dt.datetime.strptime(value, known)
            except ValueError:
                continue
            return day.strftime(fmt).replace(day.strftime(" %d"), f" {day.day}").replace(
                day.strftime("%d "), f"{day.day} ", 1 if fmt.startswith("%d") else 0)
        return None

    return rewrite


VARIANTS = (
    _Variant("phone_digits", Label.PHONE, _phone_rewrite("digits")),
    _Variant("phone_e164", Label.PHONE, _phone_rewrite("e164")),
    _Variant("phone_dotted", Label.PHONE, _phone_rewrite("dotted")),
    _Variant("phone_spaced", Label.PHONE, _phone_rewrite("spaced")),
    _Variant("card_compact", Label.CREDIT_CARD, _compact),
    _Variant("card_spaced", Label.CREDIT_CARD, _grouped),
    _Variant("iban_compact", Label.IBAN, _compact),
    _Variant("iban_spaced", Label.IBAN, _grouped),
    _Variant("date_iso", Label.DATE, _date_rewrite("%Y-%m-%d")),
    _Variant("date_long", Label.DATE, _date_rewrite("%B %d, %Y")),
    _Variant("date_day_month", Label.DATE, _date_rewrite("%d %B %Y")),
)


def _reformat_texts(rng: random.Random, count: int) -> list[tuple[str, Label]]:
    from stdnum import luhn

    out = []
    for i in range(count):
        kind = i % 4
        if kind == 0:
            area = rng.choice((212, 312, 415, 617, 503))
            value = rng.choice(("({a}) {b}-{c}", "{a}-{b}-{c}", "+1 {a} {b} {c}")).format(
                a=area, b=rng.randint(201, 989), c=f"{rng.randint(0, 9999):04d}")
            out.append((f"Call me on {value} after six.", Label.PHONE))
        elif kind == 1:
            body = "4" + "".join(rng.choice("0123456789") for _ in range(14))
            number = body + luhn.calc_check_digit(body)
            out.append((f"My card is {_grouped(number)}, expiring soon.", Label.CREDIT_CARD))
        elif kind == 2:
            from stdnum import iban

            bban = "".join(rng.choice("0123456789") for _ in range(18))
            number = "DE" + iban.calc_check_digits("DE00" + bban) + bban
            out.append((f"Please pay to IBAN {_grouped(number)} by Monday.", Label.IBAN))
        else:
            day = dt.date(1960, 1, 1) + dt.timedelta(days=rng.randrange(20000))
            out.append((f"I was born on {day.strftime(rng.choice(_DATE_FORMATS))} in the spring.", Label.DATE))
    return out


def echo_variant_rows(engine: PrivacyEngine, quick: bool = False, seed: int = 31) -> dict:
    """The LLM writes a stand-in another way (digits only, E.164, dots, spaces, without
    spaces, another date format): restore must give the real value written that way."""
    rng = random.Random(seed)
    results: dict[str, list[int]] = {}
    failures = []
    for i, (text, label) in enumerate(_reformat_texts(rng, 24 if quick else 240)):
        conversation = bench_conversation(f"echo-{i}")
        result = engine.sanitize(text, conversation)
        reps = [r for r in result.entities if r.label is label and r.action is Action.REPLACE]
        if len(reps) != 1:
            continue
        rep = reps[0]
        for variant in VARIANTS:
            if variant.label is not label:
                continue
            said, real = variant.rewrite(rep.sent), variant.rewrite(rep.real)
            if said is None or real is None:
                continue
            if said == rep.sent:
                real = rep.real  # written as sent: nothing tells restore another form was meant
            echo = result.sanitized[: rep.sanitized_start] + said + result.sanitized[rep.sanitized_end :]
            expected = text[: rep.start] + real + text[rep.end :]
            restored = engine.restore(echo, conversation).text
            row = results.setdefault(variant.name, [0, 0])
            row[0] += 1
            row[1] += restored == expected
            if restored != expected and len(failures) < 8:
                failures.append(f"{variant.name}: {echo!r} -> {restored!r}, want {expected!r}")
    n = sum(v[0] for v in results.values())
    return {"n": n, "restored": round(sum(v[1] for v in results.values()) / n, 4) if n else None,
            "by_variant": {k: {"n": v[0], "restored": round(v[1] / v[0], 4)} for k, v in sorted(results.items())},
            "failures": failures}


def run_generated(engine: PrivacyEngine, progress: Progress | None = None, *, quick: bool = False) -> dict:
    """quick: a small slice of every set (as `veil bench --limit` runs in CI)."""
    out = {}
    for name, fn in (("identifiers", id_rows), ("nothing_personal", nothing_personal_rows), ("planted_in_code", planted_rows),
                     ("leaks", leak_rows), ("echo_variants", echo_variant_rows)):
        out[name] = fn(engine, quick)
        if progress:
            progress(f"generated: {name} done")
    return out


def _f(value) -> str:
    return "—" if value is None else (f"{value:.3f}" if isinstance(value, float) else str(value))


def markdown_generated(data: dict) -> str:
    if not data:
        return ""
    lines = ["", "Generated sets (made at bench time; see agent/bench/generated.py):", "",
             "| measure | target | Veil |", "|---|---|---|"]
    ids = data.get("identifiers", {})
    if ids:
        lines.append(f"| Identifiers with a cue word: recall / strict (n={ids['cue']['n']}) | >= 0.97 | {_f(ids['cue']['recall'])} / {_f(ids['cue']['strict'])} |")
        lines.append(f"| Identifiers without a cue word: recall / strict (n={ids['no_cue']['n']}) | >= 0.80 | {_f(ids['no_cue']['recall'])} / {_f(ids['no_cue']['strict'])} |")
        lines.append(f"| Identifier stand-ins sharing a 3-digit run with the real value | 0 | {ids['stand_ins_sharing_a_3_digit_run']} |")
        runs = ids.get("generator_runs")
        if runs:
            lines.append(f"| Stand-in generators, every type and phones over many seeds: sharing a 3-digit run (n={runs['n']}) | 0 | {runs['shared']} |")
    plain = data.get("nothing_personal", {})
    if plain:
        lines.append(f"| Texts with nothing personal changed (n={plain['texts']}) | <= 0.05 | {_f(plain['changed_share'])} |")
        lines.append(f"| Code-corpus tokens changed (n={plain['tokens']}) | <= 0.005 | {_f(plain['changed_token_share'])} |")
    planted = data.get("planted_in_code", {})
    if planted:
        lines.append(f"| PII planted in code found (n={planted['n']}) | >= 0.98 | {_f(planted['recall'])} |")
    leaks = data.get("leaks", {})
    if leaks:
        lines.append(f"| Leaks: secrets in config, obfuscated contacts, cards (n={leaks['n']}) | >= 0.99 | {_f(leaks['recall'])} |")
    echo = data.get("echo_variants", {})
    if echo:
        lines.append(f"| Restore of reformatted stand-ins (n={echo['n']}) | >= 0.995 | {_f(echo['restored'])} |")
    if ids:
        lines += ["", "| identifier family | n (cue) | recall | strict | n (no cue) | recall | strict |", "|---|---|---|---|---|---|---|"]
        for family, row in ids["families"].items():
            cue, plain_row = row["cue"], row["no_cue"]
            lines.append(f"| {family} | {cue['n']} | {_f(cue['recall'])} | {_f(cue['strict'])} | {plain_row['n']} | {_f(plain_row['recall'])} | {_f(plain_row['strict'])} |")
    if echo:
        lines += ["", "| echo variant | n | restored |", "|---|---|---|"]
        lines += [f"| {k} | {v['n']} | {_f(v['restored'])} |" for k, v in echo["by_variant"].items()]
    if leaks:
        lines += ["", "Leak recall by kind: " + ", ".join(f"{k} {_f(v)}" for k, v in leaks["by_kind"].items())]
    if planted:
        lines += ["", "Planted-in-code recall by kind: " + ", ".join(f"{k} {_f(v)}" for k, v in planted["by_kind"].items())]
    return "\n".join(lines) + "\n"
