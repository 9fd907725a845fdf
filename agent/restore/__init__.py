"""Putting real values back into an answer: one-shot and streaming (`restorer`)."""
