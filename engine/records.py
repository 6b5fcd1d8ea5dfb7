"""Game records: a match as JSON, and replaying it through the engine (``docs/ENGINE_API.md``,
"Game records").

A record holds the rules, the player names, optionally a starting position, and per round the
deal and the decisions in order::

    {
      "rules": {"variant": "classic", "fish_scoring": "all_to_max"},   # optional
      "players": ["Оля", "Петя", "Маша"],
      "start": {"scores": [0, 0, 0], "remembered": [0, 0, 0], "pot": 0},   # optional
      "rounds": [
        {"deal": {"hands": [["1-1", "2-5", ...], ...], "bazar": ["3-4", ...]},
         "decisions": [{"tile": "1-1"}, {"tile": "1-5", "end": "right"}, ...]}
      ]
    }

Decisions (RULES.md §2.0.4): ``{"tile": "2-5", "end": "up"}`` (one placement; ``"closed":
true`` face down, ``"along": true`` laid along; a lead lies as it is written, ``"6-5"`` showing
6 at the left end, RULES.md §0), ``{"tiles": [placement, ...]}`` (several tiles at once, e.g.
two doubles), ``{"take": ["2-5"]}`` (Семёрка's blind take, right after the move that made the
7, RULES.md §2.8 rule 5).  A decision may carry ``"host": true``: the host moved for a player
whose turn timed out (RULES.md §1.17); its tiles must then be the host's move.  ``start``
arrays are per side (player, or team when ``rules.teams``); a variant that counts marks
(:attr:`engine.variant.Variant.marks`) may give each by its name, per player or per team as
the mark is counted.  Seats are 0-based indices into ``players``.  A void
round (RULES.md §2.1 rule 6, §2.9 rule 2) is a round of its own, and so is its replay.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import errors
from .events import MatchEnded, RoundScored, Took
from .match import (
    MatchState,
    apply,
    apply_host_move,
    deal_given,
    host_move,
    new_match,
    start_match,
)
from .moves import END_NAMES, Move, Placement
from .rules import Rules
from .table import misdeal_reason
from .tiles import TILE_ID, Tile

__all__ = ["ReplayError", "replay", "replay_json", "record_match", "parse_decision",
           "MAX_RECORD_BYTES"]

#: The largest record text :func:`replay_json` reads [bytes] (a whole match is ~20 KB).
MAX_RECORD_BYTES = 1_000_000


@dataclass
class ReplayError(Exception):
    """A record that cannot be replayed: where (round, decision, both 1-based) and why;
    ``rule`` names the rule an illegal decision breaks (e.g. ``"RULES.md §1.7"``); ``seat``
    (0-based) the seat whose decision or hand it is, and ``kind`` the name of the engine's
    error class for an illegal decision (``"TileNotInHand"``), when known.  ``problem`` names
    what is malformed, for a reader in another language than the message's (``object``,
    ``rules``, ``players``, ``player_count``, ``rounds``, ``start``, ``round``,
    ``decisions``, ``decision``, ``deal``), with ``numbers`` (``player_count``: ``count``,
    ``min``, ``max``); None for an illegal decision and a misdeal, which ``kind`` and
    ``rule`` say."""

    message: str
    round_no: int | None = None
    decision_no: int | None = None
    rule: str | None = None
    seat: int | None = None
    kind: str | None = None
    problem: str | None = None
    numbers: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        where = []
        if self.round_no is not None:
            where.append(f"round {self.round_no}")
        if self.decision_no is not None:
            where.append(f"decision {self.decision_no}")
        return (", ".join(where) + ": " if where else "") + self.message


def _tiles(value: Any, what: str, problem: str = "deal") -> list[Tile]:
    if not isinstance(value, list):
        raise ReplayError(f"{what} must be a list of tiles", problem=problem)
    try:
        return [Tile.parse(t) for t in value]
    except ValueError as e:
        raise ReplayError(f"{what}: {e}", problem=problem) from None


def _deal(rnd: dict, state: MatchState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The hands and bazar of a round's ``deal``, checked (RULES.md §1.2, §1.3)."""
    players = state.players
    v = state.rules.spec
    deal = rnd.get("deal", rnd)
    hands_raw = deal.get("hands") if isinstance(deal, dict) else None
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise ReplayError(f"deal.hands must list {players} hands", problem="deal")
    hands = [_tiles(h, f"hand {i}") for i, h in enumerate(hands_raw)]
    bazar = _tiles(deal.get("bazar", []), "bazar")
    everything = [t for h in hands for t in h] + bazar
    size = v.hand_size(players)
    playing = set(v.playing_seats(state))
    for i, h in enumerate(hands):
        want = size if i in playing else 0
        if len(h) != want:
            raise ReplayError(f"hand {i} has {len(h)} tiles, not {want} "
                              f"(RULES.md {'§1.2' if v.name == 'classic' else v.section})",
                              problem="deal")
    if len(everything) != 28 or len(set(everything)) != 28:
        raise ReplayError("the deal must hold each of the 28 tiles exactly once (RULES.md §1.2)",
                          problem="deal")
    masks = tuple(sum(1 << TILE_ID[t] for t in h) for h in hands)
    void = misdeal_reason(masks)
    if void is not None:
        seat, reason, count, number = void
        what = f"{count} doubles" if reason == "doubles" else f"{count} tiles showing {number}"
        raise ReplayError(f"hand {seat} holds {what}: a misdeal, dealt again (RULES.md §1.3)",
                          seat=seat, kind=reason)
    return masks, tuple(TILE_ID[t] for t in bazar)


