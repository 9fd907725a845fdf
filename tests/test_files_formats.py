"""File formats of `veil files`: read into segments, edits written back, everything else
(formatting, timings, keys, delimiters, encodings) kept. No engine here."""

from __future__ import annotations

import json

import pytest
from files_support import SRT_TIMINGS, make_csv, make_docx, make_json, make_pdf, make_srt

from agent.entities import Label
from agent.files.document import CellMode, Edit, FileRejected
from agent.files.formats import read_document
from agent.files.policy import ProjectPolicy


def _replace(document, old: str, new: str) -> list[list[Edit]]:
    edits = []
    for segment in document.segments:
        found = []
        start = segment.text.find(old)
        while start >= 0:
            found.append(Edit(start, start + len(old), new))
            start = segment.text.find(old, start + len(old))
        edits.append(found)
    return edits


def test_text_keeps_blank_lines_crlf_and_bom(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"\xef\xbb\xbfDear Anna,\r\n\r\n\r\nAnna will call.\r\n")
    document = read_document(path)
    assert [s.text for s in document.segments] == ["Dear Anna,", "Anna will call.\n"]
    assert document.render([[] for _ in document.segments]) == path.read_bytes()
    out = document.render(_replace(document, "Anna", "Emma"))
    assert out == b"\xef\xbb\xbfDear Emma,\r\n\r\n\r\nEmma will call.\r\n"


def test_binary_file_is_rejected_with_a_message(tmp_path):
    path = tmp_path / "junk.txt"
    path.write_bytes(b"\x00\x01\x02PK\x03\x04" * 100)
    with pytest.raises(FileRejected, match="binary"):
        read_document(path)


def test_csv_cells_by_column_choice_header_untouched(tmp_path):
    path = tmp_path / "people.csv"
    make_csv(path)
    policy = ProjectPolicy(columns={"name": "always:PERSON", "Product": "never"})
    document = read_document(path, policy.column_mode)
    by_where = {s.where: s for s in document.segments}
    assert by_where["row 2, column Name"].mode is CellMode.ALWAYS
    assert by_where["row 2, column Name"].label is Label.PERSON
    assert not any("Product" in s.where for s in document.segments)  # never: not even read
    assert not any(s.text == "Name" for s in document.segments)  # the header is not content
    out = document.render(_replace(document, "Marguerite Okonkwo", "Emma Clarke")).decode()
    lines = out.splitlines()
    assert lines[0] == "Name,Email,Product,Notes"
    assert lines[1].startswith("Emma Clarke,") and '"Called from +44 20 7946 0321, wants a refund"' in lines[1]


def test_json_string_values_only(tmp_path):
    path = tmp_path / "rec.json"
    make_json(path)
    document = read_document(path)
    assert {s.text for s in document.segments} >= {"Ingrid Halvorsen", "m.okonkwo@brightfield-legal.com"}
    out = json.loads(document.render(_replace(document, "Ingrid Halvorsen", "Emma Clarke")))
    assert out["customer"]["name"] == "Emma Clarke"
    assert out["tickets"][0]["note"].startswith("Emma Clarke spoke")
    assert out["tickets"][0]["id"] == 7 and out["vip"] is True
    assert list(out) == ["customer", "tickets", "vip"]


