"""The LLM extractor: any OpenAI-compatible chat-completions endpoint, one tool call per window.

The model is shown the turns of one job (each numbered, with when and by whom it was said), the
people the group already knows by role, and a prompt that asks for what the offline rules read
(``rules.py``): where people live and work or study and when that changes, relations and people,
likes and dislikes and their negation, possessions, plans, events with their time and place, and
causes. It answers with one call of ``record_memories``, whose arguments are the shared output
schema (``schema.Extraction``: memories with their turn, kind and slot, and causal links by id);
``schema.to_plan`` validates them as it validates the rules' output. A reply that is not valid JSON,
names another tool or breaks the schema fails the attempt (the job is retried later), so a
half-understood reply never writes half its memories.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from ..config import LLMSettings
from ..errors import ConfigError, ExtractionError, GraphmemError
from ..lexicon.readings import KINDS, marked_slots
from .models import EpisodeView, ExtractionPlan
from .people import People
from .schema import extraction_json_schema, to_plan

TOOL_NAME = "record_memories"
MAX_ERROR_BODY = 300

SYSTEM_PROMPT = """你是一个具有记忆能力的AI助手的记忆整理员。You maintain the memory of an AI assistant.
下面是一段对话（每条发言有编号、时间和说话人）。请用一次 record_memories 调用记下值得记住的内容。
Below is part of a conversation (each turn numbered, with its time and speaker). Record what is worth remembering with ONE call of record_memories.

每条记忆 Each memory:
- id: 你起的唯一编号 (m1, m2 …); turn: 说出它的发言编号 (the turn that says it);
- subject / topic / object: 主体（谁）、主题（做什么/什么关系）、客体（什么）。说话人自己是"我"/"I"（有名字的说话人用其名字）。
  The speaker is 我 / I (a named speaker: their name). A person named before or known by role is the subject by NAME:
  "我表妹" / "my cousin" → the cousin's name when known; "她" / "he" → the person last named that it fits.
- memory_type: EVENT 事件 / FACT 事实 / RELATION 关系 / OPINION 观点; importance 0–1 (日常琐事0.3，一般0.5，重要0.8);
- attributes: 时间 time (as said, e.g. 昨天, last month), 地点 place, 频率 how often (a habit: 每天早上, every Saturday; no time),
  起始 since / 时长 duration (从2019年起, since 2019; 三年, for three years) …;
- kind: {KINDS};
- slot: 只对单值信息 only for single-valued facts: {SLOTS}。
  一条"变化"（搬到、入职、换工作、辞职、毕业、分手、离婚, moved to, joined, quit, graduated, broke up）写它改变的 slot；
  ends: true 当它只是结束旧值而没有新值 (辞职了, I quit my job, moved out of, 我们分手了)。
