"""Credentials in configuration and code: any key whose name means a secret, in the
syntaxes people paste (key=value, .env, shell `export`, JSON, YAML, INI, TOML, Python and
JS literals, connection strings, HTTP headers, URLs with user:password).

The key name is split into its words (DB_PASSWORD, dbPassword, db.password, PGPASSWORD)
and is a secret when one of them is a secret word and none of the words after it turns it
into a setting about secrets (password_min_length, token_url, max_tokens). The value is
the secret; the key stays as written.
"""

from __future__ import annotations

import re

from agent.detect.base import DetectionContext
from agent.entities import Label, Span

# Words that make a key a secret, as whole words of the key or glued to its end
# ("PGPASSWORD", "mysqlpass").
_SECRET_WORDS = (
    "password", "passwd", "passwort", "pwd", "pass", "passphrase", "passcode", "secret", "token",
    "apikey", "credential", "credentials", "privatekey", "pin", "otp", "salt", "signature", "sig",
    "contraseña", "contrasena", "mot_de_passe", "motdepasse", "senha", "wachtwoord", "hasło", "haslo",
)
# Pairs of key words that mean a secret together ("api key", "access key", "auth key").
_SECRET_PAIRS = {("api", "key"), ("access", "key"), ("auth", "key"), ("private", "key"), ("secret", "key"),
                 ("signing", "key"), ("encryption", "key"), ("session", "key"), ("master", "key"),
                 ("client", "secret"), ("account", "key"), ("shared", "key"), ("app", "key"), ("license", "key")}
# Words after the secret word that make the key a setting, not the secret itself.
_SETTING_WORDS = frozenset({
    "length", "len", "min", "max", "policy", "url", "uri", "endpoint", "file", "path", "dir", "type", "name", "env",
    "hint", "field", "reset", "prompt", "regex", "pattern", "required", "expiry", "expires", "expiration", "ttl",
    "timeout", "count", "limit", "mode", "enabled", "disabled", "rotation", "strength", "label", "id", "header",
    "prefix", "format", "algorithm", "version", "size", "ref", "arn", "store", "manager", "provider", "source",
    "location", "changed", "updated", "at", "method", "kind", "placeholder", "validator", "hash", "hashed", "hasher",
    "confirm", "confirmation", "valid", "validation", "error", "errors", "message", "help", "text", "input",
    "widget", "form", "class", "s", "list", "usage", "budget", "ids", "index", "stream",
})
_NOT_SECRET_KEYS = frozenset({"bypass", "compass", "passport", "passenger", "passive", "tokens", "tokenizer",
                              "pass_through", "passthrough", "surpass", "pin_memory", "spinner", "pinned"})

_KEY = r"[A-Za-z_][A-Za-z0-9_.\-]{0,60}"
# One assignment: optional `export`/`set`/`$env:`, the key (quoted or not), the operator,
# then the value (quoted or up to the end of the token).
_ASSIGN = re.compile(
    rf"""(?P<lead>(?:\bexport\s+|\bset\s+|\$env:|\bENV\s+|\bARG\s+|--)?)
         (?P<kq>["']?)(?P<k>{_KEY})(?P=kq)
         (?P<op>[ \t]*(?::=|=>|=|:)[ \t]*|[ \t]+(?=["'])|[ \t]+(?:is|was|reads)[ \t]+(?:now[ \t]+)?)
         (?:(?P<q>["'`])(?P<qv>[^"'`\n]{{1,300}})(?P=q)|(?P<v>(?:[^\s"'`,;&<>()\[\]{{}}]|&(?![\w.\-]+=)){{1,300}}))""",
    re.VERBOSE,
)
_HEADER = re.compile(
    r"(?im)^\s*(?:authorization|proxy-authorization)\s*:\s*(?:basic|bearer|token|digest|apikey)\s+(?P<v>[^\s\"']{4,})"
    r"|^\s*(?:x-api-key|api-key|x-auth-token|x-access-token|private-token|x-vault-token)\s*:\s*(?P<v2>[^\s\"']{4,})"
)
# scheme://user:password@host (also mongodb+srv://, redis://:password@host)
_URL_CREDENTIALS = re.compile(r"\b[a-z][a-z0-9+.\-]*://(?P<u>[^\s:/@]*):(?P<v>[^\s@/]{1,200})@[\w.\-\[\]]")
_PLACEHOLDER = re.compile(
    r"""^(?:\$\{?[\w.\-:]+\}?|\{\{.*\}\}|<[^>]*>|%\(?\w*\)?s?|\*+|x{3,}|\.{3}|…|\#+|_+|-+|\?+|null|none|nil|true|false|yes|no|
         undefined|changeme|change_me|your[_\-\w]*|my[_\-]?password|example|redacted|secret|password|passwd|token|
         placeholder|xxx\w*|todo|tbd|n/?a|empty|required|optional|string|str|text|env|\d{1,2})$""",
    re.IGNORECASE | re.VERBOSE,
)
# key=value in a query string or form body: the key after "?", "&", a quote or a space.
# Found from each "=" (few in a text) rather than tried at every word.
_PAIR_KEY = re.compile(r"""(?<=[?&"'\s])[A-Za-z_][A-Za-z0-9_.\-]{0,40}$""")
_PAIR_VALUE = re.compile(r"""[^\s&"'#<>()\[\]{},;=]{3,300}""")