def _placement(d: Any) -> Placement:
    if not isinstance(d, dict) or "tile" not in d:
        raise ReplayError("a placement must be an object with a \"tile\"", problem="decision")
    raw = d["tile"]
    try:
        tile = Tile.parse(raw)
    except ValueError as e:
        raise ReplayError(str(e), problem="decision") from None
    flip = False
    if isinstance(raw, str):
        halves = [c for c in raw if c.isdigit()]
        flip = len(halves) == 2 and halves[0] > halves[1]
    elif isinstance(raw, list) and len(raw) == 2:
        flip = raw[0] > raw[1]
    end = d.get("end")
    if end is not None and end not in END_NAMES:
        raise ReplayError(f"\"end\" must be one of {', '.join(END_NAMES)}, not {end!r}",
                          problem="decision")
    for flag in ("closed", "along"):
        if flag in d and not isinstance(d[flag], bool):
            raise ReplayError(f"\"{flag}\" must be true or false", problem="decision")
    return Placement(tile, end, bool(d.get("closed", False)), bool(d.get("along", False)),
                     flip)


def parse_decision(d: Any) -> tuple[Move, bool]:
    """A record decision → ``(Move, host)`` (RULES.md §2.0.4): ``{"tile": "2-5", "end":
    "left", "host": false}`` or ``{"tiles": [...]}``.

    Raises :class:`ReplayError` for a malformed decision.
    """
    if not isinstance(d, dict):
        raise ReplayError("a decision must be an object with a \"tile\" or \"tiles\"",
                          problem="decision")
    host = d.get("host", False)
    if not isinstance(host, bool):
        raise ReplayError("\"host\" must be true or false", problem="decision")
    if "tiles" in d:
        raw = d["tiles"]
        if not isinstance(raw, list) or not raw:
            raise ReplayError("\"tiles\" must list the placements of the move",
                              problem="decision")
        return Move.of(_placement(p) for p in raw), host
    if "tile" not in d:
        raise ReplayError("a decision must be an object with a \"tile\" or \"tiles\"",
                          problem="decision")
    p = _placement(d)
    return Move(p.tile, p.end, closed=p.closed, along=p.along, flip=p.flip), host


