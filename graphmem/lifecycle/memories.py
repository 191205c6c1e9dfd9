"""Duplicate memories and conflicting ones.

Duplicates: two live memories with the same parts (subject, topic, object nodes, memory type and
attribute values, after concept merging) or the same loose text, of one subject. The older one
survives with the evidence (episodes) and links of both; the newer is archived, naming it.

Conflicts: a newer memory of the same subject that
- gives another value for a single-valued slot (the slot its extractor named, else
  ``rules.slot_of`` of its topic: residence, employer, age …): 我住在北京 → 我搬到上海了,
  I work at Acme → I joined Globex; or ends the slot's value (我辞职了, I quit my job at Acme);
- takes the opposite stance on the same object (``rules.stance``): 喜欢咖啡 → 不喜欢咖啡 / 讨厌咖啡,
  like jazz → no longer like jazz; or stops what the older liked doing (``rules.is_stop``):
  爱喝可乐 → 不再喝可乐, love coffee → no longer drink coffee;
- says it corrects (其实 / actually) the same topic with another object;
- parts with what the older one has (the ``parting`` reading: 我把车卖了 after 我有一辆车, "I sold my car"
  after "I have a car"; "a car" and "my car" one thing by ``topics.thing_key``);
supersedes the older one: a SUPERSEDES edge newer -> older, the older's ``superseded_by`` and
``invalid_at``. Only current memories are superseded, so updates form a chain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from ..lang import USER_KEY
from ..lexicon.readings import BY_ID
from ..lexicon.topics import (
    POSSESSIONS,
    SPEAKERS_OWN,
    is_correction,
    is_parting,
    is_possession,
    is_stance_topic,
    is_stop,
    loose_key,
    slot_of,
    slot_topic_keys,
    stance,
    strip_correction,
    thing_key,
)
from ..store.driver import tx_run
from ..timeparse.stamps import parse_time
from .report import Conflict, MemoryMerge
from .work import Work

_NEVER = datetime.min.replace(tzinfo=UTC)  # a memory without a time sorts first


# the topics a death is written with (the ``death`` reading's topic word in each language)
DEATH_TOPICS = frozenset(loose_key(w) for w in BY_ID["death"].topic.values())
POSSESSION_KEYS = sorted({loose_key(w) for w in POSSESSIONS})


@dataclass
class _Memory:
    id: str
    text: str
    memory_type: str
    said_at: str
    created_at: str
    subject_id: str
    topic_id: str
    topic: str
    object_id: str | None
    object: str | None
    superseded_by: str | None
    importance: float = 0.5
    attributes: dict[str, str] = field(default_factory=dict)
    archived: bool = False
    slot: str | None = None  # the single-valued slot its extractor named (else read from its topic)
    slot_ends: bool = False  # it ends the slot's value (quit, moved out) without giving a new one
    subject: str = ""  # its subject's name as said ("my dog": a death of the speaker's own)

    @classmethod
    def of(cls, r: dict) -> _Memory:
        return cls(
            id=r["id"],
            text=r["text"] or "",
            memory_type=r["memory_type"],
            said_at=r["said_at"] or "",
            created_at=r["created_at"] or "",
            subject_id=r["subject_id"],
            topic_id=r["topic_id"],
            topic=r["topic"] or "",
            object_id=r["object_id"],
            object=r["object"],
            superseded_by=r["superseded_by"],
            importance=float(r["importance"] or 0.0),
            attributes={a["key"]: a["value"] for a in r["attributes"] or [] if a.get("key")},
            slot=r.get("slot"),
            slot_ends=bool(r.get("slot_ends")),
            subject=r.get("subject") or "",
        )

    def slot_name(self) -> str | None:
        """The single-valued slot it states: the one its extractor named, else its topic's."""
        return self.slot or slot_of(strip_correction(self.topic)[0])

    def order(self) -> tuple:
        """When it was said, then written: what "newer" means."""
        return (parse_time(self.said_at) or _NEVER, parse_time(self.created_at) or _NEVER, self.id)

    def parts(self) -> tuple:
        # an event without a time of its own happened when it was told: the same event told on
        # another day is another occurrence, not a duplicate
        day = self.said_at[:10] if self.memory_type == "EVENT" and not self.attributes else None
        return (
            self.subject_id,
            self.topic_id,
            self.object_id,
            self.memory_type,
            tuple(sorted(self.attributes.items())),
            day,
        )

    def object_key(self) -> str | None:
        return loose_key(self.object) if self.object else None


def duplicate_reason(a: _Memory, b: _Memory) -> str | None:
    if a.subject_id != b.subject_id:
        return None
    if a.parts() == b.parts():
        return "same parts"
    if loose_key(a.text) == loose_key(b.text) and a.parts()[-1] == b.parts()[-1]:
        return "same text"
    return None


