"""Documents and transcripts (`veil files`): files and folders sanitized into one map per
project, restored from it, with a residual-risk report. Qt-free.

document.py   the segment model every format is read into
formats/      one reader/writer per file format (txt/md, csv/tsv, json/jsonl, docx, pdf, srt/vtt)
spoken*.py    spoken identifiers in transcripts ("four one five...", "B A K E R", "john dot baker at...")
transcript.py speaker turns kept as structure
policy.py     a project's exclusions, dictionary, hotwords, per-type and per-column choices
project.py    a project = a conversation in the vault (its map) + its policy
corpus.py     corpus swapping: stand-ins from other documents of the project
sanitizer.py  one document through the engine, chunk by chunk, edits back per segment
risk.py       per-document residual risk; report.py the run's HTML/JSON report
runner.py     many files: manifest, atomic writes, progress, one bad file never stops the run
"""