def _take(d: Any) -> list[Tile] | None:
    """The tiles of a ``{"take": [...]}`` entry, or None when ``d`` is not one."""
    if isinstance(d, dict) and "take" in d:
        if set(d) - {"take"}:
            raise ReplayError("a take entry holds only \"take\" (RULES.md §2.8 rule 5)",
                              problem="decision")
        return _tiles(d["take"], "take", "decision")
    return None


def _side_list(value: Any, n: int, what: str) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n or any(
        type(x) is not int or x < 0 for x in value
    ):
        raise ReplayError(f"start.{what} must list {n} non-negative integers", problem="start")
    return value


def _round_out(ev: RoundScored) -> dict[str, Any]:
    out = {
        "end": ev.end,
        "by": ev.by,
        "hand_values": list(ev.hand_values),
        "recorded": list(ev.recorded),
        "scores": list(ev.scores),
        "remembered": list(ev.remembered),
        "pot": ev.pot,
    }
    if ev.play_points and any(ev.play_points):
        out["play_points"] = list(ev.play_points)
    if ev.losers:
        out["losers"] = list(ev.losers)
    if ev.extra:
        out.update({k: (list(v) if isinstance(v, tuple) else v) for k, v in ev.extra.items()})
    return out


def replay(record: dict) -> dict:
    """Replay a record through the engine; return the summary printed by ``replay``.

    Output: ``{"rounds": [{"end", "by", "hand_values", "recorded", "scores", "remembered",
    "pot", ...}], "finished": bool, "goats": [side...], "rating": [...]}`` — arrays per
    side; ``goats`` and ``rating`` are empty until the match ends.  Variants add keys
    (``docs/ENGINE_API.md``): per round ``play_points``, ``losers`` and the variant's own;
    at the top ``title``, ``winners``, ``draw`` and what the variant reports
    (:meth:`engine.variant.Variant.report`: the counts of its marks, …).  A
    round whose decisions stop before it ends is not listed.

    Raises :class:`ReplayError` for a malformed record or an illegal decision (the message
    names the rule it breaks).
    """
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object", problem="object")
    try:
        rules = Rules.from_json(record.get("rules"))
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e), problem="rules") from None
    names = record.get("players")
    if not isinstance(names, list) or not names:
        raise ReplayError("\"players\" must list the player names", problem="players")
    players = len(names)
    try:
        rules.check_players(players)
    except ValueError as e:
        lo, hi = rules.spec.players_range(rules)
        raise ReplayError(str(e), problem="player_count",
                          numbers={"count": players, "min": lo, "max": hi}) from None
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise ReplayError("\"rounds\" must be a list", problem="rounds")
    start = record.get("start") or {}
    if not isinstance(start, dict):
        raise ReplayError("\"start\" must be an object", problem="start")
    sides = rules.spec.sides_count(players, rules)
    scores = _side_list(start.get("scores"), sides, "scores")
    remembered = _side_list(start.get("remembered"), sides, "remembered")
    marks = {}  # what the variant counts beside points, by the mark's name
    for mark in rules.spec.marks:
        if mark.name in start:
            marks[mark.name] = _side_list(start.get(mark.name),
                                          players if mark.per == "seat" else sides, mark.name)
    pot = start.get("pot", 0)
    if type(pot) is not int or pot < 0:
        raise ReplayError("start.pot must be a non-negative integer", problem="start")
    try:
        state = start_match(rules, players, None, None, scores, remembered, pot, **marks)
    except ValueError as e:
        raise ReplayError(str(e), problem="start") from None

    out: list[dict] = []
    for r_no, rnd in enumerate(rounds, start=1):
        if state.finished:
            raise ReplayError("the match is already over (RULES.md §1.15)", r_no)
        if not isinstance(rnd, dict):
            raise ReplayError("a round must be an object", r_no, problem="round")
        try:
            hands, bazar = _deal(rnd, state)
            state, _ = deal_given(state, hands, bazar, first=r_no == 1)
        except ReplayError as e:
            e.round_no = r_no
            raise
        except errors.EngineError as e:  # a deal the variant's lead rule refuses
            raise ReplayError(str(e), r_no, rule=e.rule) from None
        decisions = rnd.get("decisions", [])
        if not isinstance(decisions, list):
            raise ReplayError("\"decisions\" must be a list", r_no, problem="decisions")
        scored = None
        d_no = 0
        while d_no < len(decisions):
            d = decisions[d_no]
            d_no += 1
            try:
                if _take(d) is not None:
                    raise ReplayError("a take comes right after the move that made the 7 "
                                      "(RULES.md §2.8 rule 5)", rule="RULES.md §2.8")
                move, host = parse_decision(d)
                take = _take(decisions[d_no]) if d_no < len(decisions) else None
                if take is not None:
                    d_no += 1
                else:
                    take = []  # the record gives no take: a blind take is not guessed
                if state.to_act is None:
                    raise errors.RoundOver("the round is already over", "RULES.md §1.9, §1.10")
                if host:
                    expected = host_move(state)
                    if expected.tiles != move.tiles:
                        raise ReplayError(
                            f"a host move plays {', '.join(map(str, expected.tiles))}, not "
                            f"{', '.join(map(str, move.tiles))} (RULES.md §1.17)",
                            rule="RULES.md §1.17")
                    state, events = apply_host_move(state, deal=False, take=take)
                else:
                    state, events = apply(state, state.to_act, move, deal=False, take=take)
            except errors.EngineError as e:
                seat = state.to_act
                raise ReplayError(f"seat {seat}: {e}", r_no, d_no, e.rule, seat=seat,
                                  kind=type(e).__name__) from None
            except ReplayError as e:
                e.round_no, e.decision_no = r_no, d_no
                if e.seat is None:
                    e.seat = state.to_act
                raise
            for ev in events:
                if isinstance(ev, RoundScored):
                    scored = ev
        if scored is not None:
            out.append(_round_out(scored))
        elif r_no != len(rounds):
            raise ReplayError("the round's decisions stop before it ends", r_no)
    result = state.result
    summary: dict[str, Any] = {
        "rounds": out,
        "finished": result is not None,
        "goats": list(result.goats) if result else [],
        "rating": list(result.rating) if result else [],
    }
    if result is not None:
        if result.title:
            summary["title"] = result.title
        if result.winners:
            summary["winners"] = list(result.winners)
        if result.draw:
            summary["draw"] = True
    summary.update(rules.spec.report(state))
    return summary