def _query_pairs(text: str):
    """(key, value start, value) of each key=value pair."""
    eq = text.find("=")
    while eq != -1:
        key = _PAIR_KEY.search(text, max(0, eq - 41), eq)
        value = _PAIR_VALUE.match(text, eq + 1) if key else None
        if key and value:
            yield key.group(), eq + 1, value.group()
        eq = text.find("=", eq + 1)
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def key_words(key: str) -> list[str]:
    """DB_PASSWORD -> [db, password]; dbPassword -> [db, password]; db.password -> [db, password]."""
    words = []
    for part in re.split(r"[_.\-\s]+", key):
        words.extend(w.lower() for w in _CAMEL.findall(part))
    return words


def is_secret_key(key: str) -> bool:
    folded = key.lower()
    if folded in _NOT_SECRET_KEYS or folded.strip("_-.") in _NOT_SECRET_KEYS:
        return False
    words = key_words(key)
    if not words:
        return False
    hit = -1
    for i, word in enumerate(words):
        if word in _SECRET_WORDS or (i > 0 and (words[i - 1], word) in _SECRET_PAIRS):
            hit = i
        elif word not in _NOT_SECRET_KEYS and any(word.endswith(s) and len(word) > len(s) + 1 for s in ("password", "passwd", "secret", "token", "apikey")):
            hit = i  # PGPASSWORD, mysqlpassword, ghtoken
    if hit < 0:
        return False
    if words[hit] == "token" and hit > 0 and words[hit - 1] in ("max", "num", "total", "min", "bos", "eos", "pad", "unk", "sep", "cls", "mask"):
        return False  # max_token, eos_token: language-model settings
    if words[hit] in ("pin", "sig", "signature", "salt", "otp", "pass") and len(words) > 1 and hit != len(words) - 1:
        return False
    return not any(w in _SETTING_WORDS for w in words[hit + 1 :])


def _code_reference(value: str, op: str, quoted: bool) -> bool:
    """An unquoted value that is code, not a secret: `password = form.password`,
    `token = get_token()`, `pwd = new_pwd`, `secret: !Ref MySecret`."""
    if quoted:
        return False
    if value.startswith(("!", "&", "*", "@", "$", "%", "os.", "process.", "env.", "self.", "this.", "config.", "settings.")):
        return True
    spaced_assignment = op.strip() in ("=", ":=", "=>") and op != op.strip()
    identifier = re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*", value) is not None
    return bool(identifier and ("." in value or spaced_assignment and "_" in value))


def is_code_value(value: str, text: str, end: int, quoted: bool, key: str = "") -> bool:
    """An unquoted value that code puts where a secret would go: a type (`secret: str`,
    `token: bytes | None`), a builtin, a call or attribute (`super().x`, `os.environ[...]`),
    or the variable of the same name (`secret=secret`)."""
    from agent.detect.code_zones import CODE_NAMES

    if quoted:
        return False
    if value in CODE_NAMES or value.casefold() == key.casefold() or value.casefold() in _SECRET_WORDS:
        return True
    if re.fullmatch(r"[A-Za-z_][\w.]*[(\[].*", value):
        return True  # get_password(realm, getpass.getpass(prompt, Required[str]
    follows = text[end : end + 3]
    return follows[:1] in ("(", "[", ".") and follows[1:2] not in ("", " ", "\n") or follows.startswith(" |")


