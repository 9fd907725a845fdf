"""A generated leak set (issue 16 item 2): secrets in configuration and code text, and
contacts written to dodge scrapers. Each item is one text and the value that must not
be in what is sent."""

from __future__ import annotations

import random
from dataclasses import dataclass

from stdnum import luhn


@dataclass(frozen=True)
class LeakItem:
    text: str
    value: str
    kind: str


_KEYS = (
    "password", "DB_PASSWORD", "PGPASSWORD", "MYSQL_ROOT_PASSWORD", "db_pass", "dbPassword", "smtp_password",
    "api_key", "apiKey", "X_API_KEY", "SECRET_KEY", "client_secret", "auth_token", "GITHUB_TOKEN", "REDIS_PASS",
    "spring.datasource.password", "stripeSecret", "access_key", "jwt_secret", "ADMIN_PWD", "passwd", "privateKey",
)
_FORMS = (
    ("env", "{k}={v}"), ("export", "export {k}={v}"), ("json", '{{"{k}": "{v}"}}'), ("yaml", "{k}: {v}"),
    ("yaml_quoted", "{k}: '{v}'"), ("ini", "{k} = {v}"), ("python", '{k} = "{v}"'), ("js", "const cfg = {{ {k}: '{v}' }};"),
    ("toml", '{k} = "{v}"'), ("docker", "docker run -e {k}={v} app:latest"), ("compose", "      - {k}={v}"),
    ("prose", "the {k} is {v}"),
)
_ALPHABET = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def _secret(rng: random.Random) -> str:
    style = rng.randrange(5)
    if style == 0:
        return rng.choice(("hunter", "dragon", "sunshine", "falcon", "orchid")) + str(rng.randint(2, 9999))
    if style == 1:
        return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(12, 40)))
    if style == 2:
        return "".join(rng.choice("0123456789abcdef") for _ in range(32))
    if style == 3:
        return "-".join(rng.choice(("correct", "horse", "battery", "staple", "violet", "canyon")) for _ in range(3)) + "!"
    return rng.choice("ABCDEFGH") + "".join(rng.choice(_ALPHABET) for _ in range(8)) + rng.choice("!#%&*") + str(rng.randint(10, 99))


_FIRST = ("john", "maria", "li", "fatima", "sven", "ana", "omar", "keiko")
_LAST = ("baker", "santos", "wei", "haddad", "berg", "costa", "farouk", "sato")
_PROVIDERS = ("gmail", "outlook", "yahoo", "proton", "uni-bonn")
_TLDS = ("com", "org", "de", "net")


def _obfuscated(rng: random.Random) -> tuple[str, str, str]:
    first, last = rng.choice(_FIRST), rng.choice(_LAST)
    provider, tld = rng.choice(_PROVIDERS), rng.choice(_TLDS)
    style = rng.randrange(6)
    if style == 0:
        value = f"{first}[at]{provider}[dot]{tld}"
    elif style == 1:
        value = f"{first}.{last} (at) {provider} (dot) {tld}"
    elif style == 2:
        value = f"{first} dot {last} at {provider} dot {tld}"
    elif style == 3:
        value = " ".join(f"{first}@{provider}.{tld}")
    elif style == 4:
        value = f"{first}{rng.randint(1, 99)} AT {provider.upper()} DOT {tld.upper()}"
    else:
        value = f"{first}@{provider}[.]{tld}"
    template = rng.choice(("Write to me at {v} if anything breaks.", "contact: {v}", "Reach {v} for access."))
    return template.format(v=value), value, "obfuscated_email"


def leak_items(count: int = 360, seed: int = 21) -> list[LeakItem]:
    rng = random.Random(seed)
    items: list[LeakItem] = []
    while len(items) < count:
        roll = rng.random()
        if roll < 0.6:
            key = rng.choice(_KEYS)
            form, template = rng.choice(_FORMS)
            value = _secret(rng)
            items.append(LeakItem(template.format(k=key, v=value), value, f"config_{form}"))
        elif roll < 0.7:
            user, value = rng.choice(("app", "admin", "svc")), _secret(rng).replace("@", "")
            scheme = rng.choice(("postgres", "mysql", "mongodb+srv", "redis", "amqp"))
            items.append(LeakItem(f'DATABASE_URL="{scheme}://{user}:{value}@db.internal:5432/main"', value, "url_credentials"))
        elif roll < 0.9:
            items.append(LeakItem(*_obfuscated(rng)))
        else:
            body = "4" + "".join(rng.choice("0123456789") for _ in range(14))
            number = body + luhn.calc_check_digit(body)
            sep = rng.choice((".", " ", "-", ""))
            value = sep.join(number[i : i + 4] for i in range(0, 16, 4))
            items.append(LeakItem(f"card {value} exp 09/29", value, "card_any_separator"))
    return items
