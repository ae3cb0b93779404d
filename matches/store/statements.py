"""The hottest reads as SQL statements written once, each the twin of one ORM query (its
docstring quotes the query; tests/store/test_statements.py checks every one against it, on
SQLite and PostgreSQL).

The profile of `bench/festival.py` (docs/performance.md) found about a third of a referee's
submit and confirm in Django building the SQL of querysets with deep `select_related` chains:
the same few statements, compiled again for every request. The statements here are written
once per database vendor from the models' own metadata (so a new column is read without a
change here), and their rows become model instances through `Model.from_db`, linked as
`select_related` would link them: callers see exactly what the queryset gave them, with no
query more. Rows written in bulk where `bulk_create`'s per-object work costs too much go
through `insert_rows`. Nothing else in the project writes SQL by hand for the ORM's tables.

What they rely on in Django besides its documented API (check these on a Django upgrade; the
twin tests fail when one changes; CONTRIBUTING.md lists every such place in the project):
- `Model._meta.concrete_fields`, each field's `column` and `attname`, `_meta.db_table`: the
  columns, in the order `from_db` takes them;
- `field.get_col(table)`, `connection.ops.get_db_converters(col)` and
  `field.get_db_converters(connection)`, each converter called as `convert(value, col,
  connection)`: how the ORM turns a column's value into Python's (JSON, datetimes, booleans
  and decimals on SQLite);
- `connection.ops.quote_name`, `connection.vendor`, `connection.features.has_select_for_update`;
- `instance._state.fields_cache[name]`: where `select_related` keeps a related object (a
  forward foreign key under its field's name, a reverse one-to-one under the related name);
- PostgreSQL's `FOR NO KEY UPDATE OF <alias> [SKIP LOCKED]`, the SQL
  `select_for_update(no_key=True, of=("self",), skip_locked=...)` writes (SQLite has no row
  locks: the clause is left out, as the ORM leaves it out).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import EmptyResultSet, FullResultSet
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Q

from matches.models import (
    ComputationRun,
    Confirmation,
    Deal,
    DealReport,
    DealTally,
    Event,
    Match,
    RefereeLink,
    ResultChainEntry,
    Round,
    Stage,
    Table,
)


@dataclass(frozen=True)
class Join:
    """`model` as `alias`, joined `on` (SQL, with the other aliases); attached to the object of
    `parent` as its `attr` (none when empty; and, for a reverse one-to-one, the parent as its
    `back`). `outer`:
    a LEFT JOIN, the object None when no row matches."""

    model: Any  # a model class
    alias: str
    on: str
    parent: str
    attr: str
    back: str = ""
    outer: bool = False


def _columns(model, alias: str) -> tuple[list[str], str, list]:
    """The model's columns in attname order, and each one's converters from the database's
    value to Python's (as the ORM applies them: JSON, datetimes and booleans on SQLite)."""
    concrete = model._meta.concrete_fields
    quote = connection.ops.quote_name
    sql = ", ".join(f"{alias}.{quote(f.column)}" for f in concrete)
    converters = []  # (index, converters, col) of the columns that have any
    for index, field in enumerate(concrete):
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if found:
            converters.append((index, found, col))
    return [f.attname for f in concrete], sql, converters


_BIGINT_MIN, _BIGINT_MAX = -(2**63), 2**63 - 1


