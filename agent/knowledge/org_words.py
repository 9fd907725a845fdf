"""Words of organisation names that say what kind of organisation it is, not which one:
legal forms ("GmbH") and generic words ("Police Department"). A stand-in keeps them;
a name made only of them ("the Union", "the Court") is not an entity.

The legal forms are one list for every stage (detection, relevance, substitution, the
local model's checks); each stage takes the part of it that it can use, derived below.
"""

from __future__ import annotations

import re

# Legal forms of companies as they are written after the name ("Globex GmbH", "Acme S.A.").
LEGAL_FORMS = (
    "Inc", "LLC", "L.L.C.", "Ltd", "Limited", "GmbH", "AG", "SA", "S.A.", "Corp", "Corporation",
    "Co", "Company", "PLC", "plc", "LLP", "LP", "BV", "B.V.", "NV", "N.V.", "Oy", "AB", "AS", "A/S",
    "ApS", "Pty", "Pvt", "SE", "S.p.A.", "SpA", "S.r.l.", "Srl", "SARL", "S.A.R.L.", "SAS", "KG",
    "KGaA", "e.V.", "Sp. z o.o.",
    # German partnerships with a company as partner: one form, not "& Co." and a country code
    "GmbH & Co. KG", "AG & Co. KG", "AG & Co. KGaA", "SE & Co. KGaA", "GmbH & Co. KGaA",
)
# Forms that are also ordinary words or abbreviations ("The Company", "WORK AS", "their
# new LP"): after capitalised words they do not make a company name by themselves.
AMBIGUOUS_LEGAL_FORMS = frozenset({"Co", "Company", "AS", "LP"})
# Forms only a private company has: a listed company is an Inc., a PLC, an AG, an S.A.
PRIVATE_LEGAL_FORMS = frozenset(
    {"GmbH", "Ltd", "LLC", "L.L.C.", "LLP", "Pty", "SARL", "S.A.R.L.", "Srl", "S.r.l.", "BV", "B.V.",
     "Oy", "AB", "AS", "ApS", "Sp. z o.o.", "GmbH & Co. KG", "GmbH & Co. KGaA"}
)
# Words after a company's name that say how it is owned or grouped, not which one it is.
_OWNERSHIP_WORDS = ("&", "and", "Sons", "Holdings", "Group")


def legal_form_alternation(forms) -> str:
    """The forms as one regex alternation, longest first, without their final dot (a
    pattern adds `\\b\\.?` after it, so "Ltd" and "Ltd." are both matched)."""
    bare = {f.rstrip(".") for f in forms}
    return "|".join(re.escape(f) for f in sorted(bare, key=lambda f: (-len(f), f)))


def _words(forms) -> frozenset[str]:
    """Casefolded words of the forms, with and without a final dot ("ltd", "ltd.")."""
    words = {w.casefold().rstrip(".") for f in forms for w in f.split()}
    return frozenset(words | {f"{w}." for w in words})


# A name ending in a legal form ("Globex GmbH", "acme s.a."), any case.
ENDS_WITH_LEGAL_FORM = re.compile(rf"(?i)\b(?:{legal_form_alternation(LEGAL_FORMS)})\.?$")
# The same for the forms only private companies have.
ENDS_WITH_PRIVATE_LEGAL_FORM = re.compile(rf"(?i)\b(?:{legal_form_alternation(PRIVATE_LEGAL_FORMS)})\.?$")
# Casefolded words of the legal forms, for token checks.
LEGAL_FORM_WORDS = _words(LEGAL_FORMS)
# The words at the end of a company name that a stand-in keeps as written.
COMPANY_SUFFIX_WORDS = LEGAL_FORM_WORDS | {w.casefold() for w in _OWNERSHIP_WORDS}
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
        "Investments", "Investment", "Enterprises", "Management", "Advisory", "Innovations", "Insights",
        "Holdings", "Group", "Associates", "Consultants",
    )
)


