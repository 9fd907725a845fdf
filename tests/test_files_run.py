"""`veil files` end to end: files the test makes, the real engine, a real SQLCipher vault
file. No real value remains in any output, formatting survives, restore gives back the
original text, a re-run skips finished files, a bad file never stops the run."""

from __future__ import annotations

import json
import re

import pytest
from files_support import (
    EMAILS,
    ORGS,
    PEOPLE,
    PHONES,
    SRT_TIMINGS,
    make_csv,
    make_docx,
    make_json,
    make_long_transcript,
    make_pdf,
    make_srt,
)

from agent.files.corpus import CorpusPool
from agent.files.formats import read_document
from agent.files.policy import Hotword, ProjectPolicy
from agent.files.project import open_project
from agent.files.report import write_reports
from agent.files.runner import restore_files, sanitize_files
from agent.files.sanitizer import ProjectSanitizer

pytestmark = pytest.mark.slow


@pytest.fixture
def store(tmp_path, monkeypatch):
    from agent.vault import VaultStore

    monkeypatch.setenv("VEIL_PASSPHRASE", "files test passphrase")
    s = VaultStore(tmp_path / "vault.db", scrypt_n=2**12)
    yield s
    s.close()


def _sanitizer(store, name: str, policy: ProjectPolicy | None = None, corpus: bool = False) -> ProjectSanitizer:
    from agent.config import default_settings

    project = open_project(store, name, policy_update=policy)
    return ProjectSanitizer(default_settings(), project, corpus=CorpusPool() if corpus else None)


def _all_text(folder) -> str:
    out = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.name.startswith((".veil", "veil-report")):
            document = read_document(path)
            out.append("\n".join(s.text for s in document.segments))
    return "\n".join(out)


def _texts(folder) -> dict[str, str]:
    return {p.name: "\n".join(s.text for s in read_document(p).segments)
            for p in sorted(folder.iterdir()) if p.is_file() and not p.name.startswith((".veil", "veil-report"))}


