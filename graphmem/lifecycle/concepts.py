"""Merging duplicate concept nodes, and undoing a merge.

A name is one ``:Concept`` node whatever roles it plays (its role labels: Subject, Topic, Object,
Value). Which nodes are one concept, in the order of trust:
1. the same loose key (``rules.loose_key``: width, case, punctuation, traditional/simplified):
   ``New-York`` and ``new york``, 臺灣 and 台湾; in any roles, subjects included;
2. for topics and objects that are not subjects, meaning: cosine above ``resolution.merge_threshold``, or above
   ``resolution.context_threshold`` when their memories' contexts agree (two topics of one subject and
   memory type; two objects of one topic), so 苹果 (吃) and 苹果公司 (工作于) stay apart; never
   two names with different numbers (iPhone 14 / iPhone 15, 3月5日 / 5月3日);
3. with an LLM judge, a pair between ``JUDGE_THRESHOLD`` and ``context_threshold`` whose contexts
   agree, when the judge says they name the same thing.
A node that names a subject is merged by loose key only: 小明 and 小红 are close in any embedding
space. One more pair is a person: the node of a role the user spoke of unnamed (我同事, my
colleague) and the one person the user named in that role (我的同事叫李明): the named node
survives, the role's words its alias. With two people named in one role, which one was meant is
not known, and nothing is merged.

The survivor is the node more memories use (then the older, then the smaller id): it keeps its
id. A merge is one transaction: every edge of the merged node is recreated on the survivor with
its type and properties (each naming the node it came from, ``merged_from``), the merged node
is deleted, its role labels and names go to the survivor, and a ``:ConceptMerge`` record keeps
its properties. ``unmerge`` recreates it and moves its edges back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..builder.people import fold, unnamed_role
from ..config import ResolutionSettings
from ..errors import NotFoundError
from ..lexicon.roles import role_of
from ..lexicon.topics import loose_key
from ..textsim import numbers_differ
from ..types import normalize_name
from .report import ConceptMerge
from .work import Work

_INDEX = {"Topic": "topic_embedding", "Object": "object_embedding"}
KEY_PAGE = 5000  # concepts given a loose key per query
CANDIDATES = 5  # nearest concepts read per concept (the vector index is asked for ten times as many)
# with an LLM judge, pairs whose contexts agree and whose cosine lies between this and
# resolution.context_threshold (the grey zone) are merged when the judge says they are the same
JUDGE_THRESHOLD = 0.7


@dataclass
class _Node:
    labels: list[str]  # its role labels: Subject, Topic, Object, Value
    id: str
    name: str
    uses: int
    created_at: str | None

    @property
    def label(self) -> str:
        """The role named in a merge record: the first of its role labels."""
        return self.labels[0] if self.labels else "Concept"

    def by_meaning(self) -> list[str]:
        """The labels whose vector index may find its look-alikes (none for a subject)."""
        return [] if "Subject" in self.labels else [x for x in self.labels if x in _INDEX]

    def rank(self) -> tuple:
        """Survivor order: more memories, older, smaller id."""
        return (-self.uses, self.created_at or "", self.id)


class ConceptMerger:
    def __init__(self, work: Work, settings: ResolutionSettings, judge: Callable[[str, str], bool] | None = None):
        self.work = work
        self.settings = settings
        self.judge = judge

    def key_new_concepts(self, group_id: str) -> int:
        """Give every concept of the group without one its loose key."""
        done = 0
        while True:
            rows = self.work.read("lifecycle_unkeyed_concepts", group_id=group_id, limit=KEY_PAGE)
            if not rows:
                return done
            keyed = [{"label": r["label"], "id": r["id"], "loose_key": loose_key(r["name"] or "")} for r in rows]
            self.work.write("lifecycle_set_loose_keys", group_id=group_id, rows=keyed)
            done += len(keyed)

    def merge_batch(self, group_id: str, memory_ids: list[str], run_id: str) -> list[ConceptMerge]:
        """Find and merge the duplicates of the concepts the batch's memories use."""
        rows = self.work.read("lifecycle_batch_concepts", group_id=group_id, ids=memory_ids)
        known = {r["id"]: _Node(r["labels"], r["id"], r["name"], r["uses"], r["created_at"]) for r in rows}
        mine_ids = list(known)
        pairs: list[tuple[str, str, str, float | None]] = []

        def other(r: dict) -> str:
            known.setdefault(
                r["other_id"],
                _Node(r["other_labels"], r["other_id"], r["other_name"], r["other_uses"], r["other_created_at"]),
            )
            return r["other_id"]

        items = [{"id": r["id"], "loose_key": r["loose_key"] or loose_key(r["name"] or "")} for r in rows]
        for r in self.work.read("lifecycle_loose_matches", group_id=group_id, items=items):
            pairs.append((r["id"], other(r), "same name", None))
        vectored = [
            {"label": label, "id": i, "index": _INDEX[label]} for i in mine_ids for label in known[i].by_meaning()
        ]
        floor = self.settings.context_threshold
        if self.judge is not None:
            floor = min(floor, JUDGE_THRESHOLD)
        if vectored:
            fetch = max(50, CANDIDATES * 10)
            for r in self.work.read(
                "lifecycle_concept_neighbours", group_id=group_id, items=vectored, fetch=fetch, min_cosine=floor
            ):
                mine = known[r["id"]]
                theirs = known.get(r["other_id"]) or known[other(r)]
                verdict = self._by_meaning(mine, theirs, r["cosine"], r["context_agrees"])
                if verdict:
                    pairs.append((mine.id, theirs.id, verdict, round(r["cosine"], 4)))
        merges: list[ConceptMerge] = []
        gone: dict[str, str] = {}  # merged id -> the node it went into
        for unnamed, named in self._named_later(group_id, known):
            merge = self.merge(group_id, named, unnamed, f"named later: {unnamed.name} = {named.name}", None, run_id)
            if merge is not None:
                gone[unnamed.id] = named.id
                named.uses += unnamed.uses
                merges.append(merge)
        # the surest first, then a stable order: a re-run after a crash decides the same way
        pairs.sort(key=lambda p: (p[2] != "same name", -(p[3] or 1.0), min(p[0], p[1]), max(p[0], p[1])))
        for a_id, b_id, reason, similarity in pairs:
            a_id, b_id = _final(gone, a_id), _final(gone, b_id)
            if a_id == b_id:
                continue
            keep, drop = sorted((known[a_id], known[b_id]), key=_Node.rank)
            merge = self.merge(group_id, keep, drop, reason, similarity, run_id)
            if merge is None:
                continue
            gone[drop.id] = keep.id
            keep.uses += drop.uses
            merges.append(merge)
        return merges

    def _named_later(self, group_id: str, known: dict[str, _Node]) -> list[tuple[_Node, _Node]]:
        """(the unnamed node of a role of the user's, the one person named in it), for the roles
        the batch's concepts touch."""
        rows = self.work.read("lifecycle_role_people", group_id=group_id)
        named: dict[str, dict[str, _Node]] = {}
        unnamed: dict[str, list[_Node]] = {}
        for r in rows:
            node = _Node(r["labels"], r["id"], r["name"], r["uses"], r["created_at"])
            if r["what"] == "named":
                role = role_of(r["role"] or "")
                if role is not None:
                    named.setdefault(role[0], {})[node.id] = node
            elif (canonical := unnamed_role(node.name or "")) is not None:
                unnamed.setdefault(canonical, []).append(node)
        pairs = []
        for canonical, nodes in unnamed.items():
            people = named.get(canonical, {})
            if len(people) != 1:
                continue
            person = next(iter(people.values()))
            for node in nodes:
                if node.id != person.id and (node.id in known or person.id in known):
                    known.setdefault(person.id, person)
                    known.setdefault(node.id, node)
                    pairs.append((node, person))
        return pairs

    def _by_meaning(self, mine: _Node, other: _Node, cosine: float, agrees: bool) -> str | None:
        s = self.settings
        if numbers_differ(mine.name, other.name):
            return None
        if cosine > s.merge_threshold:
            return f"meaning {cosine:.2f}"
        if not agrees:
            return None
        if cosine > s.context_threshold:
            return f"meaning {cosine:.2f} in the same context"
        if self.judge is not None and cosine > JUDGE_THRESHOLD and self.judge(mine.name, other.name):
            return f"meaning {cosine:.2f}, judged the same by the LLM"
        return None

    def merge(
        self, group_id: str, keep: _Node, drop: _Node, reason: str, similarity: float | None, run_id: str
    ) -> ConceptMerge | None:
        drop_node = {"id": drop.id, "label": drop.label}
        merge_id = self.work.commit(
            lambda tx: fold(tx, group_id, {"id": keep.id}, drop_node, reason, similarity, run_id)
        )
        if merge_id is None:
            return None
        return ConceptMerge(
            label=drop.label,
            survivor_id=keep.id,
            survivor_name=keep.name,
            merged_id=drop.id,
            merged_name=drop.name,
            reason=reason,
            similarity=similarity,
            merge_id=merge_id,
        )


