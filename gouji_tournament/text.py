"""Text and ids as they come in.

PostgreSQL refuses a NUL in any text ("cannot contain NUL (0x00) bytes", a 500), and no name or
search is meant to hold a control character (a zone name kept a BEL as typed). SQLite refuses an
integer past 64 bits ("too large to convert to SQLite INTEGER", a 500), where PostgreSQL just
finds nothing. `CleanTextMiddleware` holds both for every page:

- a path with a control character matches no page: 404 (`/entry/%00/` was a 500);
- query parameters lose their control characters, names and values;
- form fields (url-encoded or multipart) lose theirs too, when first read, except tab and line
  breaks, which a text area may hold; files and raw bodies are not touched;
- an `<int:…>` path parameter past a 64-bit id is a 404;
- an id past the database's range met in a query anyway (a query parameter that a view turns
  into an id) is a 404, not a 500; `id_or_404` reads such a parameter the same on both
  databases. A form's record chosen by id (`IdChoiceField`, `IdMultipleChoiceField`) is the
  form's own refusal, "no such choice", on both.

The JSON API is DRF's: its text fields refuse NUL (`ProhibitNullCharactersValidator`).
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.http import Http404, QueryDict

# C0 controls, DEL and C1 controls.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
CONTROL_BUT_LINES = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
ID_MAX = 2**63 - 1  # a BigAutoField; every id column holds at most this
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def strip_controls(text: str, *, keep_lines: bool = False) -> str:
    return (CONTROL_BUT_LINES if keep_lines else CONTROL).sub("", text)


def clean_query_dict(data: QueryDict, *, keep_lines: bool) -> QueryDict | None:
    """A copy without control characters, or None when there were none."""
    if not any(CONTROL.search(k) or any(CONTROL.search(v) for v in vs) for k, vs in data.lists()):
        return None
    clean = QueryDict(mutable=True, encoding=data.encoding)
    for key, values in data.lists():
        clean.setlist(
            strip_controls(key),
            [strip_controls(v, keep_lines=keep_lines) for v in values],
        )
    clean._mutable = False
    return clean


def id_or_404(text: str | None) -> int | None:
    """An id typed in a query parameter: None when empty or not a number, 404 past any id."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    if value > ID_MAX:
        raise Http404("no such id")
    return value or None


def _clean_post_when_read(request) -> None:
    """Form fields are cleaned when something first reads them, not here: a view that reads the
    raw body instead (a JSON batch) must still find it unread."""
    load = request._load_post_and_files

    def load_and_clean():
        load()
        clean = clean_query_dict(request._post, keep_lines=True)
        if clean is not None:
            request._post = clean

    request._load_post_and_files = load_and_clean


def _is_overflow(exception: Exception) -> bool:
    return isinstance(exception, OverflowError) and "SQLite INTEGER" in str(exception)


class CleanTextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if CONTROL.search(request.path):
            raise Http404("no such page")
        clean = clean_query_dict(request.GET, keep_lines=False)
        if clean is not None:
            request.GET = clean
        if request.method == "POST" and request.content_type in FORM_TYPES:
            _clean_post_when_read(request)
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        for value in list(args) + list(kwargs.values()):
            if isinstance(value, int) and value > ID_MAX:
                raise Http404("no such id")
        return None

    def process_exception(self, request, exception):
        if _is_overflow(exception):
            raise Http404("no such id")
        return None


def _past_id_range(value) -> bool:
    text = str(value).strip()
    return text.isascii() and text.isdigit() and int(text) > ID_MAX


class IdChoiceField(forms.ModelChoiceField):
    """A record chosen by id: an id past any column's range is the form's own "no such
    choice", on SQLite too (it raised OverflowError in the query)."""

    def to_python(self, value):
        if _past_id_range(value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class IdMultipleChoiceField(forms.ModelMultipleChoiceField):
    def _check_values(self, value):
        for one in value or ():
            if _past_id_range(one):
                raise ValidationError(
                    self.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": one},
                )
        return super()._check_values(value)
