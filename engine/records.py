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
whose turn timed out (RULES.md §1.17); its tiles must then be the host's move.

Мексиканский поезд (RULES.md §2.11 rule 15): tiles of the double-9 or double-12 set
(``"9-12"``); the deal's hands and bazar hold the set without the round's engine; every
placement is an entry ``{"tile": "5-12", "train": 0}`` or ``{"train": "mexican"}`` (``train``
left out where the tile has one legal placement); draws and marks are not written; a turn the
host finished is one ``"host": true`` entry per placement.  Колбаса (§2.12 rule 11): the deal
is ``{"queues": [[14 tiles], [14 tiles]]}``, front first; every placement is an entry, the
forced ones too (they are checked against what the rules force): the lead ``{"tile": "2-5"}``,
``{"tile": "1-0", "line": "a"}``, ``{"tile": "6-6", "line": "a", "at": 2}``, ``{"tile":
"1-0", "cut": 3}``; a tile sent to the back of its queue is not written.  ``start``
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
from .events import RoundScored
from .match import (
    MatchState,
    apply,
    apply_host_move,
    deal_from_seed,
    deal_given,
    host_move,
    start_match,
)
from .moves import END_NAMES, LINES, Move, Placement
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


def _tiles(value: Any, what: str, top: int = 6, problem: str = "deal") -> list[Tile]:
    if not isinstance(value, list):
        raise ReplayError(f"{what} must be a list of tiles", problem=problem)
    try:
        return [Tile.parse(t, top) for t in value]
    except ValueError as e:
        raise ReplayError(f"{what}: {e}", problem=problem) from None


def _deal(rnd: dict, state: MatchState) -> tuple[tuple, tuple[int, ...]]:
    """The hands and bazar of a round's ``deal``, checked (RULES.md §1.2, §1.3); Колбаса's
    queues as tile ids, front first (§2.12 rule 11).  The variant's table checks the rest
    (:class:`engine.errors.InvalidDeal`)."""
    players = state.players
    v = state.rules.spec
    top = state.rules.set
    deal = rnd.get("deal", rnd)
    if v.deal_form == "queues":
        raw = deal.get("queues") if isinstance(deal, dict) else None
        if not isinstance(raw, list) or len(raw) != players:
            raise ReplayError(f"deal.queues must list {players} queues, front first "
                              f"(RULES.md {v.section})", problem="deal")
        queues = tuple(tuple(TILE_ID[t] for t in _tiles(q, f"queue {i}", top))
                       for i, q in enumerate(raw))
        return queues, ()
    hands_raw = deal.get("hands") if isinstance(deal, dict) else None
    if not isinstance(hands_raw, list) or len(hands_raw) != players:
        raise ReplayError(f"deal.hands must list {players} hands", problem="deal")
    hands = [_tiles(h, f"hand {i}", top) for i, h in enumerate(hands_raw)]
    bazar = _tiles(deal.get("bazar", []), "bazar", top)
    everything = [t for h in hands for t in h] + bazar
    if not v.misdeals:  # the variant's table checks its own deal (RULES.md §2.11 rule 2)
        if len(everything) != len(set(everything)):
            raise ReplayError(f"the deal holds a tile twice (RULES.md {v.section})",
                              problem="deal")
        return (tuple(sum(1 << TILE_ID[t] for t in h) for h in hands),
                tuple(TILE_ID[t] for t in bazar))
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