def conflict_reason(newer: _Memory, older: _Memory) -> str | None:
    """Why ``newer`` replaces ``older`` (same subject assumed), or None."""
    if newer.subject_id != older.subject_id:
        return None
    new_topic, corrects = strip_correction(newer.topic)
    # a correction cue in what the newer memory says (其实是11月2日 / actually it is June 2)
    corrects = corrects or (newer.memory_type == older.memory_type and is_correction(newer.text))
    old_topic, _ = strip_correction(older.topic)
    new_obj, old_obj = newer.object_key(), older.object_key()
    differ = new_obj is not None and old_obj is not None and new_obj != old_obj and newer.object_id != older.object_id
    new_slot, old_slot = newer.slot_name(), older.slot_name()
    if new_slot is not None and new_slot == old_slot and not older.slot_ends:
        # 我辞职了 / I quit my job at Acme; not a value said in the same breath as the ending
        # ("我辞职了，现在在腾讯上班": the new job is what came after it)
        together = newer.said_at and newer.said_at == older.said_at
        if newer.slot_ends and (new_obj is None or not differ) and not together:
            return f"{new_slot} ended: {older.object} ({newer.topic})"
        if differ and not newer.slot_ends:
            return f"{new_slot}: {older.object} → {newer.object}"
    if newer.topic_id == older.topic_id or loose_key(new_topic) == loose_key(old_topic):
        for key, value in newer.attributes.items():
            slot = slot_of(key)
            if slot and key in older.attributes and older.attributes[key] != value:
                return f"{slot}: {older.attributes[key]} → {value}"
    same_object = new_obj is not None and (newer.object_id == older.object_id or new_obj == old_obj)
    if same_object and is_stance_topic(new_topic) and is_stance_topic(old_topic):
        a, b = stance(new_topic), stance(old_topic)
        if a and b and a.base == b.base and a.sign != b.sign:
            return f"stance: {older.topic} → {newer.topic} ({newer.object})"
        if a and b and b.sign > 0 and is_stop(new_topic):  # 我爱喝可乐 → 我不再喝可乐了
            return f"stopped: {older.topic} → {newer.topic} ({newer.object})"
    if corrects and differ and loose_key(new_topic) == loose_key(old_topic):
        return f"correction: {older.object} → {newer.object}"
    if is_parting(new_topic) and is_possession(old_topic) and older.memory_type in ("FACT", "RELATION"):
        if newer.object and older.object and thing_key(newer.object) == thing_key(older.object):
            return f"parted with: {older.object} ({newer.topic})"  # 我把车卖了 ends 我 有 车
    return None


