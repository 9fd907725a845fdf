"""Address forms of the address detector: military mail, street corners, street names in
any script, units before the house number, and the town/country/postcode lines that close
a written address. Sentences written for these tests."""

from agent.detect.addresses import AddressDetector
from agent.detect.base import DetectionContext
from agent.entities import Label


def _found(text: str) -> list[str]:
    spans = AddressDetector().detect(text, DetectionContext())
    assert all(s.label is Label.ADDRESS for s in spans)
    return [s.text for s in spans if s.score >= 0.7]


def test_military_mail_with_post_office_code():
    text = "Please mail the parcel to PSC 2211, Box 4410\nAPO AE 09123 before May."
    assert "PSC 2211, Box 4410\nAPO AE 09123" in _found(text)


def test_military_mail_lower_case_and_ship_form():
    assert "unit 7731 box 220, dpo ap 96520" in _found("send it to unit 7731 box 220, dpo ap 96520 thanks")
    assert "USNS Carver\nFPO AA 34102" in _found("Crew letters go to USNS Carver\nFPO AA 34102 this month.")


def test_street_corner_is_one_address():
    found = _found("We moved: our flat is at the corner of Elmwood 4 and Harlow Lane now.")
    assert any(f.startswith("corner of Elmwood 4 and Harlow Lane") for f in found)


def test_house_number_name_number_in_other_scripts():
    assert "18 Łąkowa 9, Gdańsk" in _found("She lives at 18 Łąkowa 9, Gdańsk")
    assert any(f.startswith("4410 Οδός Ερμού 12") for f in _found("Our office: 4410 Οδός Ερμού 12 Apt. 3 Λάρισα"))
    assert _found("I bought 12 apples and 3 pears") == []  # a lower-case word needs an address cue


def test_unit_before_the_house_number_and_town_postcode_line():
    text = "Mr. Ole Berg Apt. 12 3301 Fjellveien 8\nBERGEN xx 5003"
    assert "Apt. 12 3301 Fjellveien 8\nBERGEN xx 5003" in _found(text)


def test_country_and_postcode_close_the_address_block():
    text = "Ivo Lind\n\n77 Ridgevägen 12\n Apt. 4\n Lund\n\n Sweden 22100"
    assert "77 Ridgevägen 12\n Apt. 4\n Lund\n\n Sweden 22100" in _found(text)
    assert "9 Calle Olmo 3 Apt. 2 Toledo Spain" in _found("They rent 9 Calle Olmo 3 Apt. 2 Toledo Spain. Nice place.")
    # Lines of a pasted block may start with bullets or replaced characters.
    assert "4410 Lindvägen 3\n??? Suite 12\n??? MALMBERG\n??? Sweden 22100" in _found(
        "??? Ole Nyberg\n??? 4410 Lindvägen 3\n??? Suite 12\n??? MALMBERG\n??? Sweden 22100")
    # Running text after a street is not its town line.
    assert _found("I live at 12 Baker Street and I love France") == ["12 Baker Street"]


def test_korean_road_name_address_with_building_and_floor():
    text = "찾아오시는 길: 부산 해운대구 센텀중앙로 97 (센텀빌딩) 5층 | 광주 북구 첨단과기로 208 한빛타워 3층"
    found = _found(text)
    assert "부산 해운대구 센텀중앙로 97 (센텀빌딩) 5층" in found
    assert "광주 북구 첨단과기로 208 한빛타워 3층" in found