- 否定要保留 keep negation: 我不再喝可乐了 → topic "不再喝", object "可乐"; I no longer eat meat → "no longer eat", "meat".
原因 causes: links [{cause: id, effect: id}] (因为/所以/由于/害得, because/so/that's why)。没有值得记住的内容时，调用 record_memories 并给空列表。
Write memories in the speaker's language. Questions, greetings and small talk give nothing.

示例 Examples:
[1] 我: 我表妹小雯是木匠，她上个月从成都搬到了杭州。
→ {"memories": [
  {"id": "m1", "turn": 1, "kind": "relation", "subject": "我", "memory_type": "RELATION", "topic": "表妹", "object": "小雯", "importance": 0.7},
  {"id": "m2", "turn": 1, "kind": "fact", "subject": "小雯", "memory_type": "FACT", "topic": "是", "object": "木匠"},
  {"id": "m3", "turn": 1, "kind": "residence", "slot": "residence", "subject": "小雯", "memory_type": "EVENT", "topic": "搬到", "object": "杭州", "attributes": {"时间": "上个月"}}],
  "links": []}
[1] 我: 我辞职了，因为通勤太远。下个月入职字节跳动。
→ {"memories": [
  {"id": "m1", "turn": 1, "kind": "work", "slot": "employer", "ends": true, "subject": "我", "memory_type": "EVENT", "topic": "辞职"},
  {"id": "m2", "turn": 1, "kind": "fact", "subject": "我", "memory_type": "FACT", "topic": "通勤", "object": "太远"},
  {"id": "m3", "turn": 1, "kind": "work", "slot": "employer", "subject": "我", "memory_type": "EVENT", "topic": "入职", "object": "字节跳动", "attributes": {"时间": "下个月"}}],
  "links": [{"cause": "m2", "effect": "m1"}]}
[1] Dana: My brother Tom quit coffee last week, so he sleeps much better now.
[2] Dana: He's planning to run a half marathon in Lisbon in May.
→ {"memories": [
  {"id": "m1", "turn": 1, "kind": "relation", "subject": "Dana", "memory_type": "RELATION", "topic": "brother", "object": "Tom", "importance": 0.7},
  {"id": "m2", "turn": 1, "kind": "preference", "subject": "Tom", "memory_type": "OPINION", "topic": "no longer drinks", "object": "coffee", "attributes": {"time": "last week"}},
  {"id": "m3", "turn": 1, "kind": "fact", "subject": "Tom", "memory_type": "FACT", "topic": "sleeps", "object": "much better"},
  {"id": "m4", "turn": 2, "kind": "plan", "subject": "Tom", "memory_type": "EVENT", "topic": "plans to run", "object": "a half marathon", "attributes": {"time": "May", "place": "Lisbon"}}],
  "links": [{"cause": "m2", "effect": "m3"}]}
[1] I: Thanks, that's helpful! What's the weather like tomorrow?
→ {"memories": [], "links": []}
"""
# the kinds and slots it lists are the table of readings' (lexicon/readings.py)
SYSTEM_PROMPT = SYSTEM_PROMPT.replace("{KINDS}", " | ".join(KINDS)).replace(
    "{SLOTS}", ", ".join(f"{r.slot} ({r.gloss})" for r in marked_slots())
)


def offered_tools() -> list[dict]:
    """The one tool the model is offered: record_memories, its parameters the shared schema."""
    return [
        {
            "type": "function",
            "function": {
                "name": TOOL_NAME,
                "description": "Record the memories found in the turns (and causal links between them), all at once.",
                "parameters": _inline(extraction_json_schema()),
            },
        }
    ]


def _inline(schema: dict) -> dict:
    """The schema with its $defs written in place (some endpoints do not follow $ref)."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                return walk(defs[node["$ref"].rsplit("/", 1)[-1]])
            return {k: walk(v) for k, v in node.items() if k not in ("$defs", "title", "description")}
        if isinstance(node, list):
            return [walk(x) for x in node]
        return node

    return walk(schema)


def known_people(people: People | None) -> str:
    """The people the group knows by role, for the prompt: "表妹 = 小雯; cousin = Ruth"."""
    if people is None or not people.roles:
        return ""
    pairs = [f"{role} = {name}" for (_, role), name in people.roles.items()]
    return "已知的人 People known by role: " + "; ".join(pairs[-50:]) + "\n"


def transcript(episodes: list[EpisodeView]) -> str:
    lines = []
    for i, ep in enumerate(episodes, 1):
        who = ep.speaker or ep.role
        if ep.speaker and ep.role not in ("user",):
            who = f"{ep.speaker} ({ep.role})"
        lines.append(f"[{i}] {ep.timestamp.strftime('%Y-%m-%d %H:%M')} {who}: {ep.content}")
    return "\n".join(lines)


class LLMExtractor:
    """``extract(episodes) -> ExtractionPlan`` by one chat-completions request with tools."""

    name = "llm"

    def __init__(self, settings: LLMSettings, *, client: httpx.Client | None = None):
        if not settings.base_url:
            raise ConfigError(
                "the LLM extractor needs an OpenAI-compatible endpoint: set llm.base_url "
                "(and model, api_key) in graphmem.toml or GRAPHMEM_LLM__BASE_URL, "
                "or use the rule-based extractor (--extractor rules)"
            )
        self.settings = settings
        self.url = settings.base_url.rstrip("/") + "/chat/completions"
        self._client = client

    def request(self, episodes: list[EpisodeView], people: People | None = None) -> dict:
        body = {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {
                    "role": "user",
                    "content": known_people(people) + "对话记录 Conversation:\n" + transcript(episodes),
                },
            ],
            "tools": offered_tools(),
            "tool_choice": {"type": "function", "function": {"name": TOOL_NAME}},
            "temperature": 0,
        }
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        timeout = httpx.Timeout(self.settings.timeout_s)
        try:
            if self._client is not None:
                response = self._client.post(self.url, json=body, headers=headers, timeout=timeout)
            else:
                with httpx.Client() as client:
                    response = client.post(self.url, json=body, headers=headers, timeout=timeout)
        except httpx.TimeoutException:
            raise ExtractionError(
                f"the LLM endpoint {self.url} did not answer within "
                f"{self.settings.timeout_s:g}s; the job will be retried"
            ) from None
        except httpx.HTTPError as exc:
            raise ExtractionError(
                f"cannot reach the LLM endpoint {self.url} ({exc.__class__.__name__}: {exc}); the job will be retried"
            ) from None
        if response.status_code >= 400:
            raise ExtractionError(
                f"the LLM endpoint answered HTTP {response.status_code}: {response.text[:MAX_ERROR_BODY]}"
            )
        try:
            return response.json()
        except ValueError:
            raise ExtractionError(f"the LLM endpoint's answer is not JSON: {response.text[:MAX_ERROR_BODY]}") from None

    uses_people = True

    def extract(self, episodes: list[EpisodeView], people: People | None = None) -> ExtractionPlan:
        if not episodes:
            return ExtractionPlan()
        return self.plan(self.request(episodes, people), episodes)

    def plan(self, reply: dict, episodes: list[EpisodeView]) -> ExtractionPlan:
        """The reply's record_memories call, validated as the rules' output is (``schema.to_plan``)."""
        from ..tools import parse_tool_call

        calls = tool_calls(reply)
        if not calls:
            return ExtractionPlan(via_tools=True)
        if len(calls) > 1:
            raise ExtractionError(f"the LLM made {len(calls)} tool calls; one call of {TOOL_NAME} is asked for")
        try:
            name, args, _ = parse_tool_call(calls[0])
        except GraphmemError as exc:
            raise ExtractionError(f"the LLM's tool call is invalid: {exc}") from None
        if name != TOOL_NAME:
            raise ExtractionError(f"the LLM called an unknown tool {name[:80]!r}; only {TOOL_NAME} is offered")
        plan = to_plan(args, episodes)
        plan.via_tools = True
        return plan


def tool_calls(reply: Any) -> list[Any]:
    """The tool calls of a chat-completions reply (also the legacy single function_call)."""
    if not isinstance(reply, dict):
        raise ExtractionError("the LLM's answer is not a chat-completions object")
    choices = reply.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ExtractionError(f"the LLM's answer has no choices: {json.dumps(reply)[:MAX_ERROR_BODY]}")
    message = choices[0].get("message") or {}
    calls = message.get("tool_calls") or []
    if not calls and isinstance(message.get("function_call"), dict):
        calls = [{"function": message["function_call"]}]
    if not isinstance(calls, list):
        raise ExtractionError("the LLM's tool_calls is not a list")
    return calls
