"""`veil bench`: the evaluation harness (privacy recall, LOPSIDED utility and privacy
error, restore exactness, over-redaction, latency), optionally next to Presidio."""
