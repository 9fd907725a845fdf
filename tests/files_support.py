"""Files the `veil files` tests make: a Word document with tables and formatting, a PDF
(written here by hand: a few PDF objects with a standard font), a CSV with a header,
JSON, subtitles, and long transcripts with spoken identifiers (agent.bench.spoken_set)."""

from __future__ import annotations

import json
from pathlib import Path

# Values planted in the files; none may remain in any output.
PEOPLE = ("Marguerite Okonkwo", "Desmond Whitfield", "Ingrid Halvorsen")
EMAILS = ("m.okonkwo@brightfield-legal.com", "desmond.whitfield@yahoo.co.uk")
PHONES = ("+44 20 7946 0321", "(415) 555-0187")
ORGS = ("Brightfield Legal LLP", "Calderon Shipping Ltd")


def make_docx(path: Path) -> None:
    import docx
    from docx.shared import Pt, RGBColor

    document = docx.Document()
    document.core_properties.author = PEOPLE[0]
    document.add_heading("Settlement memo", level=1)
    p = document.add_paragraph()
    bold = p.add_run("Client: Marguerite Ok")
    bold.bold = True
    italic = p.add_run("onkwo")  # the name runs over two differently formatted runs
    italic.italic = True
    p.add_run(f" of {ORGS[0]} asked us to call {PHONES[0]} or write to {EMAILS[0]}.")
    colored = document.add_paragraph().add_run(f"Opposing counsel {PEOPLE[1]} ({EMAILS[1]}) agreed.")
    colored.font.color.rgb = RGBColor(0xAA, 0x11, 0x22)
    colored.font.size = Pt(13)
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate((("Party", "Contact", "Phone"), (PEOPLE[2], "Calderon Shipping Ltd", PHONES[1]),
                             (PEOPLE[1], "Whitfield & Co", "n/a"))):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(0, 0).paragraphs[0].runs[0].bold = True
    document.sections[0].header.paragraphs[0].text = f"Prepared for {PEOPLE[0]}"
    # A mailto link (its target is not text) and a comment by a named reviewer.
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    link_paragraph = document.add_paragraph("Write to ")
    rel_id = document.part.relate_to(f"mailto:{EMAILS[1]}", RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel_id)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "our counsel"
    run.append(text)
    link.append(run)
    link_paragraph._p.append(link)
    document.add_comment(colored, text="Check the figures", author=PEOPLE[2], initials="IH")
    for part in document.part.package.iter_parts():
        if str(part.partname) == "/docProps/app.xml":  # Word writes the company here
            part._blob = part.blob.replace(b"<DocSecurity>", f"<Company>{ORGS[0]}</Company><DocSecurity>".encode())
    document.save(str(path))


def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def make_pdf(path: Path, pages: list[list[str]]) -> None:
    """A minimal valid PDF: one Helvetica text line per string, one page per list."""
    objects: list[bytes] = []
    count = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(count))
    font_id = 3 + 2 * count
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    for i, lines in enumerate(pages):
        stream = "BT /F1 11 Tf 72 740 Td 15 TL " + " ".join(f"({_pdf_escape(line)}) Tj T*" for line in lines) + " ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode())
        data = stream.encode("latin-1")
        objects.append(b"<< /Length %d >>\nstream\n" % len(data) + data + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))


def make_csv(path: Path) -> None:
    rows = [
        "Name,Email,Product,Notes",
        f"{PEOPLE[0]},{EMAILS[0]},Veil Pro,\"Called from {PHONES[0]}, wants a refund\"",
        f"{PEOPLE[1]},{EMAILS[1]},Veil Lite,Works at {ORGS[1]}",
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def make_json(path: Path) -> None:
    data = {"customer": {"name": PEOPLE[2], "email": EMAILS[0], "phone": PHONES[1]},
            "tickets": [{"id": 7, "note": f"{PEOPLE[2]} spoke to {PEOPLE[1]} about {ORGS[0]}."}],
            "vip": True}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def make_srt(path: Path) -> None:
    cues = [
        ("00:00:01,000 --> 00:00:03,500", f"Good morning, I'm {PEOPLE[1]}."),
        ("00:00:03,600 --> 00:00:06,000", "You can reach me on four one five,\nfive five five,"),
        ("00:00:06,100 --> 00:00:08,000", "zero one eight seven."),
        ("00:00:08,100 --> 00:00:10,000", f"My office is at {ORGS[1]}."),
    ]
    path.write_text("\n\n".join(f"{i}\n{t}\n{x}" for i, (t, x) in enumerate(cues, 1)) + "\n", encoding="utf-8")


SRT_TIMINGS = ("00:00:01,000 --> 00:00:03,500", "00:00:03,600 --> 00:00:06,000", "00:00:06,100 --> 00:00:08,000",
               "00:00:08,100 --> 00:00:10,000")


def make_long_transcript(path: Path, turns: int = 200, seed: int = 3):
    """A transcript of about `turns` turns from calls with spoken identifiers; returns the
    gold identifiers."""
    import random

    from agent.bench.spoken_set import make_transcript

    rng = random.Random(seed)
    parts, gold = [], []
    while sum(p.count("\n") for p in parts) < turns:
        t = make_transcript(rng, f"t{len(parts)}")
        gold.extend((g.kind, g.text, g.value) for g in t.gold)
        parts.append(t.text)
    path.write_text("".join(parts), encoding="utf-8")
    return gold