class Statement:
    """SELECT `base` and its joins WHERE `where` (with %s parameters) [ORDER BY, LIMIT 1]; with
    `lock`, the base row is locked for the transaction (FOR NO KEY UPDATE OF it, where the
    database has row locks), as `select_for_update(no_key=True, of=("self",))`; with
    `skip_locked` too, a row another transaction holds is not waited for but left out (None),
    as `skip_locked=True`."""

    def __init__(
        self,
        base: Any,
        alias: str,
        joins: list[Join],
        where: str,
        lock: bool = False,
        skip_locked: bool = False,
        order: str = "id",
        limit: int | None = 1,
        flags: tuple[tuple[str, str], ...] = (),
    ):
        self.base, self.alias, self.joins, self.where, self.lock = base, alias, joins, where, lock
        self.skip_locked, self.order, self.limit = skip_locked, order, limit
        self.flags = flags  # (attribute, SQL): a true-or-false column set on the base object

    @cache  # noqa: B019 (one compiled text per database vendor; the statements live forever)
    def _compiled(self, vendor: str):
        layout, selects = [], []
        for model, alias in [(self.base, self.alias)] + [(j.model, j.alias) for j in self.joins]:
            fields, sql, converters = _columns(model, alias)
            layout.append((model, fields, converters))
            selects.append(sql)
        selects += [sql for _name, sql in self.flags]
        quote = connection.ops.quote_name
        sql = f"SELECT {', '.join(selects)} FROM {quote(self.base._meta.db_table)} {self.alias}"
        for j in self.joins:
            kind = "LEFT OUTER JOIN" if j.outer else "INNER JOIN"
            sql += f" {kind} {quote(j.model._meta.db_table)} {j.alias} ON {j.on}"
        sql += f" WHERE {self.where} ORDER BY {self.alias}.{quote(self.order)}"
        if self.limit is not None:
            sql += f" LIMIT {int(self.limit)}"
        if self.lock and connection.features.has_select_for_update:
            sql += f" FOR NO KEY UPDATE OF {self.alias}"
            if self.skip_locked:
                sql += " SKIP LOCKED"
        return sql, layout

    def first(self, params: list):
        found = self.rows(params)
        return found[0][self.alias] if found else None

    def rows(self, params: list) -> list[dict[str, Any]]:
        """Every row: alias -> its model instance (None on the empty side of an outer join),
        linked as `first` links them."""
        if any(isinstance(p, int) and not _BIGINT_MIN <= p <= _BIGINT_MAX for p in params):
            # No row has such an id; the ORM answers these with no row too (a URL's
            # <int:...> takes any number of digits), where the driver would raise.
            return []
        sql, layout = self._compiled(connection.vendor)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [self._objects(row, layout) for row in cursor.fetchall()]

    def _objects(self, row, layout) -> dict[str, Any]:
        objects: dict[str, Any] = {}
        start = 0
        aliases = [self.alias] + [j.alias for j in self.joins]
        for alias, (model, fields, converters) in zip(aliases, layout, strict=True):
            values = list(row[start : start + len(fields)])
            start += len(fields)
            if values[0] is None:  # the primary key: no row on the outer side of a join
                objects[alias] = None
                continue
            for k, found, col in converters:
                for convert in found:
                    values[k] = convert(values[k], col, connection)
            objects[alias] = model.from_db(connection.alias, fields, values)
        for k, (name, _sql) in enumerate(self.flags):
            setattr(objects[self.alias], name, bool(row[start + k]))
        for j in self.joins:
            parent, child = objects[j.parent], objects[j.alias]
            if parent is None or not j.attr:
                continue
            parent._state.fields_cache[j.attr] = child
            if j.back and child is not None:
                child._state.fields_cache[j.back] = parent
        return objects


_LINK = Statement(
    RefereeLink,
    "l",
    [
        Join(Table, "t", "t.id = l.table_id", "l", "table"),
        Join(Round, "r", "r.id = t.round_id", "t", "round"),
        Join(Event, "e", "e.id = r.event_id", "r", "event"),
        Join(Match, "m", "m.table_id = t.id", "t", "match", back="table", outer=True),
    ],
    "l.token = %s",
)


def link_with_table(token: str) -> RefereeLink | None:
    """`RefereeLink.objects.select_related("table__round__event", "table__match")
    .filter(token=token).first()`, in one statement written once."""
    return _LINK.first([token])


_DEAL = Statement(
    Deal,
    "d",
    [
        Join(Match, "m", "m.id = d.match_id", "d", "match"),
        Join(Round, "r", "r.id = m.round_id", "m", "round"),
        Join(Event, "e", "e.id = r.event_id", "r", "event"),
        Join(Stage, "s", "s.id = r.stage_id", "r", "stage"),
        Join(Table, "t", "t.id = m.table_id", "m", "table", outer=True),
    ],
    "d.match_id = %s AND d.number = %s",
    lock=True,
)