def _placement(d: Any, top: int = 6) -> Placement:
    if not isinstance(d, dict) or "tile" not in d:
        raise ReplayError("a placement must be an object with a \"tile\"", problem="decision")
    raw = d["tile"]
    try:
        tile = Tile.parse(raw, top)
    except ValueError as e:
        raise ReplayError(str(e), problem="decision") from None
    flip = False
    if isinstance(raw, str):
        halves = [int(x) for x in "".join(c if c.isdigit() else " " for c in raw).split()]
        if len(halves) == 1 and len(str(halves[0])) == 2:  # "65": two one-digit halves
            halves = [halves[0] // 10, halves[0] % 10]
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
    train = d.get("train")
    if train is not None and train != "mexican" and (type(train) is not int or train < 0):
        raise ReplayError(f"\"train\" must be a seat (0-based) or \"mexican\", not {train!r} "
                          "(RULES.md §2.11 rule 15)", problem="decision")
    line = d.get("line")
    if line is not None and line not in LINES:
        raise ReplayError(f"\"line\" must be a or b, not {line!r} (RULES.md §2.12 rule 11)",
                          problem="decision")
    at = d.get("at")
    if at is not None and (line is None or type(at) is not int or at < 0):
        raise ReplayError("\"at\" must be a position 0, 1, … with a \"line\" "
                          "(RULES.md §2.12 rule 11)", problem="decision")
    cut = d.get("cut")
    if cut is not None and (type(cut) is not int or cut < 1):
        raise ReplayError(f"\"cut\" must be a position 1, 2, …, not {cut!r} "
                          "(RULES.md §2.12 rule 11)", problem="decision")
    if (end is not None) + (train is not None) + (line is not None) + (cut is not None) > 1:
        raise ReplayError("a placement names one target: \"end\", \"train\", \"line\" or "
                          "\"cut\" (RULES.md §2.10.0)", problem="decision")
    return Placement(tile, end, bool(d.get("closed", False)), bool(d.get("along", False)),
                     flip, train, line, at, cut)


def parse_decision(d: Any, top: int = 6) -> tuple[Move, bool]:
    """A record decision → ``(Move, host)`` (RULES.md §2.0.4): ``{"tile": "2-5", "end":
    "left", "host": false}`` or ``{"tiles": [...]}``; on the trains ``{"tile": "5-12",
    "train": 0}`` (§2.11 rule 15), on the sausage ``{"tile": "6-6", "line": "a", "at": 2}``
    or ``{"tile": "0-1", "cut": 3}`` (§2.12 rule 11).  ``top``: the set's highest number
    (RULES.md §2.10: 6, 9 or 12).

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
        return Move.of(_placement(p, top) for p in raw), host
    if "tile" not in d:
        raise ReplayError("a decision must be an object with a \"tile\" or \"tiles\"",
                          problem="decision")
    p = _placement(d, top)
    return Move.of((p,)), host


def _placements(events: list, *, forced: bool) -> list[list[Any]]:
    """The decisions in ``events`` up to the round's end, as the ``led``/``played`` events
    of each (a move of several tiles is one event per tile, ``part`` 0, 1, …), that were
    (``forced`` True) or were not placed by the rules without a decision."""
    out: list[list[Any]] = []
    for ev in events:
        if ev.kind == "round_scored":
            break
        if ev.kind in ("led", "played") and bool(ev.forced) == forced:
            if ev.kind == "played" and ev.part and out:
                out[-1].append(ev)
            else:
                out.append([ev])
    return out


def _placement_of(ev: Any) -> Placement:
    """The placement of a ``led`` or ``played`` event."""
    if ev.kind == "led":
        return Placement(ev.tile, flip=ev.flip)
    return Placement(ev.tile, ev.end, ev.closed, ev.along, False, ev.train, ev.line, ev.at,
                     ev.cut)


def _entry(group: list[Any]) -> dict[str, Any]:
    """The record entry of one decision's placement events (RULES.md §2.0.4, §2.11 rule 15,
    §2.12 rule 11)."""
    return Move.of(_placement_of(ev) for ev in group).to_dict()


def _same(ev: Any, d: Any, top: int) -> bool:
    """Whether record entry ``d`` (not a host move) names the placement of event ``ev``: the
    same tile, and the same target where the entry names one."""
    try:
        move, host = parse_decision(d, top)
    except ReplayError:
        return False
    if host or len(move) != 1 or move.tile != ev.tile:
        return False
    p = move[0]
    if ev.kind == "led":
        return p.end is None and p.train is None and p.line is None and p.cut is None
    want = (ev.end, ev.train, ev.line, ev.at, ev.cut)
    got = (p.end, p.train, p.line, p.at, p.cut)
    if got == (None,) * 5:
        return True
    if p.line is not None and p.at is not None and ev.line == p.line and ev.at is None:
        return True  # a double at a line's end written with its position (§2.12 rule 11)
    return got == want


def _forced(events: list, decisions: list, d_no: int, r_no: int, top: int) -> int:
    """Check the placements the rules made without a decision (Колбаса's lead and turns
    with one placement, RULES.md §2.12 rules 6, 11) against the record's next entries;
    returns the index after them.  A record whose entries stop there is left as it is."""
    for group in _placements(events, forced=True):
        ev = group[0]
        if d_no >= len(decisions):
            break
        d_no += 1
        if not _same(ev, decisions[d_no - 1], top):
            raise ReplayError(
                f"the rules place {ev.tile} here at once ({_entry(group)}), not "
                f"{decisions[d_no - 1]!r} (RULES.md §2.12 rule 6)", r_no, d_no,
                "RULES.md §2.12", seat=ev.seat)
    return d_no


def _take(d: Any) -> list[Tile] | None:
    """The tiles of a ``{"take": [...]}`` entry, or None when ``d`` is not one."""
    if isinstance(d, dict) and "take" in d:
        if set(d) - {"take"}:
            raise ReplayError("a take entry holds only \"take\" (RULES.md §2.8 rule 5)",
                              problem="decision")
        return _tiles(d["take"], "take", problem="decision")
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
            state, dealt = deal_given(state, hands, bazar, first=r_no == 1)
        except ReplayError as e:
            e.round_no = r_no
            raise
        except errors.EngineError as e:  # a deal the variant's lead rule refuses
            raise ReplayError(str(e), r_no, rule=e.rule) from None
        decisions = rnd.get("decisions", [])
        if not isinstance(decisions, list):
            raise ReplayError("\"decisions\" must be a list", r_no, problem="decisions")
        top = rules.set
        scored = next((ev for ev in dealt if isinstance(ev, RoundScored)), None)
        d_no = _forced(dealt, decisions, 0, r_no, top)
        while d_no < len(decisions):
            d = decisions[d_no]
            d_no += 1
            try:
                if _take(d) is not None:
                    raise ReplayError("a take comes right after the move that made the 7 "
                                      "(RULES.md §2.8 rule 5)", rule="RULES.md §2.8")
                move, host = parse_decision(d, top)
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
                    # a turn of several decisions: the host's later placements follow, one
                    # "host" entry each (RULES.md §2.11 rules 14–15)
                    for group in _placements(events, forced=False)[1:]:
                        ev = group[0]
                        nxt = decisions[d_no] if d_no < len(decisions) else None
                        d_no += 1
                        got, again = parse_decision(nxt, top) if nxt is not None else (None,
                                                                                       False)
                        if not again or got.tiles != (ev.tile,):
                            raise ReplayError(
                                f"the host finishes the turn with {ev.tile}: the record must "
                                "write it next, with \"host\": true (RULES.md §2.11 rule 14)",
                                rule="RULES.md §2.11")
                else:
                    state, events = apply(state, state.to_act, move, deal=False, take=take)
                d_no = _forced(events, decisions, d_no, r_no, top)
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
    state = start_match(rules, len(names), None, seed)
    v = rules.spec
    rounds: list[dict] = []

    def entries(evs: list) -> None:
        """The placements the rules made without a decision (RULES.md §2.12 rule 11) and
        Семёрка's takes, in the order of the events."""
        for ev in evs:
            if ev.kind in ("led", "played") and ev.forced:
                rounds[-1]["decisions"].append(_entry([ev]))
            elif ev.kind == "took":
                rounds[-1]["decisions"].append({"take": [t.code() for t in ev.tiles]})

    def deal(first: bool = False) -> None:
        """Deal rounds from the seed until one waits for a decision or the match is over
        (a round may end before any decision, RULES.md §2.12 rule 6)."""
        nonlocal state
        while True:
            state, evs = deal_from_seed(state, first=first)
            first = False
            rounds.append({"deal": v.deal_record(state.round), "decisions": []})
            entries(evs)
            if state.finished or state.to_act is not None:
                return

    deal(first=True)
    for move, host in decisions:
        if state.finished:
            break
        if host:
            state, events = apply_host_move(state, deal=False)
            # the host's placements, one entry each (a turn of several, §2.11 rule 14)
            for group in _placements(events, forced=False):
                rounds[-1]["decisions"].append(dict(_entry(group), host=True))
        else:
            state, events = apply(state, state.to_act, move, deal=False)
            rounds[-1]["decisions"].append(move.to_dict())
        entries(events)
        if not state.finished and state.to_act is None:
            deal()
    return {"rules": rules.to_json(), "players": list(names), "rounds": rounds}
