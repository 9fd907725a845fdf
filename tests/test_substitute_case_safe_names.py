"""A person's stand-in keeps its length in capitals: an answer that writes "Gieß" as "GIESS"
no longer holds the stand-in, so the real name could not be put back."""

from agent.bench.metrics import bench_conversation


def test_german_surnames_get_stand_ins_that_survive_capitals(privacy_engine):
    text = "Herr Jürgen Weißmann und Frau Erika Strauß haben heute angerufen."
    seen = set()
    for seed in range(60):
        conversation = bench_conversation(f"case-safe-{seed}")
        result = privacy_engine.sanitize(text, conversation)
        restored = privacy_engine.restore(result.sanitized.upper(), conversation).text
        for entity in result.entities:
            if entity.action.value == "replace":
                seen.add(entity.sent)
                assert len(entity.sent.upper()) == len(entity.sent), entity.sent
                assert entity.sent.upper() not in restored, (entity.sent, restored)
    assert len(seen) > 10  # many different stand-ins were tried
