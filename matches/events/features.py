"""The organiser marks tables of a round as feature tables (docs/live-tables.md): their deals
are recorded action by action (an operator's page or a digital table's API) and shown to
spectators behind a delay of 0 to 60 minutes, with all hands or only the cards played.

Each feature table gets its own referee link, the operator's: the link opens the operator's
page and authorises a digital table's API calls (`Authorization: Referee <token>`), for that
table only.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from matches.models import FeatureTable, RefereeLink, Round, Table
from matches.models.live import MAX_DELAY_MINUTES


class FeatureRefused(ValueError):
    """A change the organiser cannot make; the message says why."""


def read_delay(value: object) -> int:
    text = str(value if value is not None else "").strip()
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_DELAY_MINUTES:
        raise FeatureRefused(
            _("延迟须为 0 到 %(most)s 之间的整数分钟") % {"most": MAX_DELAY_MINUTES}
        )
    return int(text)


def read_shows(value: object) -> str:
    if value not in FeatureTable.Shows.values:
        raise FeatureRefused(_("请选择观众可见的内容"))
    return str(value)


@transaction.atomic
def feature_table(table: Table, delay: object, shows: object, user) -> FeatureTable:
    """Mark `table` as a feature table, or change its delay and what spectators see."""
    minutes, seen = read_delay(delay), read_shows(shows)
    if not hasattr(table, "match"):
        raise FeatureRefused(_("这张桌没有对局"))
    feature = FeatureTable.objects.select_for_update().filter(table=table).first()
    if feature is None:
        link = RefereeLink.objects.create(table=table, label=_("直播录入"), created_by=user)
        return FeatureTable.objects.create(
            table=table, delay_minutes=minutes, shows=seen, operator_link=link, created_by=user
        )
    feature.delay_minutes, feature.shows = minutes, seen
    feature.save(update_fields=["delay_minutes", "shows"])
    return feature


@transaction.atomic
def unfeature(feature: FeatureTable) -> None:
    """No longer a feature table. Refused once a deal was recorded there: its log is kept."""
    if feature.deals.exists():
        raise FeatureRefused(_("这张桌已经录入了牌局，不能取消直播"))
    if feature.operator_link is not None:
        feature.operator_link.revoke()
    feature.delete()


def round_features(round_: Round) -> dict[int, FeatureTable]:
    """The round's feature tables by table id."""
    rows = FeatureTable.objects.filter(table__round=round_).select_related("operator_link")
    return {row.table_id: row for row in rows}
