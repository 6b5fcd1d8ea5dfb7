"""Helpers for the tests of the variants on the cross (RULES.md §2.2–§2.5): positions and
moves written by hand in the notation of RULES.md §0 and the record form of §2.0.4.

A position is a :class:`engine.table.Table` built directly: the hands, the tiles already on
the table (laid through :class:`engine.layout.Layout`, so the geometry is the engine's), and
every tile named nowhere put at the end of the bazar as reserved (RULES.md §1.4): such tiles
can never be drawn or played, and the position still holds all 28 tiles.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from engine import Move, Placement, Rules, Tile
from engine.__main__ import main as engine_main
from engine.match import MatchState, start_match
from engine.moves import END_CODE
from engine.table import Table
from engine.tiles import TILE_ID
from tests.enginekit import mask, rest_of, tiles
from tools.simulate import main as simulate_main


def tid(a: int, b: int) -> int:
    """The tile id of [a|b]."""
    return TILE_ID[Tile.of(a, b)]


def placement(text: str) -> Placement:
    """``"5-5 left closed"``, ``"1-1 up along"``, ``"6-4"`` (a lead, as it lies: 6 at the
    left end) → a :class:`Placement`."""
    words = text.split()
    raw = words[0]
    a, b = (int(x) for x in raw.split("-"))
    end = next((w for w in words[1:] if w in END_CODE), None)
    return Placement(Tile.of(a, b), end, "closed" in words, "along" in words, a > b)


def mv(*parts: str) -> Move:
    """A move of one or several placements (:func:`placement`)."""
    ps = [placement(p) for p in parts]
    if len(ps) == 1:
        p = ps[0]
        return Move(p.tile, p.end, closed=p.closed, along=p.along, flip=p.flip)
    return Move.of(ps)


def cross_table(rules: Rules, hands: list[str], *, lead: str | None = None,
                plays: tuple[str, ...] = (), to_act: int = 0, bazar: str = "",
                last: int = -1, events: list | None = None) -> Table:
    """A round in progress on the variant's layout: ``hands`` per seat (``"2-5 3-3"``),
    ``lead`` and then ``plays`` (``"5-5 left closed"``) already on the table, ``bazar`` the
    drawable tiles in draw order; ``to_act`` moves next, ``last`` moved last."""
    on_table = [lead] if lead else []
    on_table += list(plays)
    table_text = " ".join(p.split()[0] for p in on_table)
    dead = rest_of(*hands, bazar, table_text)
    bazar_ids = tuple(TILE_ID[t] for t in tiles(bazar) + dead)
    t = Table(rules, len(hands), [mask(h) for h in hands], bazar_ids, len(dead), to_act,
              events=events)
    lay = t.layout
    if lead:
        p = placement(lead)
        lay.lay(((TILE_ID[p.tile], -1, False, False, p.flip),))
    for text in plays:
        p = placement(text)
        lay.lay(((TILE_ID[p.tile], END_CODE[p.end], p.closed, p.along, False),))
    t.last = last
    t.to_act = to_act
    t.lead_id = -1
    return t


def match_at(rules: Rules, t: Table, scores=None, remembered=None, pot: int = 0
             ) -> MatchState:
    """A match whose current round is the table ``t``."""
    return start_match(rules, t.players, t.state(), "test", scores, remembered, pot)


def kinds(events: list) -> list[str]:
    """The kinds of ``events``, in order."""
    return [e.kind for e in events]


def run_cli(*args: str, stdin_text: str | None = None, tmp_path=None) -> tuple[int, dict]:
    """``python -m engine ARGS`` in this process (``simulate ARGS``: ``tools/simulate.py``);
    a record given as ``stdin_text`` is written to a file under ``tmp_path`` first.  Returns
    (exit status, printed JSON)."""
    argv = list(args)
    if stdin_text is not None:
        path = tmp_path / "record.json"
        path.write_text(stdin_text, encoding="utf-8")
        argv.append(str(path))
    out = io.StringIO()
    with redirect_stdout(out):
        code = simulate_main(argv[1:]) if argv[0] == "simulate" else engine_main(argv)
    text = out.getvalue()
    return code, json.loads(text) if text.strip() else {}


def random_record(rules: Rules, players: int, want, seeds=range(300)):
    """The first random match (seed after seed, uniform legal moves) whose record text
    satisfies ``want(text)``: ``(text, round_scored events, final state)``.  Raises
    ``AssertionError`` when none of ``seeds`` does."""
    import random

    from engine import apply, legal_moves, new_match
    from engine.records import record_match

    for seed in seeds:
        rng = random.Random(seed)
        state, _ = new_match(rules, players, seed)
        decisions, rounds = [], []
        while not state.finished:
            move = rng.choice(legal_moves(state))
            state, events = apply(state, state.to_act, move)
            decisions.append((move, False))
            rounds += [e for e in events if e.kind == "round_scored"]
        text = json.dumps(record_match(rules, [f"p{i}" for i in range(players)], seed,
                                       decisions))
        if want(text):
            return text, rounds, state
    raise AssertionError("no random match gives the record asked for")


def scored(events):
    """The ``round_scored`` event among ``events``."""
    return next(e for e in events if e.kind == "round_scored")


def dealt(rules: Rules, hands: list[str]) -> MatchState:
    """A match whose round 1 is dealt from ``hands``, the rest of the set in the bazar; the
    variant's lead rule picks the leader."""
    from engine.match import deal_given

    state = start_match(rules, len(hands))
    bazar = tuple(TILE_ID[t] for t in rest_of(*hands))
    return deal_given(state, tuple(mask(h) for h in hands), bazar, first=True)[0]


def deal_next_round(state: MatchState) -> MatchState:
    """The match after a round finished with ``deal=False``: the next round dealt from the
    seed (RULES.md §1.2, §1.3)."""
    from engine.match import deal_given

    t, _ = state.rules.spec.deal_round(state, state.round_no + 1)
    return deal_given(state, tuple(t.hands), tuple(t.bazar))[0]


def one_round_record(variant: str, hands: list[str], decisions: list[dict],
                     scores: list[int]) -> dict:
    """A record of one round for two players Оля and Петя: the ``hands`` (``"3-4 4-4 …"``),
    the rest of the set in the bazar, the starting ``scores`` and the ``decisions``."""
    return {
        "rules": {"variant": variant},
        "players": ["Оля", "Петя"],
        "start": {"scores": scores},
        "rounds": [{"deal": {"hands": [h.split() for h in hands],
                             "bazar": [t.code() for t in rest_of(*hands)]},
                    "decisions": decisions}],
    }
