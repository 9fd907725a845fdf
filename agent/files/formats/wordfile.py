"""Word .docx (python-docx): every paragraph of the body, of tables at any depth, of text
boxes, headers, footers, footnotes, endnotes and comments is a segment, plus the
document properties (author, title...). A paragraph's text is the concatenation of its
runs' text; an edit is written into the run where the entity starts and the rest of
the entity is removed from the runs it spilled into, so each run keeps its own
formatting (bold, fonts, colours) and an entity split over several runs
("Sa" + "rah Mitchell" after a spell-check) is replaced whole.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from agent.files.document import Edit, FileRejected, Segment, apply_edits

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# The parts of a .docx that hold text a reader sees.
_TEXT_PARTS = ("document.main", "header", "footer", "footnotes", "endnotes", "comments")
_PROPERTIES = ("author", "last_modified_by", "title", "subject", "keywords", "comments", "category")


@dataclass
class _Piece:
    element: object | None  # a w:t element (editable), or None for a tab/break
    text: str


@dataclass
class _Paragraph:
    pieces: list[_Piece]

    @property
    def text(self) -> str:
        return "".join(p.text for p in self.pieces)


def _paragraph_pieces(paragraph) -> list[_Piece]:
    """The text pieces of one w:p in reading order, not those of paragraphs nested in it
    (a text box's paragraphs are their own segments)."""
    pieces: list[_Piece] = []
    for element in paragraph.iter(f"{_W}t", f"{_W}tab", f"{_W}br", f"{_W}cr"):
        owner = element.getparent()
        while owner is not None and owner.tag != f"{_W}p":
            owner = owner.getparent()
        if owner is not paragraph:
            continue
        if element.tag == f"{_W}t":
            pieces.append(_Piece(element, element.text or ""))
        elif element.getparent().tag == f"{_W}r":  # a w:tab inside w:tabs is a tab stop, not text
            pieces.append(_Piece(None, "\t" if element.tag == f"{_W}tab" else "\n"))
    return pieces


def _joiner(paragraph) -> str:
    """A table row reads as one line for detection ("Ingrid Halvorsen | Calderon Shipping
    Ltd | (415) 555-0187"): cells are joined by " | ", rows by a line break."""
    cell = paragraph.getparent()
    if cell is None or cell.tag != f"{_W}tc":
        return "\n\n"
    if paragraph.getnext() is not None and paragraph.getnext().tag == f"{_W}p":
        return "\n"
    following = cell.getnext()
    while following is not None and following.tag != f"{_W}tc":
        following = following.getnext()
    return " | " if following is not None else "\n"


@dataclass
class WordDocument:
    document: object
    paragraphs: list[_Paragraph]
    segments: list[Segment]
    properties: list[str]  # names of core properties that are segments (after the paragraphs)
    attributes: list[tuple[object, str]] = field(default_factory=list)  # (element, attribute name)
    links: list[object] = field(default_factory=list)  # external hyperlink relationships
    extended: tuple | None = None  # (docProps/app.xml part, its parsed XML)
    extended_nodes: list[object] = field(default_factory=list)  # its Company and Manager elements
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, path: Path) -> WordDocument:
        import docx  # python-docx
        from docx.opc.exceptions import PackageNotFoundError

        if not zipfile.is_zipfile(path):
            raise FileRejected(f"{path.name} is not a .docx file (not a zip package)")
        try:
            document = docx.Document(str(path))
        except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
            raise FileRejected(f"{path.name} cannot be opened as a Word document: {exc}") from None
        paragraphs: list[_Paragraph] = []
        segments: list[Segment] = []
        for part in document.part.package.iter_parts():
            content_type = getattr(part, "content_type", "")
            if not any(f"wordprocessingml.{name}+xml" in content_type for name in _TEXT_PARTS):
                continue
            element = getattr(part, "element", None)
            if element is None:
                continue
            where = str(part.partname).rsplit("/", 1)[-1].removesuffix(".xml")
            for number, p in enumerate(element.iter(f"{_W}p"), 1):
                paragraph = _Paragraph(_paragraph_pieces(p))
                text = paragraph.text
                if not text.strip():
                    continue
                paragraphs.append(paragraph)
                segments.append(Segment(text, joiner=_joiner(p), where=f"{where}, paragraph {number}"))
        # Names and addresses that are not text runs: authors of comments and tracked
        # changes (attributes), and the targets of links ("mailto:anna@example.com").
        attributes: list[tuple[object, str]] = []
        links: list[object] = []
        for part in document.part.package.iter_parts():
            element = getattr(part, "element", None)
            content_type = getattr(part, "content_type", "")
            if element is not None and any(f"wordprocessingml.{name}+xml" in content_type for name in _TEXT_PARTS):
                for node in element.iter():
                    for name in (f"{_W}author", f"{_W}initials"):
                        value = node.get(name) if isinstance(node.tag, str) else None
                        if value and value.strip():
                            attributes.append((node, name))
            for rel in getattr(part, "rels", {}).values():
                if rel.is_external and "hyperlink" in rel.reltype and isinstance(rel.target_ref, str):
                    links.append(rel)
        # The extended properties (docProps/app.xml) name the company and the manager.
        extended = None
        extended_nodes: list[object] = []
        for part in document.part.package.iter_parts():
            if str(part.partname) == "/docProps/app.xml":
                from lxml import etree

                try:
                    extended = (part, etree.fromstring(part.blob))
                except etree.XMLSyntaxError:
                    break
                extended_nodes = [n for n in extended[1].iter() if isinstance(n.tag, str)
                                  and etree.QName(n).localname in ("Company", "Manager") and (n.text or "").strip()]
        # Segments in the order render() reads them back: attributes, links, app properties, core properties.
        segments += [Segment(node.get(name), joiner="\n\n", where="author of a comment or change")
                     for node, name in attributes]
        segments += [Segment(rel.target_ref, joiner="\n\n", where="link target") for rel in links]
        segments += [Segment(n.text, joiner="\n\n", where="document property") for n in extended_nodes]
        properties = []
        core = document.core_properties
        for name in _PROPERTIES:
            value = getattr(core, name, None)
            if isinstance(value, str) and value.strip():
                properties.append(name)
                segments.append(Segment(value, joiner="\n\n", where=f"document property {name}"))
        return cls(document, paragraphs, segments, properties, attributes, links, extended, extended_nodes)

    def render(self, edits: list[list[Edit]]) -> bytes:
        for paragraph, paragraph_edits in zip(self.paragraphs, edits):
            if paragraph_edits:
                _rewrite(paragraph, paragraph_edits)
        position = len(self.paragraphs)
        for (node, name), segment, attribute_edits in zip(self.attributes, self.segments[position:], edits[position:]):
            if attribute_edits:
                node.set(name, apply_edits(segment.text, attribute_edits))
        position += len(self.attributes)
        for rel, segment, link_edits in zip(self.links, self.segments[position:], edits[position:]):
            if link_edits:
                rel._target = apply_edits(segment.text, link_edits)  # python-docx keeps no public setter
        position += len(self.links)
        changed = False
        for node, segment, node_edits in zip(self.extended_nodes, self.segments[position:], edits[position:]):
            if node_edits:
                node.text = apply_edits(segment.text, node_edits)
                changed = True
        if changed and self.extended is not None:
            from lxml import etree

            part, root = self.extended
            part._blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
        position += len(self.extended_nodes)
        core = self.document.core_properties
        for name, segment, property_edits in zip(self.properties, self.segments[position:], edits[position:]):
            if property_edits:
                setattr(core, name, apply_edits(segment.text, property_edits))
        out = io.BytesIO()
        self.document.save(out)
        return out.getvalue()


