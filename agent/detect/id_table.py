"""National, government, tax, health and bank identifiers: one row per type.

Each row gives the written forms (patterns with the score of a valid value that has no
cue word near it), the cue words that announce it (in English and the issuing country's
languages; an ALL-CAPS cue matches only in capitals, so "PAN" is not "pan"), the
validator (python-stdnum: checksums, dates, ranges; nothing hand-written) and the stand-in
mask (agent.substitute.id_standins). Adding a country's identifier is adding a row here
and its tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import ModuleType

from stdnum import iban, luhn
from stdnum.au import tfn as au_tfn
from stdnum.be import nn as be_nn
from stdnum.bg import egn as bg_egn
from stdnum.br import cpf as br_cpf
from stdnum.ca import sin as ca_sin
from stdnum.ch import ssn as ch_ssn
from stdnum.cn import ric as cn_ric
from stdnum.cz import rc as cz_rc
from stdnum.de import idnr as de_idnr
from stdnum.de import vat as de_vat
from stdnum.dk import cpr as dk_cpr
from stdnum.ee import ik as ee_ik
from stdnum.es import dni as es_dni
from stdnum.es import nie as es_nie
from stdnum.fi import hetu as fi_hetu
from stdnum.fr import nir as fr_nir
from stdnum.gb import nhs as gb_nhs
from stdnum.gb import utr as gb_utr
from stdnum.hr import oib as hr_oib
from stdnum.ie import pps as ie_pps
from stdnum.il import idnr as il_idnr
from stdnum.in_ import aadhaar as in_aadhaar
from stdnum.in_ import pan as in_pan
from stdnum.it import codicefiscale as it_cf
from stdnum.it import iva as it_iva
from stdnum.jp import in_ as jp_in
from stdnum.kr import rrn as kr_rrn
from stdnum.lt import asmens as lt_asmens
from stdnum.mx import curp as mx_curp
from stdnum.nl import bsn as nl_bsn
from stdnum.no import fodselsnummer as no_fnr
from stdnum.pl import pesel as pl_pesel
from stdnum.pt import nif as pt_nif
from stdnum.ro import cnp as ro_cnp
from stdnum.se import personnummer as se_pnr
from stdnum.tr import tckimlik as tr_tckn
from stdnum.us import ein as us_ein
from stdnum.us import itin as us_itin
from stdnum.us import rtn as us_rtn
from stdnum.us import ssn as us_ssn
from stdnum.za import idnr as za_idnr

from agent.detect.id_checks import au_medicare_valid, de_id_card_valid, sg_nric_valid
from agent.detect.spec import EntityType, Generator, Pattern
from agent.detect.validators import card_brand
from agent.detect.wallets import (
    BITCOIN_BASE58,
    BITCOIN_BECH32,
    ETHEREUM,
    bitcoin_valid,
    ethereum_valid,
)
from agent.entities import Label
from agent.substitute.id_standins import (
    card_stand_in,
    cn_ric_stand_in,
    de_idnr_stand_in,
    iban_stand_in,
)
from agent.substitute.wallets import bitcoin_stand_in, ethereum_stand_in

ID_HUE = 330
# Generic words that announce an identifier of any type ("ID:", "No.", "número").
GENERIC_CUES = (
    "id", "ID", "id number", "identity number", "identification number", "number", "no", "nr", "num", "#",
    "número", "numero", "nummer", "numer", "nº", "n°", "n.", "code", "tax id", "tax number",
    "identity card", "id card", "national id", "personal number",
)


# Cue words of the types the pattern detectors find (agent/detect/patterns.py): never a
# name or a place either ("Not a MAC:", "my DOB is").
OTHER_CUES = (
    "MAC", "mac address", "IP", "ip address", "ipv4", "ipv6", "email", "e-mail", "phone", "tel", "fax", "mobile",
    "DOB", "d.o.b", "date of birth", "URL", "username", "user id", "login", "zip code", "postcode", "SWIFT", "BIC",
)


def _std(module: ModuleType) -> Callable[[str], bool]:
    """python-stdnum's own check (length, format, dates, check digits)."""

    def valid(value: str) -> bool:
        try:
            return bool(module.is_valid(value))
        except (ValueError, TypeError, IndexError, KeyError):  # odd input some modules raise on
            return False

    valid.__name__ = f"stdnum.{module.__name__.removeprefix('stdnum.')}"
    return valid