def locked_deal(match_id: int, number: int) -> Deal | None:
    """`Deal.objects.select_for_update(no_key=True, of=("self",)).select_related(
    "match__round__event", "match__round__stage", "match__table")
    .filter(match_id=..., number=...).order_by("pk").first()`, in one statement written once:
    the deal row locked for the transaction, its match, round, event, stage and table read."""
    return _DEAL.first([match_id, number])


_PUBLIC_EVENT = Statement(
    Event, "e", [], "e.id = %s AND e.published = %s AND e.archived_at IS NULL"
)


def public_event(event_id: int) -> Event | None:
    """`Event.objects.filter(published=True, archived_at__isnull=True, pk=event_id).first()`
    (`matches.public.visibility.public_events`), in one statement written once: every public page and
    search reads it first."""
    return _PUBLIC_EVENT.first([event_id, True])


_MATCH = Statement(Match, "m", [], "m.id = %s", lock=True, skip_locked=True)


def match_unless_locked(match_id: int) -> Match | None:
    """`Match.objects.select_for_update(no_key=True, of=("self",), skip_locked=True)
    .filter(pk=...).order_by("pk").first()`, written once: the match row, read afresh and locked
    for the transaction, or None when another transaction holds it (a settlement of the match
    in a worker) or it is gone. Never waits: the confirmation that settles its deal itself must
    not wait for a settlement that may wait for the deal's row."""
    return _MATCH.first([match_id])


_MATCH_DEALS = Statement(
    Deal,
    "d",
    [
        Join(DealReport, "r", "r.deal_id = d.id AND r.state = %s", "d", "", outer=True),
        Join(DealTally, "t", "t.deal_id = d.id", "d", "tally", back="deal", outer=True),
    ],
    "d.match_id = %s",
    lock=True,
    skip_locked=True,
    order="number",
    limit=None,
)


def deals_with_finals(match_id: int) -> list[tuple[Deal, DealReport | None, DealTally | None]]:
    """Each deal of the match by number, with its final report and its tally (None when it
    has none), in one statement written once (a deal settled by its confirmation reads them).
    The deal rows are locked for the transaction, and a deal row another transaction holds
    (a referee's new report or a correction, which lock their deal and then wait for the
    report a confirmation holds) is left out, never waited for: the caller then leaves the
    match to the settlement task."""
    return [
        (row["d"], row["r"], row["t"])
        for row in _MATCH_DEALS.rows([DealReport.State.FINAL, match_id])
    ]


@cache
def _report_statement() -> Statement:
    # Built on first use: the user model is known once the apps are loaded.
    return Statement(
        DealReport,
        "r",
        [
            Join(Deal, "d", "d.id = r.deal_id", "r", "deal"),
            Join(Match, "m", "m.id = d.match_id", "d", "match"),
            Join(Round, "ro", "ro.id = m.round_id", "m", "round"),
            Join(Event, "e", "e.id = ro.event_id", "ro", "event"),
            Join(Stage, "s", "s.id = ro.stage_id", "ro", "stage"),
            Join(Table, "t", "t.id = m.table_id", "m", "table", outer=True),
            Join(RefereeLink, "l", "l.id = r.referee_link_id", "r", "referee_link", outer=True),
            Join(
                get_user_model(), "u", "u.id = r.submitted_by_id", "r", "submitted_by", outer=True
            ),
        ],
        "r.id = %s",
        lock=True,
        flags=(
            (
                "confirmed_before",
                f"EXISTS (SELECT 1 FROM {Confirmation._meta.db_table} c WHERE c.report_id = r.id)",
            ),
        ),
    )


def locked_report(report_id: int) -> DealReport | None:
    """`DealReport.objects.select_for_update(no_key=True, of=("self",)).select_related(
    "deal__match__round__event", "deal__match__round__stage", "deal__match__table",
    "referee_link", "submitted_by").annotate(confirmed_before=Exists(Confirmation.objects
    .filter(report=OuterRef("pk")))).filter(pk=...).first()`, in one statement written once
    (the confirmation's report lock)."""
    return _report_statement().first([report_id])


