"""A generated evaluation set for the identifier types of the table: valid numbers of
every type (a chain of stand-ins from the type's documented example, each one checked by
python-stdnum), in sentences in the type's own language and in English, with a cue word
and without one. Generated at bench time; nothing is stored."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agent.detect.spec import EntityType, StandInRequest
from agent.entities import Action, Label, SanitizeResult
from agent.substitute.id_standins import alnum, constant_positions, shares_digit_run, stand_in_for

# (with a cue word, without one) sentence forms per language. {cue} is one of the type's
# cue words, {value} the number.
TEMPLATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        ("My {cue} is {value}.", "{cue}: {value}", "Please update the {cue} on file to {value} before Friday.",
         "I think the {cue} ({value}) was typed wrong on the form."),
        ("Please check {value} before Friday.", "It says {value} at the top of the letter.",
         "Can you copy {value} into the second field?", "The form came back with {value} on it."),
    ),
    "de": (("Meine {cue} lautet {value}.", "{cue}: {value}"), ("Bitte prüfen Sie {value} bis Freitag.", "Auf dem Brief steht {value}.")),
    "es": (("Mi {cue} es {value}.", "{cue}: {value}"), ("Por favor, revisa {value} antes del viernes.", "En la carta pone {value}.")),
    "it": (("Il mio {cue} è {value}.", "{cue}: {value}"), ("Controlla {value} entro venerdì.", "Sulla lettera c'è scritto {value}.")),
    "fr": (("Mon {cue} est {value}.", "{cue} : {value}"), ("Merci de vérifier {value} avant vendredi.", "La lettre indique {value}.")),
    "fi": (("Minun {cue} on {value}.", "{cue}: {value}"), ("Tarkista {value} ennen perjantaita.", "Kirjeessä lukee {value}.")),
    "sv": (("Mitt {cue} är {value}.", "{cue}: {value}"), ("Kontrollera {value} före fredag.", "I brevet står det {value}.")),
    "da": (("Mit {cue} er {value}.", "{cue}: {value}"), ("Tjek venligst {value} inden fredag.", "Der står {value} i brevet.")),
    "no": (("Mitt {cue} er {value}.", "{cue}: {value}"), ("Sjekk {value} før fredag.", "Det står {value} i brevet.")),
    "pl": (("Mój {cue} to {value}.", "{cue}: {value}"), ("Proszę sprawdzić {value} do piątku.", "W liście jest {value}.")),
    "tr": (("Benim {cue} {value}.", "{cue}: {value}"), ("Lütfen {value} cuma gününe kadar kontrol edin.", "Mektupta {value} yazıyor.")),
    "nl": (("Mijn {cue} is {value}.", "{cue}: {value}"), ("Controleer {value} voor vrijdag.", "In de brief staat {value}.")),
    "pt": (("O meu {cue} é {value}.", "{cue}: {value}"), ("Verifique {value} até sexta-feira.", "Na carta está {value}.")),
    "ko": (("제 {cue}는 {value}입니다.", "{cue}: {value}"), ("{value} 확인 부탁드립니다.", "편지에 {value}라고 적혀 있어요.")),
    "ja": (("私の{cue}は{value}です。", "{cue}：{value}"), ("{value}を確認してください。", "手紙には{value}と書いてあります。")),
    "zh": (("我的{cue}是{value}。", "{cue}：{value}"), ("请核对{value}。", "信上写着{value}。")),
    "he": (("{cue} שלי הוא {value}.", "{cue}: {value}"), ("נא לבדוק את {value} עד יום שישי.", "במכתב כתוב {value}.")),
    "hi": (("मेरा {cue} {value} है।", "{cue}: {value}"), ("कृपया {value} शुक्रवार तक जाँचें।", "पत्र में {value} लिखा है।")),
}


@dataclass(frozen=True)
class IdSample:
    text: str
    value: str
    key: str
    family: str
    language: str
    cue: bool
    constant: frozenset[int] = frozenset()  # places every value of the type shares (756...)


def valid_values(kind: EntityType, count: int, rng: random.Random) -> list[str]:
    """count valid values of the type: stand-ins of stand-ins of its documented example."""
    if not kind.examples:
        return []
    values: list[str] = []
    current = kind.examples[0]
    seen = {alnum(current).upper()}
    attempts = 0
    while len(values) < count and attempts < count * 5:
        attempts += 1
        new = stand_in_for(kind, StandInRequest(real=current, rng=rng))
        if new is None or alnum(new).upper() in seen:
            continue
        if kind.validate is not None and not kind.validate(new):
            continue
        seen.add(alnum(new).upper())
        values.append(new)
        current = new
    return values


def _cues(kind: EntityType, language: str) -> list[str]:
    """Cue words fit for sentences: spelled-out ones first (not "#")."""
    words = [c for c in kind.context if len(alnum(c)) >= 2]
    if language != "en":
        native = [c for c in words if not c.isascii() or c.islower() and " " not in c]
        return native or words
    return words


def generate_id_samples(types: Sequence[EntityType], per_type: int = 24, seed: int = 12) -> list[IdSample]:
    rng = random.Random(seed)
    samples: list[IdSample] = []
    for kind in types:
        if not kind.examples or not kind.patterns:
            continue
        languages = ["en"] + [lang for lang in kind.languages if lang in TEMPLATES]
        for i, value in enumerate(valid_values(kind, per_type, rng)):
            language = languages[i % len(languages)]
            with_cue, without = TEMPLATES[language]
            cues = _cues(kind, language)
            cue = cues[i % len(cues)]
            template = with_cue[i % len(with_cue)]
            if template.startswith("{cue}"):
                cue = cue[:1].upper() + cue[1:] if cue.islower() else cue
            constant = constant_positions(kind, value)
            samples.append(IdSample(template.format(cue=cue, value=value), value, kind.key, kind.family, language, True, constant))
            plain = without[i % len(without)]
            samples.append(IdSample(plain.format(value=value), value, kind.key, kind.family, language, False, constant))
    return samples


@dataclass
class IdScores:
    """Per type family: found (the value no longer in the text), strict (replaced whole by
    a stand-in sharing no 3-digit run with it at the same place)."""

    by_family: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    by_type: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    shared_runs: list[tuple[str, str]] = field(default_factory=list)

    def add(self, sample: IdSample, found: bool, strict: bool) -> None:
        group = "cue" if sample.cue else "no_cue"
        for table, key in ((self.by_family, sample.family), (self.by_type, sample.key)):
            row = table.setdefault(key, {"cue": [0, 0, 0], "no_cue": [0, 0, 0]})
            row[group][0] += 1
            row[group][1] += int(found)
            row[group][2] += int(strict)

    def totals(self, group: str) -> tuple[int, int, int]:
        n = found = strict = 0
        for row in self.by_family.values():
            n += row[group][0]
            found += row[group][1]
            strict += row[group][2]
        return n, found, strict

    def to_json(self) -> dict:
        def rates(row: list[int]) -> dict:
            n, found, strict = row
            return {"n": n, "recall": round(found / n, 4) if n else None, "strict": round(strict / n, 4) if n else None}

        out = {}
        for group in ("cue", "no_cue"):
            out[group] = rates(list(self.totals(group)))
        out["families"] = {k: {g: rates(v[g]) for g in v} for k, v in sorted(self.by_family.items())}
        out["types"] = {k: {g: rates(v[g]) for g in v} for k, v in sorted(self.by_type.items())}
        out["stand_ins_sharing_a_3_digit_run"] = len(self.shared_runs)
        return out


def _fiction_range(real: str, stand_in: str) -> frozenset[int]:
    """The places of North America's fiction range (555-01) in a phone stand-in that uses it."""
    digits = alnum(stand_in)
    if len(digits) < 10 or len(digits) != len(alnum(real)) or digits[-7:-2] != "55501":
        return frozenset()
    return frozenset(range(len(digits) - 7, len(digits) - 2))


