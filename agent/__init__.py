"""Veil's privacy engine: detect -> decide -> substitute -> restore. Pure Python, no Qt."""

__version__ = "0.1.0"