# --- querysets compiled once ---------------------------------------------------------------------


class Compiled:
    """A `values_list` queryset whose SQL Django builds once per database vendor, then runs
    with new parameters: the ORM's own statement and its own converters (so it is its twin by
    construction; tests/store/test_statements.py still compares them). `build(*marks)` makes
    the queryset from marker values, one per parameter: distinct integers or strings that the
    compiled parameters are then searched for, and replaced by the call's values in their
    places. For plain filters on columns (no `__in` list, no expression that rewrites a value;
    each marker within its column's range): a marker not found exactly once raises at the first
    compilation."""

    def __init__(self, build, *marks: int | str, first: bool = False, exists: bool = False):
        self.build, self.marks, self.first, self.exists = build, marks, first, exists

    @cache  # noqa: B019 (one compiled text per database vendor; the statements live forever)
    def _compiled(self, vendor: str):
        queryset = self.build(*self.marks)
        if self.first:
            queryset = queryset[:1]
        query = queryset.query.exists() if self.exists else queryset.query
        compiler = query.get_compiler(connection=connection)
        try:
            sql, params = compiler.as_sql()
        except (EmptyResultSet, FullResultSet) as exc:  # a marker the ORM dropped as out of range
            raise ValueError(f"the markers {self.marks} do not compile to a statement") from exc
        places = []
        for mark in self.marks:
            # isinstance: on PostgreSQL a small integer's parameter is psycopg's Int2 (an int)
            found = [k for k, p in enumerate(params) if isinstance(p, type(mark)) and p == mark]
            if len(found) != 1:
                raise ValueError(
                    f"the marker {mark!r} is in the compiled parameters {len(found)} times"
                )
            places.append(found[0])
        converters = (
            {}
            if self.exists
            else compiler.get_converters([column for column, _sql, _alias in compiler.select])
        )
        return sql, list(params), places, list(converters.items())

    def __call__(self, *values):
        if any(isinstance(v, int) and not _BIGINT_MIN <= v <= _BIGINT_MAX for v in values):
            return False if self.exists else (None if self.first else [])
        sql, params, places, converters = self._compiled(connection.vendor)
        params = list(params)
        for place, value in zip(places, values, strict=True):
            kind = type(params[place])  # int, str, or psycopg's Int2 as the ORM passed it
            params[place] = value if type(value) is kind else kind(value)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        if self.exists:
            return bool(rows)
        if converters:  # as the compiler's `apply_converters`, with this thread's connection
            converted = []
            for row in rows:
                values = list(row)
                for place, (found, expression) in converters:
                    for convert in found:
                        values[place] = convert(values[place], expression, connection)
                converted.append(tuple(values))
            rows = converted
        else:
            rows = [tuple(row) for row in rows]
        if self.first:
            return rows[0] if rows else None
        return rows


# Markers inside every integer column's range (Django leaves a lookup of a value out of its
# column's range out of the statement: a small positive integer field takes 0..32,767).
_EVENT_MARK, _ROUND_MARK = 32_101, 32_102
_DEAL_MARK, _MATCH_MARK, _NUMBER_MARK = 32_103, 32_104, 32_105

_STANDINGS_RUN = Compiled(
    lambda event: ComputationRun.objects.filter(
        event_id=event, task="update_standings", key="standings"
    ).values_list("state", "args"),
    _EVENT_MARK,
    first=True,
)


def standings_run(event_id: int) -> tuple[str, Any] | None:
    """`ComputationRun.objects.filter(event_id=..., task="update_standings", key="standings")
    .values_list("state", "args").first()`, compiled once: every confirmation reads it (is a
    standings run already queued?)."""
    return _STANDINGS_RUN(event_id)


_ROUND_UNFINISHED = Compiled(
    lambda round_: Match.objects.filter(round_id=round_).unfinished(), _ROUND_MARK, exists=True
)


def round_unfinished(round_id: int) -> bool:
    """`Match.objects.filter(round_id=...).unfinished().exists()`, compiled once."""
    return _ROUND_UNFINISHED(round_id)


