"""Fuzz the four document readers: gouji-deal/1 (replay), gouji-outcome/1 (settle), giog-hand/1
(replay) and giog-outcome/1 (check), directly and through the API.

Documents are real ones (played by the self-play bots) mutated anywhere in their tree: a value
replaced by any JSON, a key deleted or added, a list cut, doubled or reversed, the whole thing
wrapped or replaced. Each must give a verdict (a JSON object) or a BadDocument with a message;
never another exception. Through the API: 200 or a 4xx in the error shape, never a 500.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from matches.kernel.engine_errors import BadDocument, RuleViolation
from matches.kernel.games.registry import get_game

GOUJI_DEAL = next(iter(get_game("gouji").selfplay(1, 7)))
GIOG_HAND = next(iter(get_game("giog").selfplay(1, 7)))
GOUJI_OUTCOME = {
    "format": "gouji-outcome/1",
    "rules": "standard",
    "finish": [1, 2, 4, 3, 6, 5],
    "points": [3],
    "declarations": {"1": "clear"},
    "burns": [{"burner": 1, "burned": 2, "outcome": "success"}],
    "suffocated": [],
    "revolution": [],
    "string_three_streak": 0,
}
GIOG_OUTCOME = {
    "format": "giog-outcome/1",
    "players": 4,
    "won": {"1": 16, "2": 8, "3": 0, "4": 8},
    "beheaded": [3],
}

READERS = {
    "gouji-deal/1": (GOUJI_DEAL, lambda doc: get_game("gouji").replay(doc)),
    "gouji-outcome/1": (GOUJI_OUTCOME, lambda doc: get_game("gouji").check_summary(doc)),
    "giog-hand/1": (GIOG_HAND, lambda doc: get_game("giog").replay(doc)),
    "giog-outcome/1": (GIOG_OUTCOME, lambda doc: get_game("giog").check_summary(doc)),
}

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(
        ["A", "10", "3", "burn", "pass", "1", "joker", "gouji-deal/1", "standard", "", "\x00", "𝕏"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def paths(node, prefix=()):
    """Every path (tuple of keys/indices) into a JSON tree, the root included."""
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, prefix + (index,))


def get(node, path):
    for step in path:
        node = node[step]
    return node


@st.composite
def mutated(draw, original):
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(list(paths(doc))))
        kind = draw(
            st.sampled_from(["replace", "delete", "add", "cut", "double", "reverse", "wrap"])
        )
        if not path:
            if kind == "replace":
                doc = draw(JSON)
            elif kind == "wrap":
                doc = [doc]
            continue
        parent, last = get(doc, path[:-1]), path[-1]
        value = parent[last]
        if kind == "replace":
            parent[last] = draw(JSON)
        elif kind == "delete":
            del parent[last]
        elif kind == "add" and isinstance(value, dict):
            value[draw(st.text(max_size=8))] = draw(JSON)
        elif kind == "cut" and isinstance(value, list):
            parent[last] = value[: draw(st.integers(0, max(0, len(value) - 1)))]
        elif kind == "double" and isinstance(value, list):
            parent[last] = value + value
        elif kind == "reverse" and isinstance(value, list):
            parent[last] = value[::-1]
        elif kind == "wrap":
            parent[last] = [value]
    return doc


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def read(reader, doc):
    """The verdict, or None for a clear BadDocument; anything else fails the test."""
    try:
        verdict = reader(doc)
    except BadDocument as bad:
        assert bad.message and isinstance(bad.as_dict(), dict)
        return None
    except RuleViolation as violation:  # allowed by the engine's contract: a rule, a code
        assert violation.code and violation.message
        return None
    assert isinstance(verdict, dict) and isinstance(verdict.get("valid"), bool)
    json.dumps(verdict)  # plain JSON
    return verdict


@pytest.mark.parametrize("name", sorted(READERS))
def test_the_unmutated_documents_are_valid(name):
    original, reader = READERS[name]
    assert read(reader, copy.deepcopy(original))["valid"] is True


@pytest.mark.parametrize("name", sorted(READERS))
def test_mutated_documents_get_a_verdict_or_a_clear_error(name):
    original, reader = READERS[name]

    @given(mutated(original))
    @FUZZ
    def check(doc):
        read(reader, doc)

    check()


@pytest.mark.parametrize("name", sorted(READERS))
def test_any_json_gets_a_verdict_or_a_clear_error(name):
    _original, reader = READERS[name]

    @given(JSON)
    @FUZZ
    def check(doc):
        read(reader, doc)

    check()


API = {"gouji-deal/1": "/api/v1/rules/replay", "gouji-outcome/1": "/api/v1/rules/settle"}


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(API))
def test_mutated_documents_through_the_api_never_500(name):
    original, _reader = READERS[name]
    client = APIClient()

    @given(mutated(original))
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    def check(doc):
        response = client.post(
            API[name], data=json.dumps(doc, allow_nan=True), content_type="application/json"
        )
        assert response.status_code in (200, 400), response.content
        body = response.json()
        assert "valid" in body or "error" in body

    check()


@pytest.mark.django_db
@given(st.binary(max_size=300))
@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
def test_any_bytes_through_the_api_are_a_clear_400(raw):
    response = APIClient().post("/api/v1/rules/settle", data=raw, content_type="application/json")
    assert response.status_code in (200, 400), response.content
    assert "error" in response.json() or "valid" in response.json()


@pytest.mark.django_db
def test_mutated_reports_through_the_result_api_never_500(setup):
    """A referee's app sending a mutated play log and summary: a 4xx in the error shape, or a
    stored report; never a 500 and never more than one final result."""
    from rest_framework.authtoken.models import Token

    from matches.models import DealReport

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=setup.referee).key)
    url = f"/api/v1/tables/{setup.table.pk}/deals/1/reports"

    @given(
        st.one_of(
            mutated({"summary": GOUJI_OUTCOME}),
            mutated({"play_log": GOUJI_DEAL}),
            mutated({"summary": GOUJI_OUTCOME, "play_log": GOUJI_DEAL}),
        )
    )
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    def check(body):
        response = client.post(
            url, data=json.dumps(body, allow_nan=True), content_type="application/json"
        )
        assert response.status_code in (200, 201, 400, 409, 422), response.content
        assert DealReport.objects.final().count() <= 1

    check()
