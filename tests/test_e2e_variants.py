"""End to end: a whole match of each variant of RULES.md §2, and a move of several doubles
built press by press, through the real bot process and the Bot API emulator (issues 12 and
13, "Must show").

Each match is a private match against three easy computer players, to its end by the
variant's own rules and options (RULES.md §2, their defaults).  Every other variant is named in
the command (``/newgame 3 sea_goat easy``); the others are the private chat's default rules,
written into the database before the bot starts (a chat's settings, ``{"rules": {"variant":
...}}``), and started with ``/newgame 3 easy``.  The simulated player presses random buttons
of every keyboard the bot sends, building moves of several doubles where the keyboard offers
it.  Afterwards :mod:`tests.e2e.checks` replays each match from the bot's database through
the engine: every keyboard offered exactly the legal moves of its version (a move being built
only placements that keep it part of a legal move), the table (line, cross, closed ends, the
gap) accounts for the 28 tiles and shows no tile of a hand, the hand messages only the
player's own tiles, and the summaries and the final table are the engine's.

The move built press by press: before the bot starts, a donkey match (RULES.md §2.2) is dealt
from a chosen seed and played through the service to a turn where the player has more moves
of several doubles than buttons; the started bot shows it (as after a restart), and the
player builds one double at a time; the engine gets one move (one action with ``tiles``).
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

import engine
from service.game import GameService
from service.live.moves import option_of
from storage import open_database
from storage import repository as repo
from tests.e2e.botproc import FAST_RATES
from tests.e2e.checks import check_all, decision_move, load_replay, match_ids
from tests.e2e.fixtures import Shared, running_bot
from tests.e2e.players import CallFeed, Person, Table, button_move
from tests.emulator import Emulator, FloodLimits
from ui import compose

pytest_plugins = ("tests.e2e.fixtures",)
pytestmark = pytest.mark.asyncio(loop_scope="module")

#: Each variant, played with its own options at their defaults (RULES.md §2).
VARIANTS: dict[str, dict] = {v: {} for v in (
    "sea_goat", "donkey", "chcv", "telephone", "muggins", "traditional", "sport", "seven",
    "general")}
#: The variants started by their name in /newgame; the others are the chat's default rules.
BY_NAME = set(list(VARIANTS)[::2])
FIRST_ID = 9100
BUILDER = 9090  # the player of the move built press by press
BUILD_RULES = {"variant": "donkey", "match_limit": 51, "turn_timeout": 900}


def _path_to_a_build(rules: engine.Rules, players: int):
    """A seed and the decisions of a match that reach a turn of seat 0 in round 1 whose
    moves of several doubles are built press by press (``ui.compose.whole_buttons`` false;
    round 1, so that every round's end is shown by the bot)."""
    for seed in range(3000):
        rng = random.Random(seed)
        state, _ = engine.new_match(rules, players, seed)
        path = []
        while not state.finished and state.round_no == 1:
            moves = engine.legal_moves(state)
            legal = tuple(option_of(m) for m in moves)
            if state.to_act == 0 and not compose.whole_buttons(legal):
                return seed, path
            multi = [m for m in moves if len(m) > 1]
            move = rng.choice(multi if multi and rng.random() < 0.6 else moves)
            path.append((state.to_act, option_of(move)))
            state, _ = engine.apply(state, state.to_act, move)
    raise AssertionError("no seed reaches a move built press by press")


async def _prepare(database) -> int:
    """Write the private chats' rules, and the donkey match brought to the build, into a
    fresh database; the id of that match."""
    db = await open_database(database)
    now = time.time()

    def chats(conn) -> None:
        for i, (variant, options) in enumerate(VARIANTS.items()):
            rules = {} if variant in BY_NAME else {"rules": {"variant": variant, **options}}
            repo.upsert_chat(conn, FIRST_ID + i, now=now, settings=rules)
        repo.upsert_chat(conn, BUILDER, now=now, settings={"rules": BUILD_RULES})

    await db.write(chats)
    await db.dispose()
    seed, path = _path_to_a_build(engine.Rules.from_json(BUILD_RULES), 4)
    svc = await GameService.open(database, seed_source=lambda: seed)
    try:
        res = await svc.lobbies.open_solo(BUILDER, "Вася", bots_count=3, strength="easy")
        assert res.ok, res
        seats = [s.user_id for s in res.table.seats]
        for seat, option in path:
            res = await svc.play.act(res.match_id, seats[seat], option, None, res.version)
            assert res.ok, res
        assert res.hand_for(BUILDER).your_turn
        return res.match_id
    finally:
        await svc.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def variants_bot(tmp_path_factory) -> AsyncIterator[tuple[Shared, int]]:
    """One emulator and one bot for the module, over a database prepared before the bot
    started; also the id of the prepared match."""
    emu = Emulator(flood=FloodLimits(enabled=False))
    await emu.start()
    client = emu.client()
    directory = tmp_path_factory.mktemp("variants")
    try:
        for uid in [BUILDER] + [FIRST_ID + i for i in range(len(VARIANTS))]:
            await client.create_user(uid, "Вася" if uid == BUILDER else "Оля")
        built = await _prepare(directory / "kozel.sqlite3")
        await client.start(BUILDER)  # the DM is open; the bot reads the /start once it polls
        # pictures drawn in a thread: no drawing process to wait for at the start, whose
        # late start-up publish would show the hand again over a move being built
        settings = {**FAST_RATES, "BOT_MOVE_DELAY": "0", "BOT_WORKERS": "1",
                    "PICTURE_WORKERS": "0"}
        async with running_bot(emu, directory, settings) as proc:
            yield Shared(emu, client, proc), built
    finally:
        await client.close()
        await emu.stop()


async def _check(shared: Shared, table: Table, presses: list, variant: str, *,
                 unpressed: int = 0) -> dict:
    client, bot = shared.client, shared.bot
    assert await table.unanswered_or_alerted(presses) == []  # each answer waited for
    chat = await client.messages(table.chat_id, include_deleted=True)
    replays = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    assert len(replays) == 1
    (rp,) = replays
    assert rp.rules.variant == variant
    assert rp.final.finished and rp.final.result.reason == "limit"
    counts = check_all(replays, chat, {table.chat_id: chat})
    # each keyboard pressed once (but ``unpressed``), every press accepted
    assert counts["keyboards"] == len(presses) + unpressed
    assert counts["summaries"] >= len(rp.scored()) > 0
    assert bot.errors() == []
    return counts


async def _sent_again(feed: CallFeed, user_id: int, timeout: float = 15.0):
    """The second hand message with a move keyboard sent to ``user_id``: the start-up shows
    the hand (the start-up's publish only queues it), and the /start the player sent before
    the bot started sends it again, retiring the first, in that order whenever the /start is
    fetched.  Waiting for that very send, not for the newest keyboard once the bot seems
    quiet, is waiting for the change (issue 30 item 18)."""
    def sent() -> object:
        by_seq = {c["seq"]: c for c in feed.calls}
        sends = [kb for kb in feed.keyboards if kb.chat_id == user_id
                 and by_seq[kb.seq]["method"].lower() == "sendmessage"]
        return sends[1] if len(sends) >= 2 else None

    return await feed.wait(sent, timeout=timeout, what="the hand sent again for the /start")


async def test_a_move_of_several_doubles_built_press_by_press_is_one_move(variants_bot):
    """Issue 13, "Must show": 🧩, then "+" one double at a time (each press edits the hand
    message, the match version stays), then "play": one action with ``tiles`` in the log,
    which the engine takes as one move; then the match goes on to its end."""
    shared, match_id = variants_bot
    client, bot = shared.client, shared.bot
    feed = CallFeed(client)  # from the start: the hand the bot showed when it started
    person = Person(BUILDER, "Вася")
    table = Table(client, feed, BUILDER, [person])
    table.match_id = match_id
    before = load_replay(bot.database, match_id)
    version = before.base_version + len(before.actions)
    # the hand the start-up showed, then the one the /start sent again: the keyboard to
    # press is the /start's (the start-up's is retired by it)
    kb = await _sent_again(feed, BUILDER)
    assert kb.version == version and kb.chat_id == BUILDER
    presses = []
    kinds = [button_move(b["callback_data"]) for b in kb.buttons]
    start = next(i for i, k in enumerate(kinds) if k.kind == "build")
    presses.append(await table.press(kb, index=start))
    chosen: tuple = ()
    while True:
        kb = await table.next_shown(presses[-1])
        assert kb.version == version  # building changes nothing in the game
        kinds = [button_move(b["callback_data"]) for b in kb.buttons]
        assert kinds[-1].kind == "cancel"
        plays = [i for i, k in enumerate(kinds) if k.kind == "play"]
        adds = [i for i, k in enumerate(kinds) if k.kind == "build"]
        if plays and (not adds or len(chosen) >= 2):
            move = kinds[plays[0]].placements
            presses.append(await table.press(kb, index=plays[0]))
            break
        presses.append(await table.press(kb, index=adds[0]))
        chosen = kinds[adds[0]].placements
    await feed.wait(lambda: len(load_replay(bot.database, match_id).actions)
                    > len(before.actions), what="the move")
    after = load_replay(bot.database, match_id)
    action = after.actions[len(before.actions)]
    assert action.seat == 0 and action.user_id == BUILDER
    assert len(action.decision["tiles"]) == len(move) >= 2
    assert decision_move(action.decision) in engine.legal_moves(before.final)
    assert set(decision_move(action.decision)) == {
        engine.Placement(engine.Tile.parse(p.tile), p.end, p.closed, p.along) for p in move}
    log = await table.play(random.Random(5), after_version=version, timeout=30)
    assert log.ended
    # the hand shown at the start-up, sent again for the /start
    unpressed = len([k for k in feed.keyboards if k.chat_id == BUILDER
                     and k.seq < presses[0].keyboard.seq])
    counts = await _check(shared, table, presses + log.presses, "donkey", unpressed=unpressed)
    assert counts["tables"] > 0 and counts["hands"] > 0


@pytest.mark.parametrize("variant", list(VARIANTS))
async def test_a_whole_match_of_each_variant(variants_bot, variant):
    """Issues 12 and 13, "Must show": one whole match of the variant, every invariant of
    :func:`tests.e2e.checks.check_all` on every layout."""
    shared, _ = variants_bot
    client = shared.client
    uid = FIRST_ID + list(VARIANTS).index(variant)
    feed = await shared.feed()
    person = Person(uid, "Оля")
    await client.start(uid)
    # the answer to /start first: it would send the hand again if it came after the match
    await client.wait_message(uid, lambda m: m.from_bot, timeout=10)
    table = Table(client, feed, uid, [person])
    await feed.sync()
    table.start_seq = feed.seq
    await client.send(uid, f"/newgame 3 {variant} easy" if variant in BY_NAME
                      else "/newgame 3 easy")
    log = await table.play(random.Random(uid), timeout=30)
    assert log.ended
    counts = await _check(shared, table, log.presses, variant)
    assert counts["tables"] > 0 and counts["hands"] > 0


@pytest.mark.parametrize("variant,first_id", [("donkey", 9200), ("telephone", 9210)])
async def test_a_group_match_of_a_cross_variant_keeps_the_hands_private(variants_bot, variant,
                                                                       first_id):
    """Issue 12, "Must show", in a group: ``/newgame <game>``, two people and two computer
    players; the cross (RULES.md §2.0.2) and the moves of several doubles are shown in the
    group, each hand only in its owner's private chat, every keyboard the legal moves."""
    shared, _ = variants_bot
    client, bot = shared.client, shared.bot
    feed = await shared.feed()
    table = await Table.create(client, feed, ("Оля", "Петя"), first_id=first_id)
    for p in table.players:  # the answers to /start first (see above)
        await client.wait_message(p.id, lambda m: m.from_bot, timeout=10)
    await table.gather(variant)
    for seated in (3, 4):
        await table.command(table.players[0], "/addbot easy")
        await table.wait_seated(seated)
    await table.start()
    log = await table.play(random.Random(first_id), timeout=30)
    assert log.ended
    assert await table.unanswered_or_alerted(log.presses) == []
    group, dms = await table.chats()
    (rp,) = [load_replay(bot.database, m) for m in match_ids(bot.database, table.chat_id)]
    assert rp.rules.variant == variant and rp.final.result.reason == "limit"
    assert {a.seat for a in rp.actions if a.decision.get("bot")} == {2, 3}
    counts = check_all([rp], group, dms)
    assert counts["keyboards"] == len(log.presses)
    assert counts["tables"] > 0 and counts["hands"] > 0
    assert bot.errors() == []
