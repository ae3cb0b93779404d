"""`{{ reasons|clauses }}`, `{{ names|listed }}` and `{% list_separator %}`: the page's
language's punctuation (matches/kernel/punctuation.py)."""

from __future__ import annotations

from django import template

from matches.kernel import punctuation

register = template.Library()


@register.filter
def clauses(items) -> str:
    return punctuation.clauses(items)


@register.filter
def listed(items) -> str:
    return punctuation.listed(items)


@register.filter
def parenthesised(text) -> str:
    return punctuation.parenthesised(text)


@register.simple_tag
def list_separator() -> str:
    return "、" if punctuation.chinese() else ", "


@register.simple_tag
def clause_separator() -> str:
    return "；" if punctuation.chinese() else "; "
