"""English word forms, asked of a lemmatiser whose tables ship inside its package (``lemminflect``, MIT)
instead of hand tables of irregular verbs: pasts and participles, base, -ing and third-person forms.
Loaded the first time an English clause needs a form."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

_BE = frozenset({"was", "were"})  # a state, never a deed: the past of "be" is no past the reader reads


@lru_cache(maxsize=1)
def _lemminflect() -> Any:
    import lemminflect

    return lemminflect


def _forms(word: str, tag: str) -> set[str]:
    """Every ``tag`` form (VBD, VBN) of the verbs ``word`` may be a form of."""
    li = _lemminflect()
    return {f for lemma in li.getLemma(word, "VERB") for f in li.getAllInflections(lemma, "VERB").get(tag, ())}


@lru_cache(maxsize=16384)
def is_past(verb: str) -> bool:
    """A past form (-ed, went, retook, overcame, read, put), not of "be"."""
    return verb.endswith("ed") or (verb not in _BE and verb in _forms(verb, "VBD"))


@lru_cache(maxsize=16384)
def is_participle(word: str) -> bool:
    """A past participle (-ed, gone, taken, born; got, as American English has it too)."""
    return word.endswith("ed") or word == "got" or word in _forms(word, "VBN")


@lru_cache(maxsize=16384)
def lemma(verb: str) -> str:
    """A verb's base form (loves → love, has → have, watched → watch); the word itself when it is none."""
    return (_lemminflect().getLemma(verb, "VERB") or (verb,))[0]


@lru_cache(maxsize=16384)
def third_person(verb: str) -> str:
    """A base form in the third person present (live → lives, teach → teaches, study → studies)."""
    return (_lemminflect().getInflection(verb, "VBZ") or (verb + "s",))[0]


@lru_cache(maxsize=16384)
def gerund(verb: str) -> str:
    """The -ing form of a verb (smoke → smoking, run → running, lie → lying)."""
    return (_lemminflect().getInflection(verb.lower(), "VBG") or (verb.lower() + "ing",))[0]


@lru_cache(maxsize=16384)
def base_form(word: str) -> str | None:
    """The base form of an -ing word (taking → take, running → run, travelling → travel); None for a
    word that is not one."""
    word = word.lower()
    return lemma(word) if word.endswith("ing") and len(word) >= 5 else None


@lru_cache(maxsize=4096)
def only_adverb(word: str) -> bool:
    """A word known only as an adverb (Usually, Additionally, However, Meanwhile): never a name."""
    return set(_lemminflect().getAllLemmas(word.lower())) == {"ADV"}
