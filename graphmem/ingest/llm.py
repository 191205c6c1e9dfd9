"""The LLM extractor: any OpenAI-compatible chat-completions endpoint, through the memory tools.

The model is shown the turns of one job with the seed's system prompt and few-shot examples
(seed 004 §4.5) and offered ``create_memory`` and ``link_memories`` (``graphmem.tools.TOOLS``).
Its tool calls are checked before anything is written: a reply that is not valid JSON, names an
unknown tool or gives invalid arguments fails the attempt (the job is retried later), so a
half-understood reply never writes half its memories. The validated calls become the job's plan;
the pipeline writes them through the builder, like the rules' plans.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from ..config import LLMSettings
from ..errors import ConfigError, ExtractionError, GraphmemError
from ..textsim import overlap
from .models import EpisodeView, ExtractionPlan, PlannedLink, PlannedMemory

OFFERED_TOOLS = ("create_memory", "link_memories")
MAX_ERROR_BODY = 300

SYSTEM_PROMPT = """你是一个具有记忆能力的AI助手。下面是一段对话记录，请使用以下工具把值得记住的内容写入记忆：
You are an AI assistant with a memory. Below is part of a conversation; record what is worth remembering with these tools:

1. **create_memory**: 创建新记忆 create a memory
   - 当用户告诉你事实、发生的事情、他的观点时使用 (facts, events, opinions the speakers tell)
   - 必须明确指定：主体（谁）、类型（什么类型的记忆）、主题（做什么）
   - 可选指定：客体（什么东西）、属性（时间/地点/原因等）
   - 重要性判断：日常琐事0.3，一般事件0.5，重要事件0.8，关键记忆1.0

2. **link_memories**: 关联记忆 link two memories you created
   - 当用户表达因果关系时使用（因为、所以、导致）：source 是原因, target 是结果 (source = cause, target = effect)
   - 当用户引用之前的事情时使用（基于、关于）

