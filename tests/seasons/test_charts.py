"""The rating chart says which event each point belongs to: each point is an image named by its
event, round and rating; the x axis is cut at the events' boundaries, each run of rounds
labelled with its event's name, cut to fit (docs/ratings.md, Pages)."""

from __future__ import annotations

import re

from django.utils import translation

from seasons.charts import FONT, fit, rating_chart_svg, text_width


def _steps(*events: tuple[int, str, int]) -> list[dict]:
    """(event id, name, rounds) -> steps, ratings rising by 1 a round."""
    out, r = [], 0.0
    for eid, name, rounds in events:
        for n in range(1, rounds + 1):
            r += 1.0
            out.append({"event_id": eid, "event": name, "number": n, "rating": r})
    return out


def test_each_point_is_named_and_each_event_has_its_boundary_and_label():
    steps = _steps((1, "春季杯", 2), (2, "夏季杯", 3), (3, "秋季杯", 1))
    with translation.override("zh-hans"):
        svg = rating_chart_svg(steps)
    points = re.findall(r'<circle class="rating-point" role="img"[^>]*><title>([^<]*)</title>', svg)
    assert points[0] == "春季杯 第 1 轮：1.0" and points[4] == "夏季杯 第 3 轮：5.0"
    assert len(points) == 6
    assert svg.count('class="event-boundary"') == 2  # between three events
    labels = re.findall(r'class="event-label"[^>]*><title>([^<]*)</title>([^<]*)</text>', svg)
    assert labels == [("春季杯", "春季杯"), ("夏季杯", "夏季杯"), ("秋季杯", "秋季杯")]
    # The points' names reach assistive technology: the chart is a group, not one image.
    assert 'role="group"' in svg and "style=" not in svg and "<script" not in svg


def test_two_events_of_one_name_are_two_runs():
    svg = rating_chart_svg(_steps((1, "周赛", 2), (2, "周赛", 2)))
    assert svg.count('class="event-boundary"') == 1


def test_long_names_are_cut_to_their_runs_width_and_kept_whole_in_the_title():
    name = "2026年青岛市够级公开赛第一站（市南区）"
    steps = _steps((1, name, 4), (2, "Qingdao Gou Ji Open, Leg Two", 4), (3, "<b>", 4))
    svg = rating_chart_svg(steps)
    labels = re.findall(
        r'class="event-label" x="([\d.]+)"[^>]*><title>([^<]*)</title>([^<]*)<', svg
    )
    slot = (360 - 34 - 10) / 12
    for _x, whole, shown in labels[:2]:
        assert shown.endswith("…") and whole.startswith(shown[:-1])
        assert text_width(shown) <= 4 * slot - 6 and len(shown) > 3
    assert labels[2][1:] == ("&lt;b&gt;", "&lt;b&gt;")  # escaped, never markup
    assert "<b>" not in svg


def test_a_run_too_narrow_for_one_character_has_no_label_but_its_points_keep_their_names():
    steps = _steps(*((k, f"赛{k}", 1) for k in range(40)))
    svg = rating_chart_svg(steps)
    assert 'class="event-label"' not in svg
    assert svg.count('class="rating-point"') == 40
    assert svg.count('class="event-boundary"') == 39


def test_fit():
    assert fit("杯赛", 2 * FONT) == "杯赛"
    assert fit("杯赛一二三", 3 * FONT) == "杯赛…"
    assert fit("杯赛", FONT) == ""
    assert fit("Open", 100) == "Open"
