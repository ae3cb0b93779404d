"""The referee's hot path without the ORM's query compiler (issue 28).

The profile of `bench/festival.py` (docs/performance.md) found about a third of a submit's and
a confirm's CPU in Django building the SQL of querysets with deep `select_related` chains:
the same few statements, compiled again for every request. The statements here are written
once, from the models' own metadata (so a new column is read without a change here), and
their rows become model instances through `Model.from_db`, linked as `select_related` would
link them: callers see exactly what the queryset gave them, with no query more.
"""

from __future__ import annotations

from functools import cache

from django.db import connection

from matches.models import Event, Match, RefereeLink, Round, Table


def _columns(model, alias: str) -> tuple[list[str], str, list]:
    """The model's columns in attname order, and each one's converters from the database's
    value to Python's (as the ORM applies them: JSON, datetimes and booleans on SQLite)."""
    concrete = model._meta.concrete_fields
    quote = connection.ops.quote_name
    sql = ", ".join(f"{alias}.{quote(f.column)}" for f in concrete)
    converters = []
    for field in concrete:
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        converters.append((found, col))
    return [f.attname for f in concrete], sql, converters


@cache
def _link_sql(vendor: str) -> tuple[str, list[tuple[type, list[str], list]]]:
    parts = [
        (RefereeLink, "l"),
        (Table, "t"),
        (Round, "r"),
        (Event, "e"),
        (Match, "m"),
    ]
    layout, selects = [], []
    for model, alias in parts:
        fields, sql, converters = _columns(model, alias)
        layout.append((model, fields, converters))
        selects.append(sql)
    quote = connection.ops.quote_name
    link, table, round_, event, match = (m._meta for m, _ in parts)
    sql = (
        f"SELECT {', '.join(selects)} FROM {quote(link.db_table)} l "
        f"INNER JOIN {quote(table.db_table)} t ON t.{quote('id')} = l.{quote('table_id')} "
        f"INNER JOIN {quote(round_.db_table)} r ON r.{quote('id')} = t.{quote('round_id')} "
        f"INNER JOIN {quote(event.db_table)} e ON e.{quote('id')} = r.{quote('event_id')} "
        f"LEFT OUTER JOIN {quote(match.db_table)} m ON m.{quote('table_id')} = t.{quote('id')} "
        f"WHERE l.{quote('token')} = %s LIMIT 1"
    )
    return sql, layout


def link_with_table(token: str) -> RefereeLink | None:
    """`RefereeLink.objects.select_related("table__round__event", "table__match")
    .filter(token=token).first()`, in one precompiled statement."""
    sql, layout = _link_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [token])
        row = cursor.fetchone()
    if row is None:
        return None
    objects = []
    start = 0
    for model, fields, converters in layout:
        values = list(row[start : start + len(fields)])
        start += len(fields)
        if model is Match and values[0] is None:
            objects.append(None)  # no match at this table (the LEFT JOIN found none)
            continue
        for k, (found, col) in enumerate(converters):
            for convert in found:
                values[k] = convert(values[k], col, connection)
        objects.append(model.from_db(connection.alias, fields, values))
    link, table, round_, event, match = objects
    link._state.fields_cache["table"] = table
    table._state.fields_cache["round"] = round_
    round_._state.fields_cache["event"] = event
    table._state.fields_cache["match"] = match
    if match is not None:
        match._state.fields_cache["table"] = table
    return link
