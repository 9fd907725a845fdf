"""Per entity: keep, replace with a stand-in, or replace with a label (`decider`), using
the relevance signals of `relevance` for the entities whose policy is "auto"."""
