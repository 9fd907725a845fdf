"""Things built from a conversation's map that are kept between calls and brought up to
date with the entries added since, instead of being built again from every entry.

A big text is sanitized in pieces with one map (agent/engine/chunks.py), and the map of a
long chat grows turn after turn: whatever reads the whole map for each new value (each
person, each e-mail address) makes the work per value grow with the map, and the work
for the whole text grow with its square. The map only grows at its end (new entries,
entries other processes stored); when entries are dropped (Conversation.forget, after a
MapConflict) what was built is built again from scratch.

    names = MapCache(dict, lambda known, new: known.update((e.real, e.stand_in) for e in new))
    names.get(conversation)   # up to date with the conversation's map; treat as read-only
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from agent.session.conversation import Conversation, MapEntry

State = TypeVar("State")


class _Built(Generic[State]):
    __slots__ = ("count", "last", "revision", "state")

    def __init__(self, revision: int, count: int, last: MapEntry | None, state: State):
        self.revision = revision
        self.count = count  # how many of the map's entries `state` has taken in
        self.last = last  # the last of them: if it moved, entries were dropped
        self.state = state


class MapCache(Generic[State]):
    """Per conversation object (an id can be reused by another), `start()` fed with the
    map's entries in order by `add(state, new_entries)`."""

    def __init__(self, start: Callable[[], State], add: Callable[[State, Sequence[MapEntry]], None]):
        self._start = start
        self._add = add
        self._built: weakref.WeakKeyDictionary[Conversation, _Built[State]] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def get(self, conversation: Conversation) -> State:
        with self._lock:
            built = self._built.get(conversation)
            revision = conversation.revision  # read first: a change after it is taken in next time
            if built is not None and built.revision == revision:
                return built.state
            entries = conversation.entries
            appended = built is not None and len(entries) >= built.count and (
                built.count == 0 or entries[built.count - 1] is built.last)
            if built is None or not appended:
                built = _Built(revision, 0, None, self._start())
                self._built[conversation] = built
            new = entries[built.count :]
            if new:
                try:
                    self._add(built.state, new)
                except BaseException:
                    del self._built[conversation]  # half taken in: built again next time
                    raise
            built.revision, built.count = revision, len(entries)
            built.last = entries[-1] if entries else None
            return built.state