def _final(gone: dict[str, str], node_id: str) -> str:
    while node_id in gone:
        node_id = gone[node_id]
    return node_id


def find_merge(work: Work, group_id: str, which: str) -> dict:
    """The (not undone) merge record named by its id, the merged node's id, or its name."""
    rows = work.read("lifecycle_merge_of", group_id=group_id, name=which, key=normalize_name(which))
    if not rows:
        raise NotFoundError(
            f"no merge of {which!r} in group {group_id!r} (give a merge id from `graphmem "
            f"consolidate` or `graphmem show`, or the merged name)"
        )
    return rows[0]["merge"]


def unmerge(work: Work, group_id: str, which: str) -> dict[str, Any]:
    """Undo a merge: the merged node comes back with its id, properties and edges."""
    rec = find_merge(work, group_id, which)
    holder = rec["survivor_id"]
    seen = set()
    while holder not in seen:  # the survivor may itself have been merged since: follow it
        seen.add(holder)
        later = work.read("lifecycle_merged_into", group_id=group_id, id=holder)
        if not later:
            break
        holder = later[0]["survivor_id"]
    props = json.loads(rec["merged_props"])
    rows = work.write(
        "lifecycle_unmerge_concept",
        group_id=group_id,
        holder_id=holder,
        merge_id=rec["id"],
        props=props,
        now=datetime.now(UTC).isoformat(),
    )
    if not rows:
        raise NotFoundError(f"merge {rec['id']} cannot be undone: its survivor {holder} is gone")
    return {"merge_id": rec["id"], "label": rec["label"], **rows[0]}
