"""Names for the demo events of every game: players' names drawn from common surnames and given
names, and the clubs of a Qingdao club afternoon. The same random generator gives the same names."""

from __future__ import annotations

import random

SURNAMES = "王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚"
CLUBS = ["青岛市北够级协会", "崂山够级俱乐部", "黄岛牌友会", "烟台够级联谊会"]


def person_name(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))
