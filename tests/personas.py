"""The people of an event, each a real account with exactly the rights of the role.

- organiser: organises the event (`event.organisers`);
- other_organiser: organises another event, not this one;
- referee: assigned to the table (`table.referees`); `referee_link` is the table's private link;
- captain: captain of union A at the table, with a player account (`captain_b`: of union B;
  `player`: a non-captain member of union A with an account);
- stranger: signed in, no rights at all;
- public: nobody signed in.

`Personas(builder)` makes each one on first use (for the builder's first table unless another
table is given). The fixtures below give them for the event of the `built` fixture: Gou Ji, two
unions, one published round with one table. Passwords are "pw-" + username.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from matches.models import Event, Match, PlayerAccount, RefereeLink, Round, Table, Union
from matches.permissions import Actor

if TYPE_CHECKING:
    from tests.builder import EventBuilder


def signed_in_organiser(client, username: str = "org"):
    """A new account (password "pw") signed in on the test `client`: the organiser of the
    events the test makes with `owned`."""
    user = get_user_model().objects.create_user(username, password="pw")
    client.force_login(user)
    return user


def wizard_rules_step() -> dict:
    """The wizard's rules step as a browser posts it: the standard preset's initial values."""
    from matches.games.gouji.engine.ruleset import PRESETS
    from matches.games.gouji.settings_form import RulesForm

    data = {k: v for k, v in RulesForm.initial_for(PRESETS["standard"]).items() if v is not False}
    return {**data, "step": "rules"}


def owned(user, **kwargs) -> EventBuilder:
    """An event built by `EventBuilder(**kwargs)`, registered, organised by `user`."""
    from tests.builder import EventBuilder

    b = EventBuilder(**kwargs).register()
    b.event.organisers.add(user)
    return b


def english(client) -> None:
    """The test `client`'s next pages in English (the language cookie)."""
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def make_user(name: str, **extra):
    """A user named `name` (or `name-2`, ... when taken), password "pw-" + the username."""
    users = get_user_model()
    username, k = name, 1
    while users.objects.filter(username=username).exists():
        k += 1
        username = f"{name}-{k}"
    return users.objects.create_user(username, password="pw-" + username, **extra)


class Personas:
    ROLES = (
        "organiser",
        "other_organiser",
        "referee",
        "referee_link",
        "captain",
        "captain_b",
        "player",
        "stranger",
        "public",
    )
    SHARED = ("organiser", "other_organiser", "stranger", "public")

    def __init__(self, builder, table=None):
        self.builder = builder
        self._table = table
        self._made: dict = {}  # the roles bound to the table
        self._shared: dict = {}  # the others: one person at every table
        self._tables: dict = {}

    def __getattr__(self, role):
        if role.startswith("_") or role not in self.ROLES:
            raise AttributeError(role)
        made = self._shared if role in self.SHARED else self._made
        if role not in made:
            made[role] = getattr(self, "_make_" + role)()
        return made[role]

    # --- where the roles act ---------------------------------------------------------------

    @property
    def table(self):
        if self._table is None:
            self._table = self.builder.first_match().table
        return self._table

    @property
    def match(self):
        return self.table.match

    def for_table(self, table) -> Personas:
        """The same organiser, with the table-bound roles at another table."""
        if table.pk == self.table.pk:
            return self
        if table.pk not in self._tables:
            other = Personas(self.builder, table)
            other._shared = self._shared
            other._tables = self._tables
            self._tables[table.pk] = other
        return self._tables[table.pk]

    # --- the roles -------------------------------------------------------------------------

    def _make_organiser(self):
        user = make_user("organiser")
        self.builder.event.organisers.add(user)
        return user

    def _make_other_organiser(self):
        user = make_user("other_organiser")
        self.other_event.organisers.add(user)
        return user

    @property
    def other_event(self):
        """The event the other organiser organises (no service makes events: see the builder)."""
        if "other_event" not in self._shared:
            self._shared["other_event"] = Event.objects.create(
                name="别的比赛", start_date=datetime.date(2026, 5, 1)
            )
        return self._shared["other_event"]

    def _make_referee(self):
        user = make_user("referee")
        self.table.referees.add(user)
        return user

    def _make_referee_link(self):
        return RefereeLink.objects.create(table=self.table, created_by=self.organiser)

    def _account(self, name, player):
        """The player's account (one per player, at every table the player sits at)."""
        account = PlayerAccount.objects.select_related("user").filter(player=player).first()
        if account is not None:
            return account.user
        user = make_user(name)
        PlayerAccount.objects.create(user=user, player=player)
        return user

    def _make_captain(self):
        return self._account("captain_a", self.match.union_a.captain)

    def _make_captain_b(self):
        return self._account("captain_b", self.match.union_b.captain)

    def _make_player(self):
        return self._account("a2", self.match.union_a.players_in_order()[1])

    def _make_stranger(self):
        return make_user("outsider")

    def _make_public(self):
        return AnonymousUser()

    # --- as actors of the results service --------------------------------------------------

    def actor(self, role: str) -> Actor:
        person = getattr(self, role)
        if isinstance(person, RefereeLink):
            return Actor.from_link(person)
        if isinstance(person, AnonymousUser):
            return Actor()
        return Actor(user=person)

    def confirmers(self, match):
        """Who may confirm a report at `match`'s table: its captains, then its referee link."""
        people = self.for_table(match.table)
        if self.builder.event.confirmation == Event.Confirmation.CAPTAIN:
            return [people.actor("captain"), people.actor("captain_b")]
        return [people.actor("referee_link")]


# --- one table and everyone around it ---------------------------------------------------------


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
    from tests.builder import EventBuilder

    b = EventBuilder(
        unions=2 * tables, deals=event_fields.pop("deals_per_match", 6), **event_fields
    ).register()
    round_ = b.round([(2 * k, 2 * k + 1) for k in range(tables)])
    people = b.people
    match = people.match
    second = make_user("referee2")
    people.table.referees.add(second)
    return Setup(
        builder=b,
        event=b.event,
        round=round_,
        table=people.table,
        match=match,
        union_a=match.union_a,
        union_b=match.union_b,
        referee=people.referee,
        second_referee=second,
        link=people.referee_link,
        captain_a=people.captain,
        captain_b=people.captain_b,
        player_a2=people.player,
        organiser=people.organiser,
        outsider=people.stranger,
        admin=get_user_model().objects.create_superuser("admin", password="pw-admin"),
    )


@pytest.fixture
def setup(request, db) -> Setup:
    """One table's people (`make_setup`); `@pytest.mark.tables(n)` for n tables."""
    marker = request.node.get_closest_marker("tables")
    return make_setup(tables=marker.args[0] if marker else 1)


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def built(db):
    """A Gou Ji event of two unions, one published round, one table (captains confirm)."""
    from tests.builder import EventBuilder

    b = EventBuilder(unions=2, deals=6).register()
    b.round([(0, 1)])
    return b


@pytest.fixture
def organiser(built):
    return built.people.organiser


@pytest.fixture
def other_organiser(built):
    return built.people.other_organiser


@pytest.fixture
def referee(built):
    return built.people.referee


@pytest.fixture
def referee_link(built):
    return built.people.referee_link


@pytest.fixture
def captain(built):
    return built.people.captain


@pytest.fixture
def stranger(built):
    return built.people.stranger


@pytest.fixture
def public(built):
    return built.people.public
