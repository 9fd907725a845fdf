"""The engine: the stages (detect -> decide -> substitute, and restore) composed into one
object with one interface.

- `core.Engine`: the stages in this process (CLI, tests, veil serve, the helper child).
- `host.EngineHost`: the same interface served by a helper process (the desktop app).
- `local_tasks`: what the engine may ask of an optional local model; `models/` implements it.
"""