def replay_json(text: str | bytes) -> dict:
    """:func:`replay` of a JSON text; raises :class:`ReplayError` on invalid JSON or a text
    over :data:`MAX_RECORD_BYTES`."""
    size = len(text.encode("utf-8")) if isinstance(text, str) else len(text)
    if size > MAX_RECORD_BYTES:
        raise ReplayError(f"the record is {size} bytes; at most {MAX_RECORD_BYTES} are read")
    try:
        record = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ReplayError(f"not valid JSON: {e}") from None
    return replay(record)


def record_match(rules: Rules, names: list[str], seed: object,
                 decisions: list[tuple[Move | None, bool]]) -> dict:
    """The record of a match played from ``seed`` with ``decisions`` in order.

    Each decision is ``(move, False)`` for a player's move or ``(None, True)`` for a host move
    (RULES.md §1.17).  Семёрка's blind takes (RULES.md §2.8 rule 5) are drawn from the seed and
    written as ``{"take": [...]}`` entries.  Raises :class:`engine.errors.EngineError` if a
    decision is illegal.
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
        entry = dict(move.to_dict(), **({"host": True} if host else {}))
        rounds[-1]["decisions"].append(entry)
        for ev in events:
            if isinstance(ev, Took):
                rounds[-1]["decisions"].append({"take": [t.code() for t in ev.tiles]})
        if state.round_no != before and not state.finished:
            open_round(state)
        elif any(isinstance(e, MatchEnded) for e in events):
            break
    return {"rules": rules.to_json(), "players": list(names), "rounds": rounds}