# Key words of the OAuth and sign-in exchanges whose values are one-time or client
# credentials ("client_id=...", "code=..." in a token request): a secret when the value is
# a long random-looking string, not when it is a name or a short number.
_GRANT_KEY_WORDS = frozenset({"client", "code", "oauth", "nonce", "verifier", "challenge", "grant", "auth"})


def _opaque_grant(key: str, value: str) -> bool:
    value = value.strip()
    if len(value) < 16 or not _GRANT_KEY_WORDS.intersection(key_words(key)):
        return False  # (the length first: most values are short, and it is cheaper)
    return (
        re.fullmatch(r"[\w.~+/=\-]+", value) is not None
        and sum(c.isdigit() for c in value) >= 4
        and sum(c.isalpha() for c in value) >= 4
        and not re.fullmatch(r"[a-z_]+(?:[.\-][a-z_]+)*\d*", value)  # a dotted name, a word with a version
    )


def _looks_made_up(value: str) -> bool:
    """A password or key, not an English word: digits, symbols or mixed case in it."""
    has_digit = any(c.isdigit() for c in value)
    has_symbol = any(not c.isalnum() for c in value)
    mixed = any(c.isupper() for c in value[1:]) and any(c.islower() for c in value)
    return has_digit or has_symbol or mixed


class ConfigSecretDetector:
    name = "secrets"
    labels = frozenset({Label.SECRET})

    def detect(self, text: str, context: DetectionContext | None = None) -> list[Span]:
        if not any(ch in text for ch in "=:@") and not any(w in text for w in (" is ", " was ", " reads ")):
            return []
        spans: list[Span] = []
        for match in _ASSIGN.finditer(text):
            quoted = match.group("qv") is not None
            value = match.group("qv") if quoted else match.group("v")
            if not is_secret_key(match.group("k")) and not _opaque_grant(match.group("k"), value):
                continue
            start = match.start("qv") if quoted else match.start("v")
            if not quoted and value[-1] in ".:" and (match.end() == len(text) or text[match.end()].isspace()):
                value = value[:-1]  # the full stop of a sentence in prose, not the secret's
            if self._not_a_secret(value) or _code_reference(value, match.group("op"), quoted):
                continue
            if is_code_value(value, text, start + len(value), quoted, match.group("k")):
                continue
            if match.group("op").strip().isalpha() and not quoted and not _looks_made_up(value):
                continue  # prose: "the token is valid for an hour"
            spans.append(Span(start, start + len(value), Label.SECRET, value, 0.97, f"{self.name}:config"))
        if "=" in text:
            # Pairs inside a quoted form body or a URL ("-d 'code=...'", "?client_id=...&"),
            # which the assignment scan above reads as one quoted value.
            taken = {s.start for s in spans}
            for key, start, value in _query_pairs(text):
                if start in taken or self._not_a_secret(value) or _code_reference(value, "=", False):
                    continue
                if is_code_value(value, text, start + len(value), False, key):
                    continue  # verify(secret=secret): a keyword argument in code
                if is_secret_key(key) or _opaque_grant(key, value):
                    spans.append(Span(start, start + len(value), Label.SECRET, value, 0.95, f"{self.name}:config"))
        for pattern in (_HEADER, _URL_CREDENTIALS):
            for match in pattern.finditer(text):
                group = next(g for g in ("v", "v2") if g in pattern.groupindex and match.group(g))
                value = match.group(group).strip()
                if self._not_a_secret(value):
                    continue
                start = match.start(group)
                spans.append(Span(start, start + len(value), Label.SECRET, value, 0.97, f"{self.name}:config"))
        return spans

    @staticmethod
    def _not_a_secret(value: str) -> bool:
        # A value that is itself the name of a secret ("X-API-Key" as a header name) is not
        # one, nor a colour of a theme ("Token: '#dcdccc'" in a syntax-highlighting style).
        if re.fullmatch(r"#[0-9A-Fa-f]{3,8}", value):
            return True
        return len(value) < 3 or _PLACEHOLDER.match(value) is not None or (
            re.fullmatch(r"[A-Za-z][A-Za-z_\-]*", value) is not None and is_secret_key(value))
