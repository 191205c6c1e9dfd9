"""The words the house reads by, at the bottom of it: word lists and the pure lookups over them
(``readings``: the table of readings; ``roles``: role words; ``topics``: slot, stance and correction
words; ``forms``: English verb forms). Extraction, consolidation, the write path and search import from
here; this package imports nothing of graphmem above ``types``.
"""


def word_map(table: str) -> dict[str, str]:
    """``"a: x|y, b: z"`` → {x: a, y: a, z: b}: each word after a colon (a | between them) stands for the one
    before it."""
    return {
        w: key.strip()
        for entry in table.split(",")
        for key, _, words in [entry.partition(":")]
        for w in words.strip().split("|")
    }
