"""The upper bound the computer players are measured against: a player that sees every hand
and the bazar's order (it cheats, so it exists only in the benchmark, never in the bot).

It runs the ``hard`` player's search (``engine.ai.decide_hard``) with the one deal that is
true instead of sampled ones: every legal move is played out on a copy of the real round core
(hands, bazar order and reserve, RULES.md §1.4) to the end of the round with the ``normal``
policy for every seat, the finished round is scored by the variant's hooks and valued in
match terms exactly as ``hard`` values it (``engine.ai._settle``).  The playouts are
deterministic, so one deal is the whole search.  Its goat rate against three ``normal``
players bounds what an honest player of the same search can reach; ``bench/strength.py``
reports the share of the gap between ``normal`` and this bound that each strength closes.
"""

from __future__ import annotations

import random
from typing import Any

from engine import ai
from engine.moves import Move
from engine.table import Table

__all__ = ["decide_bound"]


def decide_bound(state: Any, seat: int, history: list[Any], rng: random.Random | None = None
                 ) -> Move:
    """The cheating player's move for ``seat`` in ``state`` (an :class:`engine.MatchState`
    whose ``to_act`` is ``seat``; ``history`` the round's engine events, as for
    :func:`engine.ai.observe`).  Reads ``state.round`` whole: every hand and the bazar in
    draw order.  Ties go to the ``normal`` choice.  ``rng`` is unused (the search is
    deterministic).  Raises ``ValueError`` when ``seat`` has no decision to make."""
    obs = ai.observe(state, seat, history)
    ai._check(obs)
    moves = obs.legal
    if len(moves) == 1:
        return moves[0]
    side = obs.side
    base = Table.from_state(state.round)  # the true deal: the cheat
    game = ai._own_layout(obs)
    if game is not None:  # the trains, the sausage: their own policy and playouts
        judge = game.judge
        prior = game.prior()

        def run(t: Table, m: Move):
            return game.run(t, m)
    else:
        bel = ai.beliefs(obs)
        know = ai._knowledge(obs, bel)
        judge = ai._Judge(ai._context(obs))
        prior = ai._normal(obs, bel, know, judge)

        def run(t: Table, m: Move):
            return ai._run(t, know.copy(), judge, m)
    best, best_key = 0, None
    for k, m in enumerate(moves):
        t = base.copy()
        vals = run(t, m)
        u = (vals or ai._settle(judge, t))[side]
        key = (round(u, 9), m == prior)
        if best_key is None or key > best_key:
            best, best_key = k, key
    return moves[best]
