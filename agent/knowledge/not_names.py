"""Words that look like a name but are not one: month and day names, the capitalised
words that open a line or follow a cue ("Dear Team", "Thanks, Everyone"), labels at the
start of a line ("Note:", "Answer:"), and the acronyms and short words that NER likes to
take for an organisation ("the API", "our HR"). Detection reads them from here.
"""

from __future__ import annotations

from agent.knowledge.person_words import TITLES

CALENDAR_WORDS = frozenset(
    {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
     "November", "December", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
)
# Capitalised words (as written) that are never a name where a cue expects one
# ("Dear Team", "my Manager", "Hi Everyone"); titles are not names either.
NOT_NAMES = frozenset(CALENDAR_WORDS | set(TITLES) | {
    "I", "We", "You", "The", "This", "That", "There", "It", "All", "Everyone", "Team", "Sir", "Madam",
    "GPT", "ChatGPT", "AI", "Assistant", "Regards", "Thanks", "Thank", "Please", "Hope", "Good", "Best",
    "Kind", "Warm", "Dear", "Hello", "Hi", "Hey", "Yes", "No", "Ok", "Okay", "Customer", "Hiring",
    "Manager", "Support", "Sales", "User", "Admin", "Friend", "Friends", "Colleagues", "Folks"}
)
# Words (casefolded) that label a line ("Note: ...", "Q: ...") rather than name its speaker.
LINE_LABELS = frozenset(
    [
        "note", "notes", "question", "answer", "q", "a", "subject", "date", "time", "title",
        "summary", "description", "example", "input", "output", "step", "tip", "warning", "error",
        "result", "response", "prompt", "context", "task", "goal", "instructions", "requirements",
        "update", "edit", "ps", "source", "topic", "name", "email", "phone", "address", "customer",
        "agent", "user", "assistant", "system", "human", "ai", "bot", "me", "you", "narrator",
        "host", "interviewer", "speaker", "teacher", "student", "doctor", "patient", "client",
        "manager", "boss", "mom", "dad", "scene", "chapter", "part", "section", "act", "day",
        "week", "option", "options", "solution", "problem", "hint", "explanation", "reason",
        "conclusion", "introduction", "background", "objective", "objectives", "purpose", "scope",
        "status", "priority", "category", "type", "format", "language", "tone", "style", "audience",
        "length", "rules", "rule", "constraints", "important", "caution", "info", "information",
        "details", "location", "venue", "price", "cost", "total", "subtotal", "tax", "url", "link",
        "website", "mobile", "fax", "tel", "cell", "monday", "tuesday", "wednesday", "thursday",
        "friday", "saturday", "sunday", "verse", "chorus", "bridge", "intro", "outro", "hook",
        "pros", "cons", "advantages", "disadvantages", "features", "benefits", "query", "reply",
        "feedback", "comment", "comments", "review", "job", "role", "position", "company",
        "department", "team", "project", "version", "model", "code", "usage", "returns", "raises",
        "args", "parameters", "params", "example1", "keywords", "tags", "genre", "setting", "plot",
        "theme", "characters", "character", "cast"
    ]
)
# How a form's field label ends in other European languages (casefolded word endings, so
# compounds count: "Lieferadresse", "Rechnungsanschrift"): "Meine Adresse:", "Adresse de
# livraison:" are labels, not people. Written from the languages' vocabulary.
FOREIGN_FIELD_ENDINGS = (
    "adresse", "adress", "adres", "adresa", "anschrift", "dirección", "direccion", "indirizzo", "endereço",
    "endereco", "morada", "domicilio", "osoite", "wohnort", "telefon", "telefonnummer", "téléphone", "teléfono",
    "telefono", "handynummer", "geburtsdatum", "livraison", "facturation", "lieferung", "rechnung", "envío",
    "spedizione", "consegna", "entrega", "empfänger", "destinataire", "destinatario", "absender", "expéditeur",
    "remitente", "mittente",
)


def is_field_label(value: str) -> bool:
    """A run of words that labels a form field in another language ("Lieferadresse")."""
    return any(word.casefold().endswith(FOREIGN_FIELD_ENDINGS) for word in value.split())


# Acronyms of the trade and short words (casefolded) that NER calls an organisation or a
# person but that are common nouns: "the API", "our HR", "Dr", "Inc".
NOT_ENTITIES = frozenset(
    [
        "iban", "ssn", "api", "url", "uri", "pdf", "ceo", "cto", "cfo", "coo", "cmo", "vp", "svp",
        "evp", "hr", "it", "ai", "ml", "dl", "rl", "nlp", "ner", "faq", "id", "uuid", "guid", "ip",
        "vpn", "dob", "gpt", "llm", "rag", "sql", "nosql", "html", "css", "json", "xml", "yaml",
        "toml", "csv", "tsv", "seo", "sem", "ppc", "cta", "kpi", "okr", "roi", "b2b", "b2c", "saas",
        "paas", "iaas", "usb", "cpu", "gpu", "tpu", "ram", "rom", "ssd", "hdd", "os", "ios", "ui",
        "ux", "qa", "pm", "am", "dm", "dms", "sms", "mms", "otp", "pin", "atm", "eta", "asap",
        "fyi", "diy", "aka", "etc", "rsvp", "nb", "ps", "tbd", "tba", "nda", "gdpr", "hipaa",
        "ccpa", "crm", "erp", "cv", "pr", "mba", "phd", "bsc", "msc", "md", "cpa", "tv", "dvd",
        "mp3", "mp4", "wav", "png", "jpg", "jpeg", "gif", "svg", "docx", "xlsx", "pptx", "sdk",
        "ide", "cli", "gui", "http", "https", "dns", "ssh", "ftp", "sftp", "smtp", "imap", "tcp",
        "udp", "lan", "wan", "wifi", "ok", "lol", "omg", "btw", "imo", "imho", "tbh", "idk", "irl",
        "rip", "afk", "nsfw", "todo", "fixme", "readme", "jwt", "oauth", "sso", "mfa", "php", "jsx",
        "tsx", "npm", "aws", "gcp", "oop", "mvc", "mvvm", "tdd", "bdd", "ci", "cd", "devops", "cnn",
        "rnn", "lstm", "gan", "vae", "bert", "est", "pst", "gmt", "utc", "cet", "usd", "eur", "gbp",
        "jpy", "inr", "cad", "aud", "cny", "vat", "gst", "llc", "inc", "ltd", "gmbh", "plc", "dr",
        "mr", "mrs", "ms", "prof", "jr", "sr", "the", "and", "for", "you", "not", "but", "all",
        "any", "can", "her", "was", "one", "our", "out", "day", "get", "has", "him", "his", "how",
        "man", "new", "now", "old", "see", "two", "way", "who", "boy", "did", "its", "let", "put",
        "say", "she", "too", "use", "yes", "no", "abc", "xyz", "tldr", "fwiw", "pov", "vm", "db",
        "ssl", "tls", "pgp", "gpg", "cms", "cdn"
    ]
)