def _shape(regex: str) -> Callable[[str], bool]:
    """A type with no check digit: its format is the check."""
    compiled = re.compile(regex, re.IGNORECASE)

    def valid(value: str) -> bool:
        return compiled.fullmatch(value) is not None

    valid.__name__ = "format_only"
    return valid


def _npi(value: str) -> bool:
    """US National Provider Identifier: Luhn over the number with the 80840 prefix (the
    health-industry issuer prefix of ISO 7812)."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return len(digits) == 10 and digits[0] in "12" and luhn.is_valid("80840" + digits)


def _card(value: str) -> bool:
    """Luhn-valid with a known network's prefix and length."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return luhn.is_valid(digits) and card_brand(digits) is not None


def identifier(
    key: str,
    name: str,
    country: str,
    patterns: tuple[Pattern, ...],
    context: tuple[str, ...],
    validate: Callable[[str], bool] | None,
    masks: tuple[str, ...],
    *,
    label: Label = Label.ID,
    family: str = "national_id",
    noun: tuple[str, str] = ("ID number", "ID numbers"),
    languages: tuple[str, ...] = (),
    cue_required: bool = False,
    risk: float = 5,
    hue: int = ID_HUE,
    examples: tuple[str, ...] = (),
    generate: Generator | None = None,
    lengths: tuple[int, ...] = (),
) -> EntityType:
    return EntityType(
        key=key, label=label, name=name, noun=noun, hue=hue, risk=risk, family=family,
        patterns=patterns, context=context, validate=validate, masks=masks,
        cue_required=cue_required, country=country, languages=languages, examples=examples,
        generate=generate, lengths=lengths,
    )


P = Pattern
SEP = r"[ \-]?"

