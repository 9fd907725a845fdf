"""Words of organisation names that say what kind of organisation it is, not which one:
legal forms ("GmbH") and generic words ("Police Department"). A stand-in keeps them;
a name made only of them ("the Union", "the Court") is not an entity."""

from __future__ import annotations

LEGAL_SUFFIXES = frozenset(
    s.casefold()
    for s in (
        "Inc", "Inc.", "LLC", "L.L.C.", "Ltd", "Ltd.", "Limited", "GmbH", "AG", "SA", "S.A.", "Corp",
        "Corp.", "Corporation", "Co", "Co.", "Company", "PLC", "LLP", "LP", "BV", "B.V.", "NV", "N.V.",
        "Oy", "AB", "AS", "A/S", "ApS", "Pty", "SE", "S.p.A.", "SpA", "S.r.l.", "Srl", "SARL", "SAS",
        "KG", "KGaA", "e.V.", "Sp.", "z", "o.o.", "&", "and", "Sons", "Holdings", "Group",
    )
)
GENERIC_ORG_WORDS = frozenset(
    w.casefold()
    for w in (
        "of", "the", "for", "and", "&", "St", "St.", "Saint", "Ste", "Ste.", "Mount", "Mt", "Mt.", "de", "la", "du", "der", "die", "und", "a", "an", "in", "at", "on",
        "Bank", "University", "College", "School", "Academy", "Institute", "Hospital", "Clinic", "Medical",
        "Center", "Centre", "Police", "Department", "Dept", "Ministry", "Council", "Services", "Service",
        "Solutions", "Systems", "Technologies", "Technology", "Tech", "Labs", "Lab", "Consulting",
        "Foundation", "Association", "Society", "Club", "Church", "Museum", "Agency", "Media", "Studio",
        "Studios", "Capital", "Ventures", "Partners", "Industries", "International", "Global", "Health",
        "Healthcare", "Insurance", "Energy", "Motors", "Airlines", "Airways", "Pharmaceuticals", "Pharma",
        "Logistics", "Software", "Digital", "Network", "Networks", "Records", "Publishing", "Press",
        "Restaurant", "Cafe", "Café", "Hotel", "Hotels", "Store", "Stores", "Market", "Office", "Court",
        "Committee", "Commission", "Union", "Federation", "League", "Team", "Orchestra", "Band", "Business",
        "Financial", "Finance", "Trust", "Fund", "Realty", "Properties", "Construction", "Engineering",
        "Design", "Marketing", "Communications", "Telecom", "Electric", "Foods", "Food", "Brewing",
        "Coffee", "Bakery", "Pizza", "Dental", "Law", "Legal", "Firm", "Accounting", "Advisors", "Research",
        "Analytics", "Data", "AI", "Cloud", "Security", "Robotics", "Games", "Entertainment", "Productions",
        "Fitness", "Gym", "Salon", "Spa", "Shop", "Supply", "Supplies", "Manufacturing", "Trading",
        "Imports", "Exports", "Transport", "Express", "Mobile", "Online", "Casino", "Estate", "Estates",
        "High", "Elementary", "Middle", "Primary", "Secondary", "State", "National", "City", "County",
        "Regional", "Community", "Public", "Private", "Charter", "Grammar", "Government", "Authority",
        "Board", "Office", "Bureau", "Administration", "Fire", "Library", "Gallery", "Theatre", "Theater",
    )
)


def is_generic_org(name: str) -> bool:
    words = [w.strip(",.()'\"").casefold() for w in name.split()]
    return bool(words) and all(w in GENERIC_ORG_WORDS or w in LEGAL_SUFFIXES for w in words if w)
