"""An LLM judge for the consolidator, used only with ``llm.base_url`` set.

Two yes/no questions through any OpenAI-compatible chat-completions endpoint: do two names mean
the same thing (a concept merge whose similarity alone does not decide it), and is one memory
the cause of another (a discovered causal link); and one sentence for what a summary folds. A judge that cannot be reached says no: the
consolidator then does what it does without one, and the run records the error once.
"""

from __future__ import annotations

import logging

import httpx

from ..config import LLMSettings

log = logging.getLogger(__name__)
MAX_SUMMARY = 300  # characters of an LLM-written summary kept

SAME_PROMPT = (
    "判断两个名称是否指同一个事物（同义词、别名、不同写法）。只回答“是”或“否”。\n"
    "Do these two names refer to the same thing (synonyms, aliases, spellings)? Answer yes or no only.\n"
    "A: {a}\nB: {b}"
)
SUMMARY_PROMPT = (
    "把下面这些记忆概括成一句话（用记忆的语言，不要编造）。\n"
    "Summarise these memories in one sentence, in their language, adding nothing.\n{items}"
)
CAUSE_PROMPT = (
    "判断以下两条记忆是否存在因果关系：如果A是B的原因，回答“是”；否则回答“否”。仅回答“是”或“否”。\n"
    "Is memory A a cause of memory B? Answer yes or no only.\nA: {a}\nB: {b}"
)


class LLMJudge:
    def __init__(self, settings: LLMSettings, client: httpx.Client | None = None):
        self.settings = settings
        self.url = (settings.base_url or "").rstrip("/") + "/chat/completions"
        self._client = client or httpx.Client()
        self.failed = False

    def same(self, a: str, b: str) -> bool:
        return self._ask(SAME_PROMPT.format(a=a, b=b))

    def causes(self, a: str, b: str) -> bool:
        return self._ask(CAUSE_PROMPT.format(a=a, b=b))

    def summary(self, texts: list[str]) -> str | None:
        """One sentence for what ``texts`` say, or None (no answer: the rule-based text stays)."""
        answer = self._complete(SUMMARY_PROMPT.format(items="\n".join(f"- {t}" for t in texts)))
        return answer.strip()[:MAX_SUMMARY] or None if answer else None

    def _ask(self, prompt: str) -> bool:
        answer = self._complete(prompt)
        if answer is None:
            return False
        text = answer.strip().casefold()
        return text.startswith("是") or text.startswith("yes")

    def _complete(self, prompt: str) -> str | None:
        if self.failed:
            return None
        headers = {"Content-Type": "application/json"}
        if self.settings.api_key:
            headers["Authorization"] = f"Bearer {self.settings.api_key}"
        body = {"model": self.settings.model, "temperature": 0, "messages": [{"role": "user", "content": prompt}]}
        try:
            response = self._client.post(
                self.url, json=body, headers=headers, timeout=httpx.Timeout(self.settings.timeout_s)
            )
            response.raise_for_status()
            answer = response.json()["choices"][0]["message"]["content"] or ""
        except (httpx.HTTPError, ValueError, KeyError, IndexError, TypeError) as exc:
            log.warning("the LLM judge at %s failed (%s): consolidating without it", self.url, exc)
            self.failed = True
            return None
        return answer
