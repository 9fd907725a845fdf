"""Byte counts in words (agent/sizes.py), shared by `veil models` and the settings."""

from agent.sizes import human_size


def test_sizes_in_words():
    assert human_size(None) == "?"
    assert human_size(0) == "0 B"
    assert human_size(1023) == "1023 B"
    assert human_size(1024) == "1 KB"
    assert human_size(812 * 1024 + 300) == "812 KB"
    assert human_size(253 * 1024 * 1024) == "253.0 MB"
    assert human_size(3 * 1024**3 // 2) == "1.5 GB"
    assert human_size(5 * 1024**4) == "5120.0 GB"  # no TB: model files are counted in GB
