"""Game records: a match as JSON, and replaying it through the engine (README "Game records").

A record holds the rules, the player names, optionally a starting position, and per round the
deal and the decisions in order::

    {
      "rules": {"fish_scoring": "all_to_max"},            # optional, RULES.md option names
      "players": ["Оля", "Петя", "Маша"],
      "start": {"scores": [0, 0, 0], "remembered": [0, 0, 0], "pot": 0},   # optional
      "rounds": [
        {"deal": {"hands": [["1-1", "2-5", ...], ...], "bazar": ["3-4", ...]},
         "decisions": [{"tile": "1-1"}, {"tile": "1-5", "end": "right"}, ...]}
      ]
    }

``start`` arrays are per player, or per team when ``rules.teams``.  A decision may carry
``"host": true``: the host moved for a player whose turn timed out (RULES.md §1.17); its tile
must then be the host's move.  Seats are 0-based indices into ``players``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from . import errors
from .events import MatchEnded, RoundScored
from .match import MatchState, apply, apply_host_move, deal_next, host_move, new_match, start_match
from .round import HAND_SIZE, Move, RoundState, misdeal_reason, start_round
from .rules import Rules
from .tiles import TILE_ID, Tile

__all__ = ["ReplayError", "replay", "replay_json", "record_match", "parse_decision"]


@dataclass
class ReplayError(Exception):
    """A record that cannot be replayed: where (round, decision, both 1-based) and why."""

    message: str
    round_no: int | None = None
    decision_no: int | None = None

    def __str__(self) -> str:
        where = []
        if self.round_no is not None:
            where.append(f"round {self.round_no}")
        if self.decision_no is not None:
            where.append(f"decision {self.decision_no}")
        return (", ".join(where) + ": " if where else "") + self.message


def _tiles(value: Any, what: str) -> list[Tile]:
    if not isinstance(value, list):
        raise ReplayError(f"{what} must be a list of tiles")
    try:
        return [Tile.parse(t) for t in value]
    except ValueError as e:
        raise ReplayError(f"{what}: {e}") from None


def _deal(rnd: dict, players: int, rules: Rules, leader: int | None) -> RoundState:
    deal = rnd.get("deal", rnd)
    hands_raw = deal.get("hands") if isinstance(deal, dict) else None
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise ReplayError(f"deal.hands must list {players} hands")
    hands = [_tiles(h, f"hand {i}") for i, h in enumerate(hands_raw)]
    bazar = _tiles(deal.get("bazar", []), "bazar")
    everything = [t for h in hands for t in h] + bazar
    for i, h in enumerate(hands):
        if len(h) != HAND_SIZE:
            raise ReplayError(f"hand {i} has {len(h)} tiles, not {HAND_SIZE} (RULES.md §1.2)")
    if len(everything) != 28 or len(set(everything)) != 28:
        raise ReplayError("the deal must hold each of the 28 tiles exactly once (RULES.md §1.2)")
    masks = tuple(sum(1 << TILE_ID[t] for t in h) for h in hands)
    void = misdeal_reason(masks)
    if void is not None:
        seat, reason, count, number = void
        what = f"{count} doubles" if reason == "doubles" else f"{count} tiles showing {number}"
        raise ReplayError(f"hand {seat} holds {what}: a misdeal, dealt again (RULES.md §1.3)")
    return start_round(players, masks, tuple(TILE_ID[t] for t in bazar), rules.bazar_reserve,
                       leader, rules.fish_without_double)


def parse_decision(d: Any) -> tuple[Move, bool]:
    """``({"tile": "2-5", "end": "left", "host": false})`` → ``(Move, host)``.

    Raises :class:`ReplayError` for a malformed decision.
    """
    if not isinstance(d, dict) or "tile" not in d:
        raise ReplayError("a decision must be an object with a \"tile\"")
    try:
        tile = Tile.parse(d["tile"])
    except ValueError as e:
        raise ReplayError(str(e)) from None
    end = d.get("end")
    if end is not None and not isinstance(end, str):
        raise ReplayError("\"end\" must be \"left\" or \"right\"")
    return Move(tile, end), bool(d.get("host", False))


def _side_list(value: Any, n: int, what: str) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n or any(
        type(x) is not int or x < 0 for x in value
    ):
        raise ReplayError(f"start.{what} must list {n} non-negative integers")
    return value


def replay(record: dict) -> dict:
    """Replay a record through the engine; return the summary printed by ``replay``.

    Output: ``{"rounds": [{"end", "by", "hand_values", "recorded", "scores", "remembered",
    "pot"}], "finished": bool, "goats": [side...], "rating": [...]}`` — arrays per player,
    or per team when ``rules.teams``; ``goats`` and ``rating`` are empty until the match ends.
    A round whose decisions stop before it ends is not listed.

    Raises :class:`ReplayError` for a malformed record or an illegal decision (the message
    names the rule it breaks).
    """
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    try:
        rules = Rules.from_json(record.get("rules"))
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e)) from None
    names = record.get("players")
    if not isinstance(names, list) or not names:
        raise ReplayError("\"players\" must list the player names")
    players = len(names)
    try:
        rules.check_players(players)
    except ValueError as e:
        raise ReplayError(str(e)) from None
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise ReplayError("\"rounds\" must be a list")
    start = record.get("start") or {}
    if not isinstance(start, dict):
        raise ReplayError("\"start\" must be an object")
    sides = 2 if rules.teams else players
    scores = _side_list(start.get("scores"), sides, "scores")
    remembered = _side_list(start.get("remembered"), sides, "remembered")
    pot = start.get("pot", 0)
    if type(pot) is not int or pot < 0:
        raise ReplayError("start.pot must be a non-negative integer")

    out: list[dict] = []
    state: MatchState | None = None
    leader: int | None = None
    for r_no, rnd in enumerate(rounds, start=1):
        if state is not None and state.finished:
            raise ReplayError("the match is already over (RULES.md §1.15)", r_no)
        if not isinstance(rnd, dict):
            raise ReplayError("a round must be an object", r_no)
        try:
            rs = _deal(rnd, players, rules, leader)
        except ReplayError as e:
            e.round_no = r_no
            raise
        if state is None:
            state = start_match(rules, players, rs, None, scores, remembered, pot)
        else:
            state = deal_next(state, rs)
        decisions = rnd.get("decisions", [])
        if not isinstance(decisions, list):
            raise ReplayError("\"decisions\" must be a list", r_no)
        scored = None
        for d_no, d in enumerate(decisions, start=1):
            try:
                move, host = parse_decision(d)
                if state.to_act is None:
                    raise errors.RoundOver("the round is already over", "RULES.md §1.9, §1.10")
                if host:
                    expected = host_move(state)
                    if move.tile != expected.tile:
                        raise ReplayError(
                            f"a host move plays {expected.tile}, not {move.tile} (RULES.md §1.17)"
                        )
                    state, events = apply_host_move(state, deal=False)
                else:
                    state, events = apply(state, state.to_act, move, deal=False)
            except errors.EngineError as e:
                seat = state.to_act
                raise ReplayError(f"seat {seat}: {e}", r_no, d_no) from None
            except ReplayError as e:
                e.round_no, e.decision_no = r_no, d_no
                raise
            for ev in events:
                if isinstance(ev, RoundScored):
                    scored = ev
        if scored is not None:
            out.append({
                "end": scored.end,
                "by": scored.by,
                "hand_values": list(scored.hand_values),
                "recorded": list(scored.recorded),
                "scores": list(scored.scores),
                "remembered": list(scored.remembered),
                "pot": scored.pot,
            })
            leader = scored.by
        elif r_no != len(rounds):
            raise ReplayError("the round's decisions stop before it ends", r_no)
    finished = bool(state is not None and state.finished)
    result = state.result if state is not None else None
    return {
        "rounds": out,
        "finished": finished,
        "goats": list(result.goats) if result else [],
        "rating": list(result.rating) if result else [],
    }


def replay_json(text: str) -> dict:
    """:func:`replay` of a JSON text; raises :class:`ReplayError` on invalid JSON."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"not valid JSON: {e}") from None
    return replay(record)


def record_match(rules: Rules, names: list[str], seed: object,
                 decisions: list[tuple[Move | None, bool]]) -> dict:
    """The record of a match played from ``seed`` with ``decisions`` in order.

    Each decision is ``(move, False)`` for a player's move or ``(None, True)`` for a host move
    (RULES.md §1.17).  Raises :class:`engine.errors.EngineError` if a decision is illegal.
    """
    state, _ = new_match(rules, len(names), seed)
    rounds: list[dict] = []

    def open_round(s: MatchState) -> None:
        rounds.append({
            "deal": {
                "hands": [[t.code() for t in h] for h in s.hands],
                "bazar": [t.code() for t in s.bazar],
            },
            "decisions": [],
        })

    open_round(state)
    for move, host in decisions:
        before = state.round_no
        if host:
            move = host_move(state)
            state, events = apply_host_move(state)
        else:
            state, events = apply(state, state.to_act, move)
        rounds[-1]["decisions"].append(dict(move.to_dict(), **({"host": True} if host else {})))
        if state.round_no != before and not state.finished:
            open_round(state)
        elif any(isinstance(e, MatchEnded) for e in events):
            break
    return {"rules": rules.to_json(), "players": list(names), "rounds": rounds}