**记忆构建原则 Principles**：
- 时间必须尽可能具体（将"今天"转为实际日期：每条发言都标有它的时间 every turn shows when it was said）
- 主体要明确（区分"我"="用户"和"你"="AI助手"；有名字的说话人用其名字 a named speaker is the subject by name）
- 复杂句子拆分成多条记忆+关联关系 (split complex sentences into several memories plus links)
- 转述的内容要明确来源（使用引用关系）
- 重要性根据内容判断，不是所有事情都重要；没有值得记住的内容时不要调用工具 (call no tool when nothing is worth remembering)
- 用说话人的语言写记忆 (write memories in the speaker's language)

**示例 Examples**：
用户："我昨天去超市买了苹果和香蕉"
→ create_memory({subject:"我", memory_type:"事件", topic:"购物", object:"水果", attributes:{时间:"2025-11-04", 地点:"超市", 物品:"苹果,香蕉"}, importance:0.4})

用户："小明是我的好朋友"
→ create_memory({subject:"我", memory_type:"关系", topic:"朋友关系", object:"小明", attributes:{程度:"好朋友"}, importance:0.7})

用户："我很讨厌下雨天，因为会影响我的心情"
→ create_memory({subject:"我", memory_type:"观点", topic:"讨厌", object:"下雨天", importance:0.6})
→ create_memory({subject:"下雨天", memory_type:"事实", topic:"影响", object:"我的心情", importance:0.5})
→ link_memories({source_memory_description:"下雨天影响心情", target_memory_description:"我讨厌下雨天", relation_type:"因为"})

用户："昨晚我失眠了，所以今天很困，没心情工作" (said on 2025-11-05)
→ create_memory({subject:"我", memory_type:"事件", topic:"失眠", attributes:{时间:"2025-11-04 夜间"}, importance:0.6})
→ create_memory({subject:"我", memory_type:"事实", topic:"身体状态", object:"很困", attributes:{时间:"2025-11-05"}, importance:0.5})
→ create_memory({subject:"我", memory_type:"事实", topic:"工作状态", object:"没心情", attributes:{时间:"2025-11-05"}, importance:0.5})
→ link_memories({source_memory_description:"我失眠", target_memory_description:"我很困", relation_type:"导致"})
→ link_memories({source_memory_description:"我很困", target_memory_description:"我没心情工作", relation_type:"导致"})

用户："小明告诉我他考了满分，但我觉得他在吹牛"
→ create_memory({subject:"小明", memory_type:"事件", topic:"考试", object:"满分", attributes:{来源:"小明本人陈述"}, importance:0.4})
→ create_memory({subject:"我", memory_type:"观点", topic:"怀疑", object:"小明考满分的真实性", attributes:{评价:"可能在吹牛"}, importance:0.5})
→ link_memories({source_memory_description:"小明考试满分", target_memory_description:"我怀疑真实性", relation_type:"基于"})

User: "I went to a support group yesterday and it was so powerful." (Caroline, said on 2023-05-08)
→ create_memory({subject:"Caroline", memory_type:"event", topic:"attend", object:"LGBTQ support group", attributes:{time:"2023-05-07", feeling:"powerful"}, importance:0.6})
"""


def offered_tools() -> list[dict]:
    """create_memory and link_memories from graphmem.tools.TOOLS (imported late: one source)."""
    from ..tools import TOOLS

    tools = [t for t in TOOLS if (t.get("function") or t).get("name") in OFFERED_TOOLS]
    if len(tools) != len(OFFERED_TOOLS):
        raise ConfigError("graphmem.tools.TOOLS lacks create_memory or link_memories")
    return tools


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

    def request(self, episodes: list[EpisodeView]) -> dict:
        body = {
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": "对话记录 Conversation:\n" + transcript(episodes)},
            ],
            "tools": offered_tools(),
            "tool_choice": "auto",
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

    def extract(self, episodes: list[EpisodeView]) -> ExtractionPlan:
        if not episodes:
            return ExtractionPlan()
        return self.plan(self.request(episodes), episodes)

    def plan(self, reply: dict, episodes: list[EpisodeView]) -> ExtractionPlan:
        """Validate every tool call of the reply; any bad one fails the whole attempt."""
        from ..tools import parse_tool_call
        from ..types import LinkInput, MemoryInput, validate

        calls = tool_calls(reply)
        plan = ExtractionPlan(via_tools=True)
        for i, call in enumerate(calls, 1):
            try:
                name, args, _ = parse_tool_call(call)
            except GraphmemError as exc:
                raise ExtractionError(f"the LLM's tool call {i} is invalid: {exc}") from None
            if name not in OFFERED_TOOLS:
                raise ExtractionError(
                    f"the LLM called an unknown tool {name[:80]!r} (call {i}); "
                    f"only {', '.join(OFFERED_TOOLS)} are offered"
                )
            try:
                if name == "create_memory":
                    memory = validate(MemoryInput, args)
                    args = memory.model_dump(mode="json")
                    evidence = attribute(_memory_words(args), episodes)
                    plan.memories.append(
                        PlannedMemory(
                            key=str(i),
                            memory=args,
                            episode_ids=[e.id for e in evidence],
                            reference_time=max(e.timestamp for e in evidence).isoformat(),
                            session_id=evidence[0].session_id or None,
                        )
                    )
                else:
                    link = validate(LinkInput, args)
                    plan.links.append(
                        PlannedLink(
                            source=link.source_memory_description,
                            target=link.target_memory_description,
                            relation_type=link.relation_type.value,
                            importance=link.importance,
                            by_key=False,
                        )
                    )
            except GraphmemError as exc:
                raise ExtractionError(f"the LLM's tool call {i} ({name}) has invalid arguments: {exc}") from None
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


def _memory_words(args: dict) -> str:
    parts = [args.get("subject") or "", args.get("topic") or "", args.get("object") or ""]
    parts += [str(v) for v in (args.get("attributes") or {}).values()]
    return " ".join(p for p in parts if p)


def attribute(text: str, episodes: list[EpisodeView]) -> list[EpisodeView]:
    """The turns a memory most likely came from: the best lexical match (and near-ties); all when none."""
    scored = [(overlap(text, ep.content), ep) for ep in episodes]
    best = max((s for s, _ in scored), default=0.0)
    if best <= 0:
        return list(episodes)
    return [ep for s, ep in scored if s >= 0.8 * best]
