"""Detectors: each finds one kind of entity; the registry composes them."""