def _earlier(deal, match=None, number=None):
    wanted = Q(deal=deal)
    if match is not None:
        wanted |= Q(
            deal__match_id=match,
            deal__number=number,
            state__in=(DealReport.State.FINAL, DealReport.State.PENDING),
        )
    return (
        DealReport.objects.filter(wanted)
        .order_by()
        .values_list("pk", "deal_id", "state", "idempotency_key")
    )


_EARLIER = Compiled(_earlier, _DEAL_MARK)
_EARLIER_AND_PREVIOUS = Compiled(_earlier, _DEAL_MARK, _MATCH_MARK, _NUMBER_MARK)


def earlier_reports(
    deal_id: int, previous_of: tuple[int, int] | None = None
) -> list[tuple[int, int, str, str]]:
    """(pk, deal_id, state, idempotency_key) of the deal's reports and, with `previous_of`
    (match id, deal number), of that deal's final or pending reports:
    `DealReport.objects.filter(Q(deal=...) | Q(deal__match_id=..., deal__number=...,
    state__in=(FINAL, PENDING))).order_by().values_list(...)`, compiled once (a submission's
    one read of what came before)."""
    if previous_of is None:
        return _EARLIER(deal_id)
    return _EARLIER_AND_PREVIOUS(deal_id, *previous_of)


# --- the result chain's head, and rows written ------------------------------------------------


def chain_head(event_id: int) -> tuple[int, str] | None:
    """`ResultChainEntry.objects.filter(event_id=...).order_by("-seq")
    .values_list("seq", "digest").first()`, in one statement written once: every accepted
    result reads the head of its event's chain (the ORM spent more CPU compiling the query
    than the database running it, and a compiled queryset costs more than this)."""
    if not _BIGINT_MIN <= event_id <= _BIGINT_MAX:
        return None
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the `connection` proxy looks it up
    with db.cursor() as cursor:
        cursor.execute(_chain_head_sql(db.vendor), [event_id])
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


@cache
def _chain_head_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    column: dict[str, Any] = {f.name: f.column for f in ResultChainEntry._meta.concrete_fields}
    seq, digest, event = (quote(column[name]) for name in ("seq", "digest", "event"))
    return (
        f"SELECT {seq}, {digest} FROM {quote(ResultChainEntry._meta.db_table)} "
        f"WHERE {event} = %s ORDER BY {seq} DESC LIMIT 1"
    )


#: rows written in one INSERT at most; more go through the driver's `executemany`
_ONE_STATEMENT = 100


@lru_cache(maxsize=128)  # one text per table, columns and row count up to _ONE_STATEMENT
def _insert_sql(vendor: str, table: str, columns: tuple[str, ...], count: int) -> str:
    """INSERT of `count` rows, written once per database vendor, table, columns and count."""
    quote = connection.ops.quote_name
    one = "(" + ", ".join(["%s"] * len(columns)) + ")"
    return "INSERT INTO {} ({}) VALUES {}".format(
        quote(table), ", ".join(quote(column) for column in columns), ", ".join([one] * count)
    )


def insert_rows(model: Any, columns: tuple[str, ...], rows: list[tuple]) -> None:
    """`rows` (values in the order of `columns`, as the database takes them) into `model`'s
    table: `bulk_create`'s per-object work was most of the ratings' full recompute and, with
    the ORM compiling it, of the result chain's append. A few rows (the chain's append) go in
    one statement, one round trip; more (the ratings) through the driver's `executemany` of a
    one-row INSERT, 5,000 at a time, which costs PostgreSQL's driver less than long VALUES
    lists. No signal is sent and no default filled in: every column is given."""
    if not rows:
        return
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the `connection` proxy looks it up
    table = model._meta.db_table
    most = db.features.max_query_params
    with db.cursor() as cursor:
        if len(rows) <= _ONE_STATEMENT and (most is None or len(rows) * len(columns) <= most):
            cursor.execute(
                _insert_sql(db.vendor, table, columns, len(rows)),
                [value for row in rows for value in row],
            )
            return
        one = _insert_sql(db.vendor, table, columns, 1)
        for start in range(0, len(rows), 5000):
            cursor.executemany(one, rows[start : start + 5000])