ID_TYPES: tuple[EntityType, ...] = (
    # -- United States --------------------------------------------------------------
    identifier(
        "US_SSN", "US Social Security number", "US",
        (P(r"\d{3}-\d{2}-\d{4}", 0.9), P(r"\d{3} \d{2} \d{4}", 0.6), P(r"\d{9}", 0.0)),
        ("ssn", "social security", "social security number", "social sec", "ss#", "ss no"),
        _std(us_ssn), ("[1-8]########",), label=Label.SSN, noun=("SSN", "SSNs"), hue=0,
        examples=("536-90-4399",),
    ),
    identifier(
        "US_ITIN", "US individual taxpayer identification number", "US",
        (P(r"9\d{2}-\d{2}-\d{4}", 0.9), P(r"9\d{2} \d{2} \d{4}", 0.7), P(r"9\d{8}", 0.4)),
        ("itin", "individual taxpayer identification number", "taxpayer id", "taxpayer identification", "TIN", "tin number"),
        _std(us_itin), ("=##[5-9]#####",), family="tax_id", examples=("912-90-3456",),
    ),
    identifier(
        "US_EIN", "US employer identification number", "US",
        (P(r"\d{2}-\d{7}", 0.55), P(r"\d{9}", 0.0)),
        ("ein", "fein", "employer identification number", "employer id", "federal tax id", "TIN"),
        _std(us_ein), ("#########",), family="tax_id", risk=3, examples=("91-1144442",),
    ),
    identifier(
        "US_NPI", "US National Provider Identifier", "US",
        (P(r"[12]\d{9}", 0.0),),
        ("npi", "national provider identifier", "provider id", "provider number"),
        _npi, ("[12]########C",), family="health_id", examples=("1234567893",),
    ),
    identifier(
        "US_ABA", "US bank routing number (ABA)", "US",
        (P(r"\d{9}", 0.3),),
        ("aba", "routing", "routing number", "routing no", "rtn", "aba number", "transit number"),
        _std(us_rtn), ("[0-1]#######C",), family="bank", risk=3, noun=("routing number", "routing numbers"),
        examples=("111000025",),
    ),
    identifier(
        "US_PASSPORT", "US passport number", "US",
        (P(r"[A-Z]\d{8}", 0.0), P(r"\d{9}", 0.0)),
        ("passport", "passport number", "passport no", "passport #"),
        None, ("A########", "#########"), family="travel_document", cue_required=True,
        noun=("passport number", "passport numbers"),
    ),
    identifier(
        "US_DRIVER_LICENSE", "US driver's license number", "US",
        (
            P(r"[A-Z]{1,2}\d{5,12}", 0.0), P(r"\d{7,12}", 0.0),
            P(r"[A-Z]\d{3}-\d{3}-\d{2}-\d{3}-\d", 0.0), P(r"[A-Z]\d{3}-\d{4}-\d{4}", 0.0),
        ),
        ("driver's license", "drivers license", "driver license", "driver's licence", "DL", "license number",
         "licence number", "license no", "dl#", "dl no", "driving license"),
        None, ("*",), family="travel_document", cue_required=True,
        noun=("driver's license number", "driver's license numbers"),
    ),
    # -- United Kingdom -------------------------------------------------------------
    identifier(
        "UK_NINO", "UK National Insurance number", "GB",
        (P(r"(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]", 0.8),),
        ("nino", "national insurance", "national insurance number", "NI number", "NI no", "NI"),
        None, ("[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]######[A-D]",), family="tax_id",
        examples=("AB 12 34 56 C",),
    ),
    identifier(
        "UK_NHS", "UK NHS number", "GB",
        (P(r"\d{3} \d{3} \d{4}", 0.5), P(r"\d{3}-\d{3}-\d{4}", 0.4), P(r"\d{10}", 0.3)),
        ("nhs", "nhs number", "nhs no", "NHS", "health service number"),
        _std(gb_nhs), ("[4-9]########C",), family="health_id", examples=("943 476 5870",),
    ),
    identifier(
        "UK_UTR", "UK Unique Taxpayer Reference", "GB",
        (P(r"\d{5} ?\d{5}", 0.0),),
        ("utr", "unique taxpayer reference", "self assessment"),
        _std(gb_utr), ("C#########",), family="tax_id", risk=4, examples=("1955839661",),
    ),
    identifier(
        "UK_PASSPORT", "UK passport number", "GB",
        (P(r"\d{9}", 0.0), P(r"[A-Z]{2}\d{7}", 0.0)),
        ("passport", "passport number", "passport no", "hm passport"),
        None, ("#########", "AA#######"), family="travel_document", cue_required=True,
        noun=("passport number", "passport numbers"),
    ),
    identifier(
        "UK_DRIVING_LICENCE", "UK driving licence number", "GB",
        (P(r"[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?: ?\d{2})?", 0.85),),
        ("driving licence", "driving license", "licence number", "dvla", "driver number"),
        _shape(r"[A-Z9]{5}\d[0156]\d[0-3]\d\d[A-Z9]{2}\d[A-Z]{2}(?: ?\d{2})?"),
        ("AAAAA#[0156]#[0-2]##AA#AA", "AAAAA#[0156]#[0-2]##AA#AA##"), family="travel_document",
        noun=("driving licence number", "driving licence numbers"), examples=("MORGA657054SM9IJ",),
    ),
    # -- Germany --------------------------------------------------------------------
    identifier(
        "DE_STEUER_ID", "German tax ID (Steuer-ID)", "DE",
        (P(r"\d{2} ?\d{3} ?\d{3} ?\d{3}", 0.55),),
        ("steuer-id", "steuerid", "steuer id", "steueridentifikationsnummer", "identifikationsnummer", "idnr",
         "TIN", "tax id", "steuerliche identifikationsnummer"),
        _std(de_idnr), ("[1-9]#########C",), family="tax_id", languages=("de",), examples=("36 574 261 809",),
        generate=lambda request: de_idnr_stand_in(request.rng, request.real, _std(de_idnr)),
    ),
    identifier(
        "DE_ID_CARD", "German identity card number (Personalausweis)", "DE",
        # With its check digit (as on the machine-readable zone) the number checks itself;
        # the nine characters alone need a cue word.
        (P(r"[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}\d", 0.5), P(r"[CFGHJKLMNPRTVWXYZ][CFGHJKLMNPRTVWXYZ0-9]{8}", 0.0)),
        ("personalausweis", "personalausweisnummer", "ausweisnummer", "ausweis", "id card", "identity card",
         "reisepass", "passnummer"),
        de_id_card_valid,
        ("[CFGHJKLMNPRTVWXYZ]XXXXXXXX", "[CFGHJKLMNPRTVWXYZ]XXXXXXXXC"), languages=("de",),
        examples=("T220001293", "T22000129"),
    ),
    identifier(
        "DE_VAT", "German VAT ID (USt-IdNr.)", "DE",
        (P(r"DE ?\d{9}", 0.85),),
        ("ust-idnr", "ust-id", "umsatzsteuer-identifikationsnummer", "vat", "vat id", "vat number", "vat no"),
        _std(de_vat), ("==########C",), family="tax_id", risk=3, languages=("de",), examples=("DE136695976",),
    ),
    # -- Spain, Italy, Portugal -----------------------------------------------------
    identifier(
        "ES_DNI", "Spanish DNI / NIF", "ES",
        (P(r"\d{8}[ \-]?[A-Z]", 0.85),),
        ("dni", "nif", "documento nacional de identidad", "número de identificación fiscal", "NIF"),
        _std(es_dni), ("########C",), languages=("es",), examples=("54362315-K",),
    ),
    identifier(
        "ES_NIE", "Spanish foreigner ID (NIE)", "ES",
        (P(r"[XYZ][ \-]?\d{7}[ \-]?[A-Z]", 0.9),),
        ("nie", "NIE", "número de identidad de extranjero", "nif", "tarjeta de residencia"),
        _std(es_nie), ("[XYZ]#######C",), languages=("es",), examples=("X2482300W",),
    ),
    identifier(
        "IT_CODICE_FISCALE", "Italian codice fiscale", "IT",
        (P(r"[A-Z]{6}\d{2}[A-EHLMPR-T][0-7]\d[A-Z]\d{3}[A-Z]", 0.95),),
        ("codice fiscale", "cod. fiscale", "cod fiscale", "CF", "c.f.", "tax code", "fiscal code"),
        _std(it_cf), ("AAAAAA##[ABCDEHLMPRST][0-2]#A###C",), family="tax_id", languages=("it",),
        examples=("RCCMNL83S18D969H",),
    ),
    identifier(
        "IT_PARTITA_IVA", "Italian VAT number (partita IVA)", "IT",
        (P(r"(?:IT ?)?\d{11}", 0.0),),
        ("partita iva", "p.iva", "p. iva", "piva", "vat number", "vat no", "IVA"),
        _std(it_iva), ("#######[0][0-9][1-9]C", "==#######[0][0-9][1-9]C"), family="tax_id", risk=3,
        languages=("it",), examples=("00743110157",),
    ),
    identifier(
        "PT_NIF", "Portuguese tax number (NIF)", "PT",
        (P(r"\d{9}", 0.0), P(r"\d{3} \d{3} \d{3}", 0.0)),
        ("nif", "número de contribuinte", "numero de contribuinte", "contribuinte", "NIF"),
        _std(pt_nif), ("[1-3]#######C",), family="tax_id", languages=("pt",), examples=("501964843",),
    ),
    # -- Nordics --------------------------------------------------------------------
    identifier(
        "FI_HETU", "Finnish personal identity code (HETU)", "FI",
        (P(r"\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]", 0.95),),
        ("hetu", "henkilötunnus", "henkilotunnus", "sotu", "sosiaaliturvatunnus", "personal identity code"),
        _std(fi_hetu), ("{DDMMYY}###C", "{DDMMYY}=###C"), languages=("fi",), examples=("131052-308T",),
    ),
    identifier(
        "SE_PERSONNUMMER", "Swedish personal identity number (personnummer)", "SE",
        (P(r"(?:\d{2})?\d{6}[-+]\d{4}", 0.85), P(r"(?:\d{2})?\d{10}", 0.35)),
        ("personnummer", "personnr", "person nummer", "personal identity number", "samordningsnummer"),
        _std(se_pnr), ("{YYMMDD}###C", "{YYYYMMDD}###C"), languages=("sv",), examples=("880320-0016",),
    ),
    identifier(
        "DK_CPR", "Danish CPR number", "DK",
        (P(r"\d{6}-\d{4}", 0.6), P(r"\d{10}", 0.0)),
        ("cpr", "cpr-nummer", "cpr nummer", "personnummer", "CPR"),
        _std(dk_cpr), ("{DDMMYY}[0-3]###",), languages=("da",), examples=("211062-5629",),
    ),
    identifier(
        "NO_FODSELSNUMMER", "Norwegian national identity number (fødselsnummer)", "NO",
        (P(r"\d{6} ?\d{5}", 0.6),),
        ("fødselsnummer", "fodselsnummer", "personnummer", "national identity number", "f.nr", "fnr"),
        _std(no_fnr), ("{DDMMYY}[0-4]##CC",), languages=("no",), examples=("151086 95088",),
    ),
    # -- Central and Eastern Europe, Turkey ----------------------------------------------
    identifier(
        "PL_PESEL", "Polish PESEL number", "PL",
        (P(r"\d{11}", 0.55),),
        ("pesel", "numer pesel", "nr pesel"),
        _std(pl_pesel), ("{YYMMDD}####C",), languages=("pl",), examples=("44051401359",),
    ),
    identifier(
        "TR_TC_KIMLIK", "Turkish identity number (TC Kimlik No)", "TR",
        (P(r"[1-9]\d{10}", 0.55),),
        ("tc kimlik", "t.c. kimlik", "tc kimlik no", "kimlik no", "kimlik numarası", "kimlik numarasi", "tckn",
         "TC", "T.C.", "turkish id"),
        _std(tr_tckn), ("[1-9]########CC",), languages=("tr",), examples=("17291716060",),
    ),
    identifier(
        "CZ_SK_BIRTH_NUMBER", "Czech or Slovak birth number (rodné číslo)", "CZ",
        (P(r"\d{6}/\d{3,4}", 0.6), P(r"\d{10}", 0.0)),
        ("rodné číslo", "rodne cislo", "rodného čísla", "rodneho cisla", "rodným číslem", "birth number", "RČ"),
        _std(cz_rc), ("{YYMMDD}###C",), languages=("cs", "sk"), examples=("7103192745",),
    ),
    identifier(
        "LT_PERSONAL_CODE", "Lithuanian personal code (asmens kodas)", "LT",
        (P(r"[3-6]\d{10}", 0.55),),
        ("asmens kodas", "asmens kodą", "asmens kodo", "a. k.", "a.k.", "personal code"),
        # a valid date and check digit: eleven digits that pass are one, cue or not (as PESEL)
        _std(lt_asmens), ("[34]{YYMMDD}###C",), languages=("lt",), examples=("38703181745",),
    ),
    identifier(
        "EE_PERSONAL_CODE", "Estonian personal identification code (isikukood)", "EE",
        (P(r"[3-6]\d{10}", 0.55),),
        ("isikukood", "isikukoodi", "personal code", "personal identification code"),
        _std(ee_ik), ("[34]{YYMMDD}###C",), languages=("et",), examples=("37605030299",),
    ),
    identifier(
        "RO_CNP", "Romanian personal numeric code (CNP)", "RO",
        (P(r"[1-8]\d{12}", 0.55),),
        ("cnp", "CNP", "cod numeric personal", "codul numeric personal"),
        _std(ro_cnp), ("[12]{YYMMDD}[0-3][1-9]###C",), languages=("ro",), examples=("1630615123457",),
    ),
    identifier(
        "BG_EGN", "Bulgarian uniform civil number (EGN)", "BG",
        (P(r"\d{10}", 0.0),),
        ("ЕГН", "егн", "EGN", "egn", "единен граждански номер", "uniform civil number"),
        _std(bg_egn), ("{YYMMDD}###C",), languages=("bg",), examples=("7523169263",),
    ),
    identifier(
        "HR_OIB", "Croatian personal identification number (OIB)", "HR",
        (P(r"\d{11}", 0.0),),
        ("OIB", "oib", "osobni identifikacijski broj"),
        _std(hr_oib), ("[1-9]#########C",), languages=("hr",), examples=("94577403194",),
    ),
    # -- Western Europe ----------------------------------------------------------------
    identifier(
        "NL_BSN", "Dutch citizen service number (BSN)", "NL",
        (P(r"\d{4}\.\d{2}\.\d{3}", 0.6), P(r"\d{9}", 0.0)),
        ("bsn", "burgerservicenummer", "sofinummer", "sofi-nummer", "citizen service number"),
        _std(nl_bsn), ("[1-6]#######C",), languages=("nl",), examples=("111222333",),
    ),
    identifier(
        "BE_NATIONAL_NUMBER", "Belgian national register number", "BE",
        (P(r"\d{2}\.\d{2}\.\d{2}-\d{3}\.\d{2}", 0.9), P(r"\d{2} ?\d{2} ?\d{2} ?\d{3} ?\d{2}", 0.4)),
        ("rijksregisternummer", "numéro national", "numero national", "registre national", "national register number",
         "NN", "insz"),
        _std(be_nn), ("{YYMMDD}###CC",), languages=("nl", "fr"), examples=("85.07.30-033.28",),
    ),
    identifier(
        "FR_NIR", "French social security number (NIR)", "FR",
        (P(r"[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}", 0.85),),
        ("nir", "numéro de sécurité sociale", "numero de securite sociale", "sécurité sociale", "securite sociale",
         "sécu", "insee", "carte vitale", "social security number"),
        _std(fr_nir), ("[12]{YYMM}[0-8][1-9]######CC",), family="health_id", languages=("fr",),
        examples=("2 95 10 99 126 111 93",),
    ),
    identifier(
        "IE_PPS", "Irish PPS number", "IE",
        (P(r"\d{7}[A-W][ABHTW]?", 0.7),),
        ("pps", "ppsn", "pps number", "personal public service number"),
        _std(ie_pps), ("#######C", "#######C="), languages=("ga",), examples=("6433435F",),
    ),
    identifier(
        "CH_AHV", "Swiss social security number (AHV/AVS)", "CH",
        (P(r"756\.\d{4}\.\d{4}\.\d{2}", 0.95), P(r"756\d{10}", 0.7)),
        ("ahv", "avs", "ahv-nummer", "ahv nummer", "numéro avs", "sozialversicherungsnummer", "social security number"),
        _std(ch_ssn), ("===#########C",), languages=("de", "fr", "it"), examples=("756.9217.0769.85",),
    ),
    # -- Asia -------------------------------------------------------------------------
    identifier(
        "KR_RRN", "South Korean resident registration number", "KR",
        (P(r"\d{6}-\d{7}", 0.9), P(r"\d{13}", 0.4)),
        ("rrn", "resident registration number", "resident registration", "주민등록번호", "주민번호"),
        _std(kr_rrn), ("{YYMMDD}[12]#####C",), languages=("ko",), examples=("971013-9019902",),
    ),
    identifier(
        "IN_AADHAAR", "Indian Aadhaar number", "IN",
        (P(r"[2-9]\d{3} \d{4} \d{4}", 0.75), P(r"[2-9]\d{3}-\d{4}-\d{4}", 0.6), P(r"[2-9]\d{11}", 0.4)),
        ("aadhaar", "aadhar", "adhaar", "uidai", "uid", "आधार"),
        _std(in_aadhaar), ("[2-9]##########C",), languages=("hi",), examples=("234123412346",),
    ),
    identifier(
        "IN_PAN", "Indian PAN (permanent account number)", "IN",
        (P(r"[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z]", 0.85),),
        ("PAN", "pan number", "pan card", "pan no", "permanent account number", "income tax"),
        _std(in_pan), ("AAA=A####A",), family="tax_id", languages=("hi",), examples=("ACUPA7085R",),
    ),
    identifier(
        "SG_NRIC", "Singapore NRIC / FIN", "SG",
        (P(r"[STFGM]\d{7}[A-Z]", 0.85),),
        ("nric", "nric no", "FIN", "ic number", "identity card", "i/c"),
        sg_nric_valid, ("=#######C",), examples=("S1234567D",),
    ),
    identifier(
        "JP_MY_NUMBER", "Japanese individual number (My Number)", "JP",
        (P(r"\d{4} \d{4} \d{4}", 0.45), P(r"\d{12}", 0.0)),
        ("my number", "individual number", "マイナンバー", "個人番号"),
        _std(jp_in), ("###########C",), languages=("ja",), examples=("6214 9832 0257",),
    ),
    identifier(
        "CN_RIC", "Chinese resident identity card number", "CN",
        (P(r"\d{17}[\dX]", 0.8),),
        ("身份证", "身份证号", "身份证号码", "resident identity card", "id card number", "citizen id"),
        _std(cn_ric), ("######{YYYYMMDD}###C",), languages=("zh",), examples=("360426199101010071",),
        generate=lambda request: cn_ric_stand_in(request.rng, request.real, _std(cn_ric)),
    ),
    identifier(
        "IL_ID", "Israeli identity number (Teudat Zehut)", "IL",
        (P(r"\d{8}-\d", 0.5), P(r"\d{9}", 0.0)),
        ("teudat zehut", "mispar zehut", "תעודת זהות", "israeli id", "ת.ז"),
        _std(il_idnr), ("########C",), languages=("he",), examples=("039337423",),
    ),
    # -- Oceania, Americas, Africa ------------------------------------------------------
    identifier(
        "AU_TFN", "Australian tax file number", "AU",
        (P(r"\d{3} \d{3} \d{2,3}", 0.5), P(r"\d{8,9}", 0.0)),
        ("tfn", "tax file number", "tax file no"),
        _std(au_tfn), ("#######C", "########C"), family="tax_id", examples=("123 456 782",),
    ),
    identifier(
        "AU_MEDICARE", "Australian Medicare card number", "AU",
        # Written as on the card (4-5-1 digits) and with its check digit, a distinctive
        # number; ten bare digits need a cue word.
        (P(r"[2-6]\d{3} \d{5} \d(?:[ /-]?\d)?", 0.6), P(r"[2-6]\d{9,10}", 0.0)),
        ("medicare", "medicare number", "medicare card", "medicare no"),
        au_medicare_valid, ("[2-6]#######C#", "[2-6]#######C##"),
        family="health_id", examples=("2123 45670 1",),
    ),
    identifier(
        "CA_SIN", "Canadian social insurance number", "CA",
        (P(r"\d{3}-\d{3}-\d{3}", 0.5), P(r"\d{3} \d{3} \d{3}", 0.5), P(r"\d{9}", 0.0)),
        ("SIN", "social insurance number", "social insurance", "NAS", "numéro d'assurance sociale",
         "assurance sociale"),
        _std(ca_sin), ("[1-7]#######C",), languages=("fr",), examples=("123-456-782",),
    ),
    identifier(
        "BR_CPF", "Brazilian CPF number", "BR",
        (P(r"\d{3}\.\d{3}\.\d{3}-\d{2}", 0.95), P(r"\d{11}", 0.0)),
        ("cpf", "cadastro de pessoas físicas", "cadastro de pessoas fisicas", "CPF"),
        _std(br_cpf), ("#########CC",), family="tax_id", languages=("pt",), examples=("390.533.447-05",),
    ),
    identifier(
        "MX_CURP", "Mexican CURP", "MX",
        (P(r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[0-9A-Z]\d", 0.95),),
        ("curp", "clave única de registro de población", "clave unica de registro de poblacion"),
        _std(mx_curp), ("AAAA{YYMMDD}[HM]==AAA#C",), languages=("es",), examples=("BOXW310820HNERXN09",),
    ),
    identifier(
        "ZA_ID", "South African identity number", "ZA",
        (P(r"\d{6} ?\d{4} ?\d{2} ?\d", 0.7),),
        ("rsa id", "sa id", "south african id", "id number", "identity number", "identiteitsnommer", "RSA ID"),
        _std(za_idnr), ("{YYMMDD}####[01][89]C",), examples=("7503305044089",),
    ),
    # -- crypto wallets ---------------------------------------------------------------
    identifier(
        "BTC_ADDRESS", "Bitcoin address", "",
        (P(BITCOIN_BASE58, 0.9), P(BITCOIN_BECH32, 0.95)),
        ("bitcoin", "btc", "wallet", "wallet address", "send to", "address"),
        bitcoin_valid, (), family="crypto", noun=("wallet address", "wallet addresses"), hue=45, risk=4,
        generate=lambda request: bitcoin_stand_in(request.rng, request.real),
        lengths=(*range(26, 36), 42, 62), examples=("1BoatSLRHtKNngkdXEeobR76b53LETtpyT",),
    ),
    identifier(
        "ETH_ADDRESS", "Ethereum address", "",
        (P(ETHEREUM, 0.9),),
        ("ethereum", "eth", "wallet", "wallet address", "metamask", "address"),
        ethereum_valid, (), family="crypto", noun=("wallet address", "wallet addresses"), hue=45, risk=4,
        generate=lambda request: ethereum_stand_in(request.rng, request.real),
        lengths=(42,), examples=("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",),
    ),
    # -- payment ----------------------------------------------------------------------
    identifier(
        "IBAN", "IBAN (international bank account number)", "",
        (P(r"[A-Z]{2}\d{2}(?:[ \-]?[A-Z0-9]{4}){2,7}(?:[ \-]?[A-Z0-9]{1,4})?", 0.95),),
        ("iban", "bank account", "account number", "kontonummer", "número de cuenta", "conto", "rib", "IBAN"),
        _std(iban), (), label=Label.IBAN, family="bank", noun=("IBAN", "IBANs"), hue=345,
        generate=lambda request: iban_stand_in(request.rng, request.real),
        lengths=tuple(range(15, 35)), examples=("GB82 WEST 1234 5698 7654 32",),
    ),
    identifier(
        "CREDIT_CARD", "payment card number", "",
        (
            P(r"\d{4}([ .\-]?)\d{4}\1\d{4}\1\d{4}(?:\1?\d{1,3})?", 0.95),
            P(r"3[47]\d{2}([ .\-]?)\d{6}\1\d{5}", 0.95),
            P(r"3\d{3}([ .\-]?)\d{6}\1\d{4}", 0.95),
            P(r"\d{12,19}", 0.9),
        ),
        ("card", "credit card", "debit card", "card number", "card no", "visa", "mastercard", "amex", "cc", "payment",
         "billing", "cvv", "expiry", "karte", "kreditkarte", "tarjeta", "carte", "carta", "cartão"),
        _card, (), label=Label.CREDIT_CARD, family="card", noun=("card number", "card numbers"), hue=350,
        generate=lambda request: card_stand_in(request.rng, request.real),
        lengths=tuple(range(12, 20)), examples=("4111 1111 1111 1111",),
    ),
)


_BY_KEY = {t.key: t for t in ID_TYPES}


def table_type_of(span) -> EntityType | None:
    """The row of the type table a span was found as ("ids:ES_DNI"), if any."""
    detector = getattr(span, "detector", "")
    if not detector.startswith("ids:"):
        return None
    return _BY_KEY.get(detector[4:])