def test_jsonl_bad_line_kept_and_reported(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text('{"name": "Anna"}\nnot json\n{"name": "Bob"}\n', encoding="utf-8")
    document = read_document(path)
    assert [s.text for s in document.segments] == ["Anna", "Bob"]
    assert document.warnings and "line 2" in document.warnings[0]
    assert document.render(_replace(document, "Anna", "Emma")).decode() == '{"name": "Emma"}\nnot json\n{"name": "Bob"}\n'


def test_srt_timings_untouched(tmp_path):
    path = tmp_path / "talk.srt"
    make_srt(path)
    document = read_document(path)
    assert len(document.segments) == 4
    out = document.render(_replace(document, "Desmond", "Victor")).decode()
    for timing in SRT_TIMINGS:
        assert timing in out
    assert "Victor Whitfield" in out and out.count("\n\n") == 3


def test_vtt_header_and_notes_kept(tmp_path):
    path = tmp_path / "talk.vtt"
    path.write_text("WEBVTT\n\nNOTE recorded by Anna\n\n00:01.000 --> 00:04.000 align:start\nAnna speaks\n",
                    encoding="utf-8")
    document = read_document(path)
    assert [s.text for s in document.segments] == ["Anna speaks\n"]
    out = document.render(_replace(document, "Anna", "Emma")).decode()
    assert out == "WEBVTT\n\nNOTE recorded by Anna\n\n00:01.000 --> 00:04.000 align:start\nEmma speaks\n"


def test_docx_entity_over_two_runs_replaced_whole_formatting_kept(tmp_path):
    import docx

    path = tmp_path / "memo.docx"
    make_docx(path)
    document = read_document(path)
    texts = [s.text for s in document.segments]
    assert any("Client: Marguerite Okonkwo of" in t for t in texts)  # runs joined
    assert "Calderon Shipping Ltd" in texts  # a table cell
    assert any("Prepared for" in t for t in texts)  # the header
    assert "Marguerite Okonkwo" in texts  # the author property
    out_path = tmp_path / "out.docx"
    out_path.write_bytes(document.render(_replace(document, "Marguerite Okonkwo", "Emma Clarke")))
    out = docx.Document(str(out_path))
    paragraph = out.paragraphs[1]
    assert paragraph.text.startswith("Client: Emma Clarke of Brightfield")
    assert paragraph.runs[0].bold and paragraph.runs[0].text == "Client: Emma Clarke"
    assert paragraph.runs[1].italic and paragraph.runs[1].text == ""
    assert out.paragraphs[2].runs[0].font.color.rgb == docx.shared.RGBColor(0xAA, 0x11, 0x22)
    assert out.tables[0].cell(0, 0).paragraphs[0].runs[0].bold
    assert out.core_properties.author == "Emma Clarke"
    assert out.sections[0].header.paragraphs[0].text == "Prepared for Emma Clarke"


def test_pdf_text_becomes_markdown_pages(tmp_path):
    path = tmp_path / "scan.pdf"
    make_pdf(path, [["Statement for Ingrid Halvorsen", "Account 4455 2211"], ["Page two mentions Ingrid."]])
    document = read_document(path)
    text = document.render([[] for _ in document.segments]).decode()
    assert "## Page 1" in text and "## Page 2" in text
    assert "Statement for Ingrid Halvorsen" in text and "Page two mentions Ingrid." in text


def test_not_a_pdf_or_docx_is_rejected(tmp_path):
    for name in ("broken.pdf", "broken.docx"):
        path = tmp_path / name
        path.write_bytes(b"this is not what the name says")
        with pytest.raises(FileRejected):
            read_document(path)


def test_attachment_text_for_the_chat(tmp_path):
    from agent.files.attach import read_attachment

    path = tmp_path / "memo.docx"
    make_docx(path)
    attachment = read_attachment(path)
    part = attachment.as_message_part()
    assert part.startswith("[memo.docx]\n")
    assert "Client: Marguerite Okonkwo of Brightfield Legal LLP" in part
    assert "Calderon Shipping Ltd" in part
    with pytest.raises(FileRejected, match="at most"):
        read_attachment(path, max_chars=50)
    with pytest.raises(FileRejected, match="can attach"):
        read_attachment(tmp_path / "photo.png")


def test_json_keys_that_look_personal_are_reported_not_changed(tmp_path):
    path = tmp_path / "by_mail.json"
    path.write_text(json.dumps({"anna.k@example.org": {"visits": 3}, "plan": "basic"}), encoding="utf-8")
    document = read_document(path)
    assert [s.text for s in document.segments] == ["basic"]
    assert document.warnings and "keys look like personal data" in document.warnings[0]
    assert "anna.k@example.org" not in document.warnings[0]  # the report must not carry it whole
