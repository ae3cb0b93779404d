"""Punctuation in the page's language: Chinese pages join clauses with "；" and list items with
"、", English pages with "; " and ", ". Use these wherever the code joins words it shows."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation


def chinese() -> bool:
    return (translation.get_language() or "").lower().startswith("zh")


def clauses(items: Iterable) -> str:
    """Clauses of one sentence: 有选手再次同邦；组织者手动调整 / …; …"""
    return ("；" if chinese() else "; ").join(str(item) for item in items)


def listed(items: Iterable) -> str:
    """Items of a list: 张三、李四 / Zhang San, Li Si."""
    return ("、" if chinese() else ", ").join(str(item) for item in items)


def labelled(label, text) -> str:
    """A label and what it names: 第 3 桌：… / Table 3: …"""
    return f"{label}{'：' if chinese() else ': '}{text}"


def parenthesised(text) -> str:
    """（…） after Chinese, " (…)" after English."""
    return f"（{text}）" if chinese() else f" ({text})"