def test_folder_sanitized_no_real_value_left_and_restored(store, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    make_docx(source / "memo.docx")
    make_pdf(source / "statement.pdf", [[f"Statement for {PEOPLE[2]}", f"Call {PHONES[1]} or {EMAILS[0]}"],
                                         [f"{ORGS[1]} owes {PEOPLE[2]} a refund."]])
    make_csv(source / "people.csv")
    make_json(source / "record.json")
    make_srt(source / "talk.srt")
    gold = make_long_transcript(source / "call.txt", turns=200)
    assert len(gold) >= 30
    originals = _texts(source)

    sanitizer = _sanitizer(store, "case-41", ProjectPolicy(columns={"Name": "always:PERSON", "Product": "never"}))
    result = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    assert [f.status for f in result.files] == ["sanitized"] * 6, [(f.relative, f.error) for f in result.files]
    out = tmp_path / "out"
    assert (out / "statement.md").exists() and not (out / "statement.pdf").exists()
    text = _all_text(out)
    for value in PEOPLE + EMAILS + PHONES + ORGS:
        for part in [value] + [w for w in re.findall(r"[A-Z][a-z]{3,}", value) if w not in ("Legal", "Shipping")]:
            assert part not in text, part
    for kind, spoken, value in gold:
        assert spoken not in text, (kind, spoken)
    assert "Veil Pro" in text  # a never column
    srt = (out / "talk.srt").read_text(encoding="utf-8")
    for timing in SRT_TIMINGS:
        assert timing in srt
    assert "five five five,\nzero one eight seven" not in srt

    import docx

    memo = docx.Document(str(out / "memo.docx"))
    assert memo.paragraphs[1].runs[0].bold and memo.paragraphs[1].runs[1].italic
    assert memo.paragraphs[2].runs[0].font.color.rgb == docx.shared.RGBColor(0xAA, 0x11, 0x22)
    assert memo.tables[0].cell(0, 0).paragraphs[0].runs[0].bold
    links = [r.target_ref for r in memo.part.rels.values() if r.is_external]
    assert links and all(EMAILS[1] not in link for link in links) and links[0].startswith("mailto:")
    assert all(c.author != PEOPLE[2] and PEOPLE[2].split()[1] not in c.author for c in memo.comments)
    raw = (out / "memo.docx").read_bytes()
    import zipfile

    with zipfile.ZipFile(out / "memo.docx") as package:
        xml = "".join(package.read(name).decode("utf-8", "replace") for name in package.namelist())
    for value in PEOPLE + EMAILS:
        assert value not in xml and value.split()[-1] not in xml, value
    assert raw

    # Restore in another process's way: the map comes back from the vault file.
    project = open_project(store, "case-41", create=False)
    assert len(project.conversation.entries) > 20
    back = restore_files(sanitizer.engine, project.conversation, [out], tmp_path / "back")
    assert all(f.status == "restored" for f in back.files), [(f.relative, f.error) for f in back.files]
    restored = _texts(tmp_path / "back")
    for name, original in originals.items():
        target = "statement.md" if name == "statement.pdf" else name
        assert restored[target] == original, name


def test_rerun_skips_finished_files_and_bad_file_does_not_stop_the_run(store, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text(f"{PEOPLE[0]} wrote to {EMAILS[1]}.\n", encoding="utf-8")
    (source / "broken.docx").write_bytes(b"not a word file")
    (source / "c.json").write_text(json.dumps({"name": PEOPLE[1]}), encoding="utf-8")
    sanitizer = _sanitizer(store, "rerun")
    first = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    status = {f.relative: f.status for f in first.files}
    assert status == {"a.txt": "sanitized", "broken.docx": "failed", "c.json": "sanitized"}
    assert "not a .docx file" in next(f.error for f in first.files if f.status == "failed")
    stamp = (tmp_path / "out" / "a.txt").stat().st_mtime_ns
    second = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    assert {f.relative: f.status for f in second.files} == {"a.txt": "skipped", "broken.docx": "failed",
                                                          "c.json": "skipped"}
    assert (tmp_path / "out" / "a.txt").stat().st_mtime_ns == stamp
    (source / "a.txt").write_text(f"{PEOPLE[0]} changed her mind.\n", encoding="utf-8")
    third = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    assert {f.relative: f.status for f in third.files}["a.txt"] == "sanitized"
    # Another policy (a new exclusion) makes every file due again.
    changed = _sanitizer(store, "rerun", ProjectPolicy(exclusions=["changed her mind"]))
    fourth = sanitize_files(changed, store, [source], tmp_path / "out")
    assert {f.relative: f.status for f in fourth.files} == {"a.txt": "sanitized", "broken.docx": "failed",
                                                          "c.json": "sanitized"}
    assert not list((tmp_path / "out").glob("*.part"))


def test_project_map_is_shared_by_files_and_runs(store, tmp_path):
    for n in range(2):
        folder = tmp_path / f"in{n}"
        folder.mkdir()
        (folder / f"t{n}.txt").write_text(f"Agent: hello\nCustomer: I'm {PEOPLE[1]} from {ORGS[1]}.\n", encoding="utf-8")
        sanitize_files(_sanitizer(store, "shared"), store, [folder], tmp_path / f"out{n}")
    one = (tmp_path / "out0" / "t0.txt").read_text(encoding="utf-8")
    two = (tmp_path / "out1" / "t1.txt").read_text(encoding="utf-8")
    assert one == two and PEOPLE[1] not in one
    assert one.startswith("Agent: hello\nCustomer: I'm ")  # speaker roles kept as structure
    summary = next(s for s in store.list_conversations() if s.id == "files-shared")
    assert summary.origin == "files"  # the project's map is not a chat
    other = tmp_path / "other"
    sanitize_files(_sanitizer(store, "another-project"), store, [tmp_path / "in0"], other)
    assert (other / "t0.txt").read_text(encoding="utf-8") != one  # no linkage across projects


def test_policy_saved_and_reported_hotwords_exclusions_and_types(store, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "note.txt").write_text(
        f"{PEOPLE[0]} uses Veil Pro. Her claim ref QX-88213 was filed on 12 March 2024 in Leeds.\n", encoding="utf-8")
    policy = ProjectPolicy(exclusions=["Veil Pro"], hotwords=[Hotword("claim ref")], types={"DATE": "keep"})
    sanitizer = _sanitizer(store, "policy", policy)
    result = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    text = (tmp_path / "out" / "note.txt").read_text(encoding="utf-8")
    assert "Veil Pro" in text and "12 March 2024" in text
    assert "QX-88213" not in text and PEOPLE[0] not in text
    saved = open_project(store, "policy", create=False).policy
    assert saved.exclusions == ["Veil Pro"] and saved.types == {"DATE": "keep"}
    json_path, html_path = write_reports(result, "policy", saved, tmp_path / "out")
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["policy"]["hotwords"] == [{"phrase": "claim ref", "label": "ID"}]
    kept = {k["value"]: k["reason"] for k in report["files"][0]["risk"]["kept"]}
    assert kept["Veil Pro"].startswith("excluded")
    assert "12 March 2024" in kept
    page = html_path.read_text(encoding="utf-8")
    assert "Veil Pro" in page and PEOPLE[0] not in page and "claim ref" in page


def test_report_puts_the_risky_documents_first(store, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for i in range(6):
        (source / f"plain{i}.txt").write_text("The meeting moved to the afternoon. Bring the slides.\n", encoding="utf-8")
    (source / "risky.txt").write_text(
        "The senior nurse at the cardiology ward, aged 52, moved from Portugal in 1998; "
        "reference 4471 9902 3318 77 stays on file.\n", encoding="utf-8")
    policy = ProjectPolicy(types={"DATE": "keep", "NORP": "keep", "LOCATION": "keep"})
    sanitizer = _sanitizer(store, "risk", policy)
    result = sanitize_files(sanitizer, store, [source], tmp_path / "out")
    json_path, _ = write_reports(result, "risk", sanitizer.project.policy, tmp_path / "out")
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["files"][0]["relative"] == "risky.txt"
    assert report["read_first"][0] == "risky.txt"
    risk = report["files"][0]["risk"]
    assert risk["combinations"] and {"job title", "age"} <= set(risk["combinations"][0]["kinds"])
    assert all(f["risk"]["score"] == 0 for f in report["files"][1:])


def test_corpus_swap_takes_stand_ins_from_other_documents(store, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text("Maren Solberg signed for Halvorsen Maritime AS in Bergen.\n", encoding="utf-8")
    (source / "b.txt").write_text("Ola Nordmann works for Fjordline Logistics AS in Tromsø.\n", encoding="utf-8")
    (source / "c.txt").write_text("Kari Lunde joined Nordvik Energi AS in Stavanger.\n", encoding="utf-8")
    sanitizer = _sanitizer(store, "corpus", ProjectPolicy(corpus_swap=True), corpus=True)
    sanitize_files(sanitizer, store, [source], tmp_path / "out")
    orgs = {"a.txt": "Halvorsen Maritime AS", "b.txt": "Fjordline Logistics AS", "c.txt": "Nordvik Energi AS"}
    swapped = 0
    for name, own in orgs.items():
        text = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert own not in text
        others = [org for n, org in orgs.items() if n != name]
        swapped += any(org in text for org in others)
    assert swapped >= 1  # at least one stand-in is another document's organisation
    # A stand-in that is another document's real name still restores to the right one.
    project = open_project(store, "corpus", create=False)
    back = restore_files(sanitizer.engine, project.conversation, [tmp_path / "out"], tmp_path / "back")
    assert all(f.status == "restored" for f in back.files)
    for name in orgs:
        assert (tmp_path / "back" / name).read_text(encoding="utf-8") == (source / name).read_text(encoding="utf-8")


def test_two_workers_share_one_map_through_the_vault(store, tmp_path):
    """Chunks of several files in two processes: one stand-in per value in every output,
    and the outputs restore to the inputs."""
    import functools

    from agent.config import default_settings
    from agent.files.parallel import sanitize_files_parallel
    from agent.vault import VaultStore

    source = tmp_path / "in"
    source.mkdir()
    line = f"Agent: hello\nCustomer: I'm {PEOPLE[0]} of {ORGS[0]}, e-mail {EMAILS[0]}.\n"
    for i in range(4):
        (source / f"call{i}.txt").write_text(line * 3 + f"Customer: bye from call {i}\n", encoding="utf-8")
    project = open_project(store, "parallel")
    opener = functools.partial(VaultStore, store.path, scrypt_n=2**12)
    result = sanitize_files_parallel(default_settings(), project, store, [source], tmp_path / "out", workers=2,
                                     open_store=opener)
    assert sorted(f.status for f in result.files) == ["sanitized"] * 4, [(f.relative, f.error) for f in result.files]
    outputs = [(tmp_path / "out" / f"call{i}.txt").read_text(encoding="utf-8") for i in range(4)]
    first_lines = {text.splitlines()[1] for text in outputs}
    assert len(first_lines) == 1  # the same stand-ins in every file
    assert PEOPLE[0] not in "".join(outputs) and EMAILS[0] not in "".join(outputs)
    fresh = open_project(store, "parallel", create=False)
    sanitizer = _sanitizer(store, "parallel")
    back = restore_files(sanitizer.engine, fresh.conversation, [tmp_path / "out"], tmp_path / "back")
    assert all(f.status == "restored" for f in back.files)
    for i in range(4):
        assert (tmp_path / "back" / f"call{i}.txt").read_text(encoding="utf-8") == (source / f"call{i}.txt").read_text(encoding="utf-8")


def test_a_worker_that_clashes_sanitizes_again_without_parsing_again(store, tmp_path):
    """Another process stores a clashing entry while a worker sanitizes a chunk: the
    worker sanitizes it again with the stored map (one stand-in per value) and reuses the
    parse of the text it already made (a clash used to cost a whole chunk)."""
    import functools

    from agent.config import default_settings
    from agent.entities import Action, Label
    from agent.files import parallel
    from agent.session.conversation import MapConflict, MapEntry
    from agent.vault import VaultStore

    source = tmp_path / "call.txt"
    source.write_text(f"Customer: I'm {PEOPLE[0]} of {ORGS[0]}, e-mail {EMAILS[0]}.\nAgent: thanks {PEOPLE[0]}.\n",
                      encoding="utf-8")
    open_project(store, "clash")
    opener = functools.partial(VaultStore, store.path, scrypt_n=2**12)
    parallel._init_worker(default_settings(), "clash", True, opener)
    worker = parallel._WORKER
    try:
        pipeline = worker["sanitizer"].engine.registry.pipeline
        assert isinstance(pipeline, parallel.RememberedParses)
        parses = []
        inner = pipeline._pipeline.parse
        pipeline._pipeline.parse = lambda text: parses.append(text) or inner(text)
        # Detectors that read only the text keep their findings for the second render;
        # conversation memory runs again (it must see the entry the other process stored).
        detectors = worker["sanitizer"].engine.registry.detectors
        remembered = [d for d in detectors if isinstance(d, parallel.RememberedDetections)]
        fresh = [d for d in detectors if not isinstance(d, parallel.RememberedDetections)]
        assert remembered and {d.name for d in fresh} >= {"memory"}
        assert not any(parallel.reads_the_map(d._detector) for d in remembered)
        counted = {}
        for d in remembered + [d for d in fresh if d.name == "memory"]:
            target = d._detector if isinstance(d, parallel.RememberedDetections) else d
            calls = counted.setdefault("memory" if d.name == "memory" else id(d), [])
            target.detect = (lambda original, calls: lambda text, context: calls.append(text) or original(text, context))(
                target.detect, calls)
        # The other process: the same person, mapped and stored first, with its own seed
        # state (another stand-in than the worker's).
        other = _sanitizer(store, "clash")
        other.conversation.add_entry(MapEntry(PEOPLE[0], "Quentin Marlowe", Label.PERSON, Action.REPLACE))
        worker_store = worker["store"]
        save = worker_store.save_conversation
        clashes = []

        def save_after_the_other(conversation):
            if not clashes:
                store.save_conversation(other.conversation)
            try:
                return save(conversation)
            except MapConflict:
                clashes.append(1)
                raise

        worker_store.save_conversation = save_after_the_other
        document = read_document(source)
        done = parallel._run_chunk(0, str(source), list(range(len(document.segments))))
    finally:
        worker["store"].close()
        worker.clear()
    assert clashes == [1]
    assert len(parses) == len(set(parses)) >= 1  # each piece parsed once, the second render reused it
    texts = counted["memory"]
    assert len(texts) == 2 * len(set(texts))  # memory: once per render
    for name, calls in counted.items():
        if name != "memory":
            assert sorted(calls) == sorted(set(texts)), name  # the others: once per text
    output = document.render([done.edits.get(i, []) for i in range(len(document.segments))]).decode("utf-8")
    assert PEOPLE[0] not in output and EMAILS[0] not in output
    assert output.count("Quentin Marlowe") == 2  # the stand-in the other process stored
    # The chunk's share of the risk report was worked out in the worker, as the parent would.
    import dataclasses

    from agent.files.risk import chunk_risk
    assert done.chunk.risk is not None
    assert done.chunk.risk == chunk_risk(dataclasses.replace(done.chunk, risk=None))
