"""The words the house reads by, at the bottom of it: word lists and the pure lookups over them.

- ``roles``: role words (kin, partners, the people of work and school, pets) with their canonical
  names and genders, role heads (钢琴老师, piano teacher), pronouns, possessives;
- ``topics``: slot words (where someone lives, works, studies …), stance words (like, dislike,
  stop), corrections, and the loose key two names are the same by.

Extraction (``ingest``), consolidation (``lifecycle``), the write path (``builder``) and search
(``retriever``) import from here; this package imports nothing of graphmem above ``types``.
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
