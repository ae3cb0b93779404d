"""Gou Ji (够级) rules engine, pure Python.

Terms, as in docs/rules.md and /shared/spec/gouji-rules.md:
- a *seat* is 1..n, n = the rule set's `players`: six seats with union A on 1, 3, 5 and union B
  on 2, 4, 6 (R1), or eight seats with A on 1–4 and B on 5–8 (R44, D17); `seating.py`;
- the *head rival* (对头) of seat s is the seat opposite, s ± n/2 (R2, R45);
- a *hand* (一手牌) is one play of cards (R6); a *Gou Ji hand* (够级牌) forces the head rival to
  answer (R13); a *point-opening set* (开点) opens a point when the head rival does not beat it (R14).

Modules: `cards` (notation and multisets), `hands` (classify, beat, Gou Ji), `ruleset` (flags and
presets), `settle` (scoring and tributes of a deal outcome), `game` (the `Game` interface).
"""
