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


def test_cjk_legal_forms_name_a_company():
    text = "공유하기 (주)한빛소프트 | 문의: 株式会社山田製作所の製品と深圳星河科技有限公司"
    found = {s.text for s in OrganisationDetector().detect(text, DetectionContext())}
    assert {"한빛소프트", "株式会社山田製作所", "深圳星河科技有限公司"} <= found


def test_websocket_and_sftp_addresses_are_urls():
    from agent.detect.patterns import UrlDetector

    text = 'connect to "wss://relay.brixley-home.net/queue/join" or sftp://files.brixley-home.net/in'
    found = {s.text for s in UrlDetector().detect(text, DetectionContext())}
    assert {"wss://relay.brixley-home.net/queue/join", "sftp://files.brixley-home.net/in"} <= found