def _rewrite(paragraph: _Paragraph, edits: list[Edit]) -> None:
    """Apply edits (offsets in the paragraph's text) to its pieces: the new text goes into
    the first editable piece the edit covers; what it covers in later pieces is cut."""
    bounds = []  # (start, end) of each piece in the paragraph text
    position = 0
    for piece in paragraph.pieces:
        bounds.append((position, position + len(piece.text)))
        position += len(piece.text)
    new_texts = [piece.text for piece in paragraph.pieces]
    # Right to left: an edit changes a piece only at and after its own start, so the
    # offsets of the edits before it in the same piece stay valid.
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        covered = [
            i for i, (start, end) in enumerate(bounds)
            if start < edit.end and end > edit.start and paragraph.pieces[i].element is not None
        ]
        for rank, index in enumerate(covered):
            start, end = bounds[index]
            cut_from, cut_to = max(edit.start, start) - start, min(edit.end, end) - start
            text = new_texts[index]
            new_texts[index] = text[:cut_from] + (edit.text if rank == 0 else "") + text[cut_to:]
    for piece, text in zip(paragraph.pieces, new_texts):
        if piece.element is not None and text != piece.text:
            piece.element.text = text
            if text != text.strip():
                piece.element.set(_XML_SPACE, "preserve")
