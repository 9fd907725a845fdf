"""Organisation forms: a coined CamelCase name with a legal form is a company, not code;
schools, studios and factories named after a proper name. Sentences written for these tests."""

from agent.detect.base import DetectionContext
from agent.detect.code_zones import looks_like_code_token
from agent.detect.gazetteer import OrganisationDetector


def test_camel_case_name_with_a_legal_form_is_not_a_code_token():
    assert not looks_like_code_token("BrixPay Ltd")
    assert not looks_like_code_token("NovaChem GmbH")
    assert looks_like_code_token("NovaChem")  # alone it may still be a class name


def test_trade_words_of_schools_studios_and_factories():
    text = "She taught at Brixley International School and later joined Korvath Games as a writer."
    found = {s.text for s in OrganisationDetector().detect(text, DetectionContext())}
    assert {"Brixley International School", "Korvath Games"} <= found