class MemoryReconciler:
    def __init__(self, work: Work):
        self.work = work

    def load(self, group_id: str, ids: list[str]) -> tuple[list[_Memory], list[_Memory]]:
        batch = [_Memory.of(r) for r in self.work.read("lifecycle_batch_memories", group_id=group_id, ids=ids)]
        mine = {m.id for m in batch}
        needs = {m.id: _lookups(m) for m in batch}
        related = [
            _Memory.of(r)
            for r in self.work.read(
                "lifecycle_related_memories",
                group_id=group_id,
                ids=ids,
                topic_keys=slot_topic_keys(),
                object_ids=[i for i, n in needs.items() if "object" in n],
                parting_ids=[i for i, n in needs.items() if "thing" in n],
                possession_keys=POSSESSION_KEYS,
                topic_ids=[i for i, n in needs.items() if "topic" in n],
                slot_ids=[i for i, n in needs.items() if "slot" in n],
            )
            if r["id"] not in mine
        ]
        return batch, related

    def reconcile(
        self, group_id: str, batch: list[_Memory], related: list[_Memory], run_id: str, now: str
    ) -> tuple[list[MemoryMerge], list[Conflict]]:
        """Walk the batch in the order things were said: each memory is first a duplicate of an
        older current one (merged into it), else it may supersede older ones or be superseded
        by newer ones already stored. In that order the outcome does not depend on how the
        memories were cut into batches: "I like jazz" said again after "I no longer like jazz"
        is news, not a duplicate of the first."""
        by_parts: dict[tuple, list[_Memory]] = {}
        by_text: dict[tuple, list[_Memory]] = {}
        index: dict[ConflictKey, list[_Memory]] = {}
        for m in batch + related:
            by_parts.setdefault(m.parts(), []).append(m)
            by_text.setdefault(_text_key(m), []).append(m)
            for key in _conflict_keys(m):
                index.setdefault(key, []).append(m)
        merges: list[MemoryMerge] = []
        conflicts: list[Conflict] = []
        for m in sorted(batch, key=_Memory.order):
            if m.archived:
                continue
            keep = self._duplicate_of(m, by_parts[m.parts()] + by_text[_text_key(m)])
            if keep is not None:
                rows = self.work.write(
                    "lifecycle_merge_memory", group_id=group_id, keep_id=keep.id, dup_id=m.id, run_id=run_id, now=now
                )
                if rows:
                    m.archived = True
                    merges.append(
                        MemoryMerge(
                            survivor_id=keep.id,
                            duplicate_id=m.id,
                            reason=duplicate_reason(m, keep) or "same",
                            text=m.text,
                        )
                    )
                    continue
            wanted = _lookups(m)
            others = {
                id(d): d for key in _conflict_keys(m) if key[1] in wanted for d in index.get(key, []) if d is not m
            }
            pairs = sorted(
                ((m, d) if d.order() < m.order() else (d, m) for d in others.values() if not d.archived),
                key=lambda p: (p[0].order(), p[1].order()),
            )
            for newer, older in pairs:
                if older.superseded_by is not None:
                    continue
                reason = conflict_reason(newer, older)
                if reason is None:
                    continue

                def work(tx, newer=newer, older=older, reason=reason):
                    return tx_run(
                        tx,
                        "lifecycle_supersede",
                        group_id=group_id,
                        newer_id=newer.id,
                        older_id=older.id,
                        reason=reason,
                        run_id=run_id,
                        now=now,
                        invalid_at=newer.said_at or now,
                    )

                if self.work.commit(work):
                    older.superseded_by = newer.id
                    conflicts.append(
                        Conflict(
                            newer_id=newer.id,
                            older_id=older.id,
                            newer_text=newer.text,
                            older_text=older.text,
                            reason=reason,
                        )
                    )
        conflicts += self._ended_by_death(group_id, batch, run_id, now)
        return merges, conflicts

    def _ended_by_death(self, group_id: str, batch: list[_Memory], run_id: str, now: str) -> list[Conflict]:
        """A death (the ``death`` reading's topic) ends what was current of the one who died as
        another's: 我 | 狗 | Max and "I | have | Max" are no longer current once Max passed away;
        said of the speaker's own without a name ("my dog passed away", 我家的猫去世了), what the
        speaker had of that kind ("I | have | a dog")."""
        deaths = {m.id: m for m in batch if not m.archived and loose_key(m.topic) in DEATH_TOPICS}
        if not deaths:
            return []
        things = {i: thing_key(m.subject) if SPEAKERS_OWN.match(m.subject) else None for i, m in deaths.items()}
        items = [{"id": m.id, "subject_id": m.subject_id, "thing": things[m.id]} for m in deaths.values()]
        out: list[Conflict] = []
        rows = self.work.read(
            "lifecycle_ended_by", group_id=group_id, items=items, user_key=USER_KEY, possession_keys=POSSESSION_KEYS
        )
        ended: set[str] = set()
        for r in rows:
            death = deaths[r["newer_id"]]
            if r["older_id"] in ended or (r["by_thing"] and thing_key(r["older_object"] or "") != things[death.id]):
                continue
            ended.add(r["older_id"])
            reason = f"ended: {death.text}"

            def work(tx, r=r, reason=reason, death=death):
                return tx_run(
                    tx,
                    "lifecycle_supersede",
                    group_id=group_id,
                    newer_id=r["newer_id"],
                    older_id=r["older_id"],
                    reason=reason,
                    run_id=run_id,
                    now=now,
                    invalid_at=death.said_at or now,
                )

            if self.work.commit(work):
                out.append(
                    Conflict(
                        newer_id=death.id,
                        older_id=r["older_id"],
                        newer_text=death.text,
                        older_text=r["older_text"] or "",
                        reason=reason,
                    )
                )
        return out

    @staticmethod
    def _duplicate_of(m: _Memory, same: list[_Memory]) -> _Memory | None:
        """The oldest older memory ``m`` repeats that is still current (not archived, not superseded)."""
        older = sorted(
            (
                d
                for d in same
                if d is not m
                and not d.archived
                and d.superseded_by is None
                and d.order() < m.order()
                and duplicate_reason(m, d)
            ),
            key=_Memory.order,
        )
        return older[0] if older else None


def _text_key(m: _Memory) -> tuple:
    return (m.subject_id, loose_key(m.text), m.parts()[-1])


def _lookups(m: _Memory) -> set[str]:
    """Which of ``_conflict_keys`` a memory must look up to find what it may contradict: its
    object when it takes a stance, its topic when it corrects or carries a single-valued
    attribute, its slot when its topic is one. (Every memory is still indexed under all three.)"""
    topic, corrects = strip_correction(m.topic)
    wanted = set()
    if m.slot_name():
        wanted.add("slot")
    if m.object and is_stance_topic(topic):
        wanted.add("object")
    if corrects or is_correction(m.text) or any(slot_of(k) for k in m.attributes):
        wanted.add("topic")
    if m.object and is_parting(topic):
        wanted.add("thing")
    return wanted


ConflictKey = tuple[str, str, str | None]  # (subject id, "topic" | "slot" | "object", its key)


def _conflict_keys(m: _Memory) -> list[ConflictKey]:
    """What two memories must share to be worth comparing for a conflict (one subject, and a
    slot, an object or a topic)."""
    topic, _ = strip_correction(m.topic)
    keys: list[ConflictKey] = [(m.subject_id, "topic", loose_key(topic))]
    slot = m.slot_name()
    if slot:
        keys.append((m.subject_id, "slot", slot))
    if m.object:
        keys.append((m.subject_id, "object", m.object_key()))
        keys.append((m.subject_id, "thing", thing_key(m.object)))
    return keys
