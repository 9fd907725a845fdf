"""Conversations and what is done with them: the entity map and the user's choices
(`conversation`), sending a message to a provider and restoring its answer (`sender`),
and the clipboard's per-day conversation (`clipboard`)."""
