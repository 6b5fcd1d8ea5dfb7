"""Game records (issue 15: "The record of a match", "Checking a record"): the record of a
played match (:func:`record_of`, the JSON that ``python -m engine replay`` reads,
``docs/RECORDS.md``), whether a record a user sent is a stored match (:func:`is_record_of`),
and the check of a sent record (:func:`check_record`, run off the event loop by
:class:`service.records.Records`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import engine
from engine import records
from engine.records import MAX_RECORD_BYTES
from service.live.match import ReplayError
from service.live.moves import decision_move, tile_code
from service.live.seats import seat_name
from service.views import MarkTally, RecordCheck, RecordRound

if TYPE_CHECKING:
    from storage.repository import ActionRow, MatchRow

__all__ = ["MAX_RECORD_BYTES", "check_record", "is_record_of", "record_of"]


def record_of(row: MatchRow, actions: Sequence[ActionRow]) -> dict[str, Any]:
    """The game record of a played match (``docs/ENGINE_API.md``, the JSON that ``python -m
    engine replay`` reads): ``engine.records.record_match`` from the match's rules, seed and
    action log, the names from its seats (:func:`seat_name`).  Every deal is in it, so give
    it out only once the match has ended.  Raises :class:`ReplayError` when the log does not
    replay (a corrupt log)."""
    decisions = []
    for a in actions:
        d = a.decision
        decisions.append((None, True) if d.get("host") else (decision_move(d), False))
    try:
        return records.record_match(engine.Rules.from_json(row.rules),
                                    [seat_name(s) for s in row.seats], row.seed, decisions)
    except (engine.EngineError, ValueError) as exc:
        raise ReplayError(f"match {row.id}: {exc}") from exc


def _canonical(value: Any) -> Any:
    """``value`` with every tile code written smaller half first (``"5-2"`` → ``"2-5"``) and
    every dealt hand in order (a hand is a set; the bazar's order is the order of drawing):
    the same game however its record spells it."""
    if isinstance(value, str) and len(value) == 3 and value[1] == "-" \
            and value[0].isdigit() and value[2].isdigit():
        a, b = sorted((value[0], value[2]))
        return f"{a}-{b}"
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    if isinstance(value, dict):
        out = {k: _canonical(v) for k, v in value.items()}
        hands = out.get("hands")
        if isinstance(hands, list) and all(isinstance(h, list) for h in hands):
            out["hands"] = [sorted(h, key=repr) for h in hands]
        return out
    return value


def is_record_of(sent: Any, row: MatchRow, actions: Sequence[ActionRow]) -> bool:
    """Whether a sent record (its parsed JSON, which replayed) is the stored match ``row``
    with its ``actions``: the same rules, number of players, deals and decisions as
    :func:`record_of` makes of it, tiles in either order (the names may differ)."""
    try:
        stored = record_of(row, actions)
        rules = engine.Rules.from_json(sent.get("rules") or {}).to_json()
    except (ReplayError, engine.EngineError, ValueError, TypeError, AttributeError):
        return False
    return (rules == engine.Rules.from_json(stored["rules"]).to_json()
            and len(sent.get("players") or ()) == len(stored["players"])
            and _canonical(sent.get("rounds")) == _canonical(stored["rounds"]))


def _rule_of(error: Any) -> str | None:
    """The rule an engine ``ReplayError`` names: its ``rule``, else a ``RULES.md §…`` in its
    message."""
    found = re.search(r"RULES\.md (§\d+(?:\.\d+)*)", error.rule or str(error.message))
    return found.group(1) if found else None


def _decision_tiles(record: Mapping[str, Any], error: Any) -> tuple[str, ...]:
    """The tiles (``"a-b"``) of the decision an engine ``ReplayError`` names in ``record``,
    as far as the record writes them; empty when it names none."""
    try:
        d = record["rounds"][error.round_no - 1]["decisions"][error.decision_no - 1]
        placements = d["tiles"] if "tiles" in d else [d]
        return tuple(tile_code(engine.Tile.parse(p["tile"]))
                     for p in placements)
    except (LookupError, TypeError, ValueError, AttributeError):
        return ()


def check_record(data: bytes) -> RecordCheck:
    """Replay a game record that a user sent (RULES.md; ``engine.records.replay_json``) and
    say what it shows: the rounds and the end of the match, or why it is refused —
    ``size`` (over ``engine.records.MAX_RECORD_BYTES``), ``json`` (not JSON, or not UTF-8),
    ``format`` (not a record: wrong types, missing keys), ``variant`` (no such game),
    ``misdeal`` (a deal RULES.md §1.3 voids), ``deal`` (a deal that does not hold the 28 tiles
    as the rules deal them), ``rounds`` (a round that stops before it ends, a round after the
    match's end), ``illegal`` (a decision the rules forbid: ``round_no``, ``decision_no``,
    ``rule``).  What the game counts beside points is told with its rounds and its end
    (``RecordCheck.marks``, ``RecordRound.marks``: the result of Семёрка and Генерал, issue
    30 item 1).  Pure: nothing is stored."""
    if len(data) > records.MAX_RECORD_BYTES:
        return RecordCheck(False, "size", detail=str(len(data)))
    try:
        record = json.loads(data.decode("utf-8-sig"))  # a BOM from a text editor is fine
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return RecordCheck(False, "json", detail=str(exc)[:200])
    if not isinstance(record, dict):
        return RecordCheck(False, "format", detail="a record is a JSON object",
                           problem="object")
    rules = record.get("rules") or {}
    variant = rules.get("variant", "classic") if isinstance(rules, dict) else None
    if isinstance(variant, str) and variant not in engine.VARIANTS:
        return RecordCheck(False, "variant", detail=variant[:40])
    names = record.get("players")
    names = tuple(str(n) for n in names) if isinstance(names, list) else ()
    try:
        out = records.replay(record)
    except records.ReplayError as exc:
        rule = _rule_of(exc)
        message = str(exc.message)
        if exc.decision_no is not None and rule:
            kind = "illegal"
        elif exc.decision_no is not None:  # a decision that is no move at all ({"tile": "9-9"})
            kind = "format"
            message = str(exc)  # names its round and decision
        elif exc.round_no is None or exc.problem in ("round", "decisions"):
            kind = "format"
        elif rule == "§1.3":
            kind = "misdeal"
        elif exc.problem == "deal" or "deal" in message or "hand" in message:
            kind = "deal"
        else:
            kind = "rounds"
        return RecordCheck(False, kind, round_no=exc.round_no, decision_no=exc.decision_no,
                           rule=rule, detail=message[:300], names=names,
                           variant=variant if isinstance(variant, str) else "classic",
                           seat=exc.seat if kind in ("illegal", "misdeal") else None,
                           reason=exc.kind, tiles=_decision_tiles(record, exc),
                           problem=exc.problem or "other",
                           problem_args=tuple(exc.numbers.items()))
    except (RecursionError, ValueError, TypeError, AttributeError, KeyError) as exc:
        return RecordCheck(False, "format", detail=str(exc)[:200], problem="other")
    full = engine.Rules.from_json(rules)
    last = out["rounds"][-1] if out["rounds"] else {}
    return RecordCheck(
        True, names=names, variant=full.variant, teams=bool(full.teams),
        rounds=tuple(RecordRound(i + 1, r["end"], int(r["by"]), tuple(r["recorded"]),
                                 tuple(r["scores"]), _tallies(full, r))
                     for i, r in enumerate(out["rounds"])),
        finished=bool(out["finished"]), goats=tuple(out["goats"]),
        rating=tuple(out["rating"]), title=out.get("title"),
        winners=tuple(out.get("winners", ())), draw=bool(out.get("draw")),
        marks=_tallies(full, out), scores=tuple(last.get("scores", ())),
        remembered=tuple(last.get("remembered", ())))


def _tallies(rules: Any, counts: Mapping[str, Any]) -> tuple[MarkTally, ...]:
    """The marks the game of ``rules`` counts beside points (``Variant.marks``: Семёрка's
    палки, Генерал's lost rounds, RULES.md §2.8–§2.9), as a replay's summary or one of its
    rounds reports them by their names (``docs/ENGINE_API.md``, "Game records"); a mark it
    does not report is left out."""
    return tuple(MarkTally(m.name, m.per, tuple(int(n) for n in counts[m.name]),
                           getattr(rules, m.limit) if m.limit else None)
                 for m in rules.spec.marks if isinstance(counts.get(m.name), (list, tuple)))