def value_present(value: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9]){re.escape(value)}(?![A-Za-z0-9])", text) is not None


def score_id_samples(samples: Sequence[IdSample], sanitize: Callable[[str], SanitizeResult]) -> IdScores:
    scores = IdScores()
    for sample in samples:
        result = sanitize(sample.text)
        found = not value_present(sample.value, result.sanitized)
        start = sample.text.index(sample.value)
        end = start + len(sample.value)
        whole = [
            r for r in result.entities
            if r.action is not Action.KEEP and r.start <= start and end <= r.end
        ]
        strict = False
        if found and whole:
            rep = whole[0]
            # Replaced whole: the stand-in of exactly this value shares no digit run with it
            # (a phone's fiction range, 555-01xx, is the same in every stand-in: its own digits
            # do not count, as fake_phone's check has it).
            fixed = sample.constant | _fiction_range(sample.value, rep.sent) if rep.label is Label.PHONE else sample.constant
            shared = (rep.start, rep.end) == (start, end) and shares_digit_run(sample.value, rep.sent, fixed=fixed)
            if shared:
                scores.shared_runs.append((sample.value, rep.sent))
            strict = not shared
        scores.add(sample, found, strict)
    return scores


# -- the stand-in generators alone, over many seeds --------------------------------------
# Phone numbers as people write them (the phone generator is not a table row).
_PHONES = ("(312) 748-2291", "+1 503 201 0187", "020 7123 4567", "+44 7911 123456", "+49 30 12345678",
           "+91 98765 43210", "+33 6 12 34 56 78", "+61 2 9876 5432", "492 382 0187")


def generator_runs(types: Sequence[EntityType], seeds: int = 200, values_per_type: int = 5, seed: int = 41) -> dict:
    """For every type (and phone numbers), stand-ins of a few valid values under many
    conversation seeds: how many share a 3-digit run with the real value at the same
    place (the type's fixed characters, such as a country prefix, aside). Goal 0."""
    rng = random.Random(seed)
    out: dict[str, dict[str, int]] = {}
    for kind in types:
        if not kind.examples or not kind.patterns:
            continue
        row = out.setdefault(kind.key, {"n": 0, "shared": 0})
        for value in valid_values(kind, values_per_type, rng):
            fixed = constant_positions(kind, value)
            for s in range(seeds):
                stand_in = stand_in_for(kind, StandInRequest(real=value, rng=random.Random(s)))
                if stand_in is None:
                    continue
                row["n"] += 1
                row["shared"] += shares_digit_run(value, stand_in, fixed=fixed)
    from agent.substitute.formats import fake_phone

    row = out.setdefault("PHONE", {"n": 0, "shared": 0})
    for value in _PHONES:
        fixed = _phone_structure(value)
        for s in range(seeds):
            row["n"] += 1
            row["shared"] += shares_digit_run(value, fake_phone(random.Random(s), value), fixed=fixed)
    return out


def _phone_structure(value: str) -> frozenset[int]:
    """Places of a phone number every number of its kind shares: the country calling code
    as written and the first national digit, which says what kind of line it is (07... a
    UK mobile): the stand-in keeps them, as the issue allows."""
    import phonenumbers

    digits = alnum(value)
    try:
        number = phonenumbers.parse(value, "US")
    except phonenumbers.NumberParseException:
        return frozenset()
    national = str(number.national_number)
    head = len(digits) - len(national)
    return frozenset(range(head + 1))
