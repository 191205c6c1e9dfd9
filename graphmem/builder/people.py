"""A person the user spoke of by role before naming them (我的上司只有高中学历 … 我的上司叫赵雅琳; "my
coworker's email is …" … "my coworker's name is Sam"): one node from the write that names them.

The user's one in a role, said unnamed, is a node of its own (我上司, my colleague: the reader writes them
so). When the user has named exactly one person in that role (a current RELATION memory of the user's
whose topic is a word of the role), that node is folded into the person's, inside the transaction that
wrote the memory that made it so: the named node survives, the role's words become its alias (a
``:ConceptMerge`` record, so a later 我上司 resolves to the person, a question's 我上司 finds them, and
``graphmem unmerge`` undoes it). With two people named in one role, which one was meant is not known, and
nothing is folded. Consolidation makes the same join for what was written before this existed
(``lifecycle.concepts``).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ..lexicon.roles import role_of, role_words
from ..store.driver import tx_run
from ..types import normalize_name


def unnamed_role(name: str) -> str | None:
    """The canonical role of the user's one said unnamed (我同事, 我的同事, my colleague → 同事 / colleague),
    else None (a name, or someone else's: 小王的同事)."""
    said = name.strip().removeprefix("我").removeprefix("的")
    said = said[3:] if said.lower().startswith("my ") else said
    found = role_of(said) if said and said != name.strip() else None
    return found[0] if found else None


def _unnamed_keys(words: Iterable[str]) -> list[str]:
    """The normalised names the user's one in a role is written with, for each of the role's words."""
    return sorted({normalize_name(f"{mine}{w}") for w in words for mine in ("我", "我的", "my ")})


def roles_touched(memories: Iterable[tuple[str, str, str | None, str, str | None]]) -> set[str]:
    """The canonical roles a write may join a person's nodes in: of each memory (memory type, subject, the
    subject's kind, topic, object), a role the user names someone in (我 | 老板 | 赵雅琳), and the role of
    the user's unnamed one it is about (我上司 | …, … | 我同事)."""
    out = set()
    for memory_type, subject, subject_kind, topic, obj in memories:
        found = role_of(topic) if memory_type == "RELATION" and subject_kind == "user" and obj else None
        if found is not None:
            out.add(found[0])
        out.update(r for r in (unnamed_role(subject), unnamed_role(obj or "")) if r is not None)
    return out


def join_named_roles(tx: Any, group_id: str, roles: set[str], now: str | None = None) -> list[dict]:
    """In the write's transaction ``tx``: fold the user's unnamed one of each role of ``roles`` into the
    one person named in it. The folds made: {role, merged, survivor, merge_id}."""
    if not roles:
        return []
    asked = [
        {
            "role": role,
            "topics": sorted({normalize_name(w) for w in role_words(role)}),
            "unnamed": _unnamed_keys(role_words(role)),
        }
        for role in sorted(roles)
    ]
    done = []
    for row in tx_run(tx, "role_people", group_id=group_id, roles=asked):
        if len(row["named"]) != 1:
            continue
        person = row["named"][0]
        for node in row["unnamed"]:
            if node["id"] == person["id"]:
                continue
            merged = fold(tx, group_id, person, node, f"named later: {node['name']} = {person['name']}", now=now)
            if merged is not None:
                done.append(
                    {"role": row["role"], "merged": node["name"], "survivor": person["name"], "merge_id": merged}
                )
    return done


def fold(
    tx: Any,
    group_id: str,
    keep: dict,
    drop: dict,
    reason: str,
    similarity: float | None = None,
    run_id: str | None = None,
    now: str | None = None,
) -> str | None:
    """Fold the concept node ``drop`` ({id, label}) into ``keep`` ({id}) inside ``tx``, undoably (a
    ``:ConceptMerge`` record keeps what ``drop`` was): the merge record's id, or None when either is gone."""
    props = tx_run(tx, "lifecycle_concept_props", group_id=group_id, id=drop["id"])
    if not props:
        return None
    merge_id = uuid.uuid4().hex
    rows = tx_run(
        tx,
        "lifecycle_merge_concept",
        group_id=group_id,
        label=drop["label"],
        keep_id=keep["id"],
        gone_id=drop["id"],
        merge_id=merge_id,
        props_json=json.dumps(props[0]["props"]),
        undoable=True,
        reason=reason,
        similarity=similarity,
        run_id=run_id,
        now=now or datetime.now(UTC).isoformat(),
    )
    return merge_id if rows else None