# The trade a business names itself after, as the last word of its name ("Bright Smile
# Dental", "Rapid Flow Plumbing", "Golden Crust Bakery"): words before one of these are the
# business's name, not a person's, and a stand-in keeps the trade. Words that end product
# names more often than businesses' ("Azure Blob Storage", "Adobe Analytics") are not here.
INDUSTRY_WORDS = frozenset(
    w.casefold()
    for w in (
        "Dental", "Dentistry", "Orthodontics", "Clinic", "Medical", "Pharmacy", "Veterinary", "Optical", "Optometry",
        "Chiropractic", "Physiotherapy", "Physio", "Therapy", "Counseling", "Counselling", "Pediatrics", "Healthcare",
        "Plumbing", "Heating", "Roofing", "Electrical", "Construction", "Builders", "Contractors", "Landscaping",
        "Gardening", "Cleaning", "Cleaners", "Painting", "Flooring", "Carpentry", "Joinery", "Glazing", "Locksmiths",
        "Removals", "Movers", "Autos", "Motors", "Garage", "Repairs", "Towing", "Bakery", "Bakehouse",
        "Cafe", "Café", "Coffee", "Restaurant", "Bistro", "Diner", "Pizzeria", "Catering", "Deli", "Butchers",
        "Brewery", "Brewing", "Winery", "Distillery", "Foods", "Grocery", "Grocers", "Florist", "Florists", "Salon",
        "Barbers", "Barbershop", "Spa", "Beauty", "Nails", "Tattoo", "Fitness", "Gym", "Yoga", "Pilates", "Studio",
        "Studios", "Photography", "Design", "Designs", "Marketing", "Advertising", "Printing", "Consulting",
        "Consultants", "Consultancy", "Accounting", "Accountants", "Bookkeeping", "Solicitors", "Realty",
        "Properties", "Lettings", "Insurance", "Mortgages", "Travel", "Tours", "Logistics", "Freight", "Couriers",
        "Supplies", "Tailors", "Boutique", "Jewellers",
        "Jewelers", "Academy", "Tutoring", "Daycare", "Nursery", "Kennels", "Grooming", "Hotel", "Inn", "Lodge",
        "Motel", "Hostel", "Events", "Productions", "Publishing", "Bookshop", "Bookstore", "Gallery", "Lumber",
        "Manufacturing", "Industries", "Imports", "Exports", "Trading", "Traders", "Associates",
        "School", "Schools", "Games", "Pictures", "Films", "Factory",
        # surgeries and practices, trades named by who does them
        "Surgery", "Practice", "Vets", "Opticians", "Chemist", "Chemists", "Osteopathy", "Paediatrics",
        "Ceramics", "Pottery", "Upholstery", "Tailoring", "Bakers", "Printers", "Stationers", "Haulage",
        "Nurseries", "Surveyors", "Architects", "Plumbers", "Electricians", "Decorators", "Shipping",
    )
)
# Words that say a name is an organisation's: its kind ("University", "Clinic") or its trade.
ORG_KIND_WORDS = GENERIC_ORG_WORDS | INDUSTRY_WORDS


# The last word of a small firm's descriptive name, the kind of service it sells, for
# agent/knowledge/company_shapes.py. Not the words famous names also end in ("Company",
# "Network", "Games", "Pictures", "AI"), which INDUSTRY_WORDS and GENERIC_ORG_WORDS hold.
TRADE_WORDS = frozenset(w.casefold() for w in (
    "Solutions", "Systems", "Technologies", "Consulting", "Consultants", "Consultancy", "Insights",
    "Analytics", "Enterprises", "Associates", "Partners", "Ventures", "Services", "Logistics",
    "Innovations", "Contractors", "Builders", "Movers", "Plumbing", "Roofing", "Landscaping",
    "Cleaning", "Realty", "Properties", "Outfitters", "Distributors", "Supplies", "Interiors",
    "Labs", "Investments", "Holdings", "Management", "Advisory", "Advisors",
))


# Ordinary words small businesses name themselves with ("Bright Smile", "Golden Crust",
# "Clear View"): a stand-in swaps such a word for another of them, and joins two for a
# coined name ("Northwind" -> "Stonebrook"), so the business still reads as one.
BRAND_WORDS = (
    "Bright", "Clear", "Golden", "Silver", "Blue", "Green", "Red", "White", "True", "Prime", "First", "Royal",
    "Happy", "Gentle", "Fresh", "Pure", "Swift", "Rapid", "Smart", "Bold", "Noble", "Grand", "Little", "Sunny",
    "Oak", "Pine", "Maple", "Cedar", "Willow", "Birch", "River", "Lake", "Harbor", "Summit", "Peak", "Valley",
    "Meadow", "Sun", "Star", "North", "Bridge", "Stone", "Rock", "Hill", "Ridge", "Spring", "Bay", "Coast",
    "Shore", "View", "Vista", "Grove", "Garden", "Field", "Brook", "Sky", "Light", "Crest", "Haven", "Point",
    "Wave", "Wind", "Leaf", "Crown", "Arrow", "Anchor", "Compass", "Beacon", "Lantern", "Orchard", "Smile", "Care",
)


def is_generic_org(name: str) -> bool:
    words = [w.strip(",.()'\"").casefold() for w in name.split()]
    return bool(words) and all(w in GENERIC_ORG_WORDS or w in COMPANY_SUFFIX_WORDS for w in words if w)
