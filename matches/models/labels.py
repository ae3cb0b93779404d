"""Labels the app itself writes into the database (a stage it names, a referee link it makes)
are stored as their source text, a key, and shown in the page's language; a name an organiser
typed is shown as typed.

Rows written before this rule hold the English text when an English page wrote them: both the
key and its English translation are recognised."""

from __future__ import annotations

from functools import lru_cache

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as key

#: Every label the app writes or wrote (source texts: zh-hans msgids).
APP_LABELS = (
    key("瑞士制"),
    key("循环赛"),
    key("淘汰赛"),
    key("单败淘汰"),
    key("轮换"),
    key("打印的桌卡"),
    key("结束本轮时催报"),
)

#: A stage without a typed name is called after its format.
STAGE_FORMAT_LABELS = {
    "swiss": key("瑞士制"),
    "round_robin": key("循环赛"),
    "single_elimination": key("淘汰赛"),
}


@lru_cache(maxsize=1)
def _keys_by_text() -> dict[str, str]:
    """Each label's key, and its English text, mapped to the key."""
    with translation.override("en"):
        english = {gettext(label): label for label in APP_LABELS}
    return {**english, **{label: label for label in APP_LABELS}}


def shown(text: str) -> str:
    """`text` as the page shows it: an app-written label in the active language, anything else
    (an organiser's own words) unchanged."""
    label = _keys_by_text().get((text or "").strip())
    return gettext(label) if label else text


def stage_label(stage) -> str:
    if stage.name:
        return shown(stage.name)
    return gettext(STAGE_FORMAT_LABELS.get(stage.format, "")) or stage.get_format_display()
