"""Minimum-cost perfect matching with strictly ranked criteria.

Each candidate edge carries a tuple of costs, most important first (e.g. rematch, score
difference, seat conflict). The tuple becomes one integer whose digits in a mixed radix are
the criteria: each radix is larger than the largest possible *total* of every criterion below
it, so no amount of a lower criterion can outweigh one unit of a higher one. The matching
itself is Edmonds' blossom algorithm (networkx `max_weight_matching`), exact and O(n^3).
"""

from __future__ import annotations

from typing import Hashable, Sequence, TypeVar

import networkx as nx

from .types import SeatingError

Node = TypeVar("Node", bound=Hashable)
#: an edge's costs, most important first
Costs = tuple[int, ...]


def combine_costs(
    edge_costs: dict[tuple[Node, Node], Costs], pairs_in_matching: int
) -> dict[tuple[Node, Node], int]:
    """Turn {edge: (c1, c2, ...)} into {edge: integer} that ranks c1 strictly above c2, etc."""
    if not edge_costs:
        return {}
    levels = len(next(iter(edge_costs.values())))
    largest = [max(costs[level] for costs in edge_costs.values()) for level in range(levels)]
    # radix[k] must exceed the worst total of level k+1.. over a whole matching.
    combined: dict[tuple[Node, Node], int] = {}
    radices = []
    span = 1
    for level in reversed(range(levels)):
        radices.append(span)
        span *= largest[level] * pairs_in_matching + 1
    radices.reverse()
    for edge, costs in edge_costs.items():
        combined[edge] = sum(cost * radix for cost, radix in zip(costs, radices))
    return combined


def min_cost_perfect_matching(
    nodes: Sequence[Node], edge_costs: dict[tuple[Node, Node], Costs]
) -> list[tuple[Node, Node]] | None:
    """Pair every node at the least lexicographic cost; None when no perfect matching exists.

    `edge_costs` maps (u, v) to a tuple of non-negative integers, most important first.
    Returns [(u, v), ...] with u before v in `nodes` order.
    """
    if len(nodes) % 2:
        raise SeatingError("a perfect matching needs an even number of nodes")
    if not nodes:
        return []
    combined = combine_costs(edge_costs, len(nodes) // 2)
    ceiling = max(combined.values()) + 1
    graph: nx.Graph[Node] = nx.Graph()
    graph.add_nodes_from(nodes)
    for (u, v), cost in combined.items():
        # Maximising (ceiling - cost) among maximum-cardinality matchings = min total cost.
        graph.add_edge(u, v, weight=ceiling - cost)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matched) * 2 != len(nodes):
        return None
    order = {node: index for index, node in enumerate(nodes)}
    pairs = [(u, v) if order[u] < order[v] else (v, u) for u, v in matched]
    return sorted(pairs, key=lambda pair: order[pair[0]])
