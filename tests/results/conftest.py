"""A published round with a table ready for results: two unions seated, a referee account, a
referee link, captains with sign-in accounts, an organiser and an outsider (tests/personas.py),
all made by tests/builder.py. `@pytest.mark.tables(n)` gives the round n tables (table 1 is the
one the people below belong to)."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from matches.models import Event, Match, RefereeLink, Round, Table, Union
from tests.builder import EventBuilder
from tests.personas import make_user

# Seats: union A (1-3-5), union B (2-4-6). The finishing orders below are used across tests.
SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}
STRING_THREE_A = {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []}
BAD_FINISH = {"format": "gouji-outcome/1", "finish": [1, 1, 3, 4, 5, 6], "points": []}


@dataclass
class Setup:
    builder: EventBuilder
    event: Event
    round: Round
    table: Table
    match: Match
    union_a: Union
    union_b: Union
    referee: object
    second_referee: object
    link: RefereeLink
    captain_a: object
    captain_b: object
    player_a2: object  # a non-captain member of union A with an account
    organiser: object
    outsider: object
    admin: object

    def match_at(self, table_number: int) -> Match:
        """Another match of the round (with `@pytest.mark.tables(n)`)."""
        return self.builder.match(self.round, table_number)


def make_setup(tables: int = 1, **event_fields) -> Setup:
    """An unpublished event (six deals a match, captains confirm unless `result_confirmation`
    says otherwise) whose round 1 is published with `tables` tables."""
    event_fields.setdefault("published", False)
    b = EventBuilder(unions=2 * tables, deals=event_fields.pop("deals_per_match", 6),
                     **event_fields).register()
    round_ = b.round([(2 * k, 2 * k + 1) for k in range(tables)])
    people = b.people
    match = people.match
    second = make_user("referee2")
    people.table.referees.add(second)
    return Setup(
        builder=b, event=b.event, round=round_, table=people.table, match=match,
        union_a=match.union_a, union_b=match.union_b, referee=people.referee,
        second_referee=second, link=people.referee_link, captain_a=people.captain,
        captain_b=people.captain_b, player_a2=people.player, organiser=people.organiser,
        outsider=people.stranger,
        admin=get_user_model().objects.create_superuser("admin", password="pw-admin"),
    )


@pytest.fixture
def setup(request, db) -> Setup:
    marker = request.node.get_closest_marker("tables")
    return make_setup(tables=marker.args[0] if marker else 1)
