"""The English catalogue: every entry translated, none fuzzy, none saying its sentence twice.

Six entries once repeated their sentence four or five times (issue 14); a translation made by
pasting the same text again is caught here whether or not a space separates the copies.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

PO = Path(__file__).resolve().parent.parent / "locale" / "en" / "LC_MESSAGES" / "django.po"


def _unquote(line: str) -> str:
    return line[line.index('"') + 1 : line.rindex('"')].replace('\\"', '"').replace("\\n", "\n")


def entries(text: str) -> list[dict]:
    """Each entry: msgid, its context, plural, msgstrs, flags (a small reader, enough for Django's files)."""
    found = []
    for block in text.split("\n\n"):
        entry: dict[str, Any] = {
            "msgid": "",
            "context": None,
            "plural": None,
            "msgstr": {},
            "flags": set(),
            "obsolete": False,
        }
        current: str | tuple[str, int] | None = None
        for line in block.strip("\n").split("\n"):
            if line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#,"):
                entry["flags"] |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#") or not line.strip():
                continue
            elif line.startswith("msgctxt"):
                current, entry["context"] = "context", _unquote(line)
            elif line.startswith("msgid_plural"):
                current, entry["plural"] = "plural", _unquote(line)
            elif line.startswith("msgid"):
                current, entry["msgid"] = "msgid", _unquote(line)
            elif line.startswith("msgstr"):
                numbered = re.match(r"msgstr(?:\[(\d+)\])?", line)
                assert numbered is not None  # the line starts with msgstr
                index = int(numbered.group(1) or 0)
                current = ("msgstr", index)
                entry["msgstr"][index] = _unquote(line)
            elif line.startswith('"') and current:
                if isinstance(current, tuple):
                    entry["msgstr"][current[1]] += _unquote(line)
                else:
                    entry[current] += _unquote(line)
        if entry["msgid"] and not entry["obsolete"]:
            found.append(entry)
    return found


def repeats_itself(text: str) -> bool:
    """True when the text is one piece said two or more times, or names one sentence twice."""
    text = text.strip()
    if len(text) > 1 and (text + text).find(text, 1) < len(text):
        return True
    sentences = [s.strip() for s in re.split(r"(?<=[.!?。！？])", text) if len(s.strip()) > 12]
    return len(sentences) != len(set(sentences))


def test_the_reader_and_the_check_catch_what_they_must():
    sample = (
        '#, fuzzy\nmsgid "甲"\nmsgstr ""\n"One. One."\n\nmsgid "乙"\nmsgstr ""\n\n'
        'msgctxt "rule name"\nmsgid "甲"\nmsgstr "A"\n'
    )
    first, second, third = entries(sample)
    assert (first["context"], third["context"]) == (None, "rule name")
    assert "fuzzy" in first["flags"] and first["msgstr"][0] == "One. One."
    assert second["msgstr"][0] == ""
    assert repeats_itself("Nothing was imported.Nothing was imported.")
    assert repeats_itself("Fix it and upload again. Then wait. Fix it and upload again.")
    assert not repeats_itself("Round 1 is published: deals cannot change.")
    assert not repeats_itself("Page 2 of 2")


@pytest.fixture(scope="module")
def catalogue():
    return entries(PO.read_text(encoding="utf-8"))


def test_no_translation_is_empty_or_fuzzy(catalogue):
    assert len(catalogue) > 500
    empty = [
        e["msgid"]
        for e in catalogue
        if not e["msgstr"] or any(not s.strip() for s in e["msgstr"].values())
    ]
    fuzzy = [e["msgid"] for e in catalogue if "fuzzy" in e["flags"]]
    assert not empty, empty
    assert not fuzzy, fuzzy


def test_no_translation_repeats_a_sentence(catalogue):
    repeated = [
        e["msgid"] for e in catalogue if any(repeats_itself(s) for s in e["msgstr"].values())
    ]
    assert not repeated, repeated


def test_each_msgid_appears_once(catalogue):
    # The same words in another context (msgctxt: a rule's name, a card) are another message.
    ids = [(e["context"], e["msgid"]) for e in catalogue]
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
