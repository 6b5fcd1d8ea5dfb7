"""A whole match through the real routers over a mocked Bot API (issue 4)."""

from __future__ import annotations

import random

from tests.botkit import Harness, Person

GROUP = -100123


async def test_two_players_play_a_match_to_the_goat(tmp_path):
    rng = random.Random(1)
    olya, petya = Person(11, "Оля"), Person(12, "Петя")
    async with Harness(tmp_path) as h:
        h.tg.dm_open.update({11, 12})
        await h.say(olya, 11, "/start")
        await h.say(petya, 12, "/start")
        await h.say(olya, GROUP, "/newgame")
        lobby = h.tg.last(GROUP)
        assert "Оля" in lobby.text
        await h.press(petya, lobby, text=lobby.buttons()[0].text)
        assert "Петя" in h.tg.chat(GROUP)[0].text
        await h.say(olya, GROUP, "/startgame")
        moves = 0
        while moves < 2000:
            kb = [(p, h.keyboard_message(p)) for p in (olya, petya)]
            kb = [(p, m) for p, m in kb if m is not None]
            if not kb:
                break
            assert len(kb) == 1, "exactly one live keyboard at a time"
            person, msg = kb[0]
            answer = await h.press(person, msg, data=rng.choice(msg.move_buttons()).callback_data)
            assert not answer[1], answer
            moves += 1
        texts = [m.text for m in h.tg.chat(GROUP)]
        assert any("🐐" in t for t in texts), texts[-3:]


async def test_response_models_of_called_methods_stay_cached():
    """aiogram's Response[T] models are cached only weakly by pydantic; the middleware keeps
    the one of each method the bot calls, so it is not rebuilt for every request."""
    import gc

    from aiogram.methods import AnswerCallbackQuery
    from aiogram.methods.base import Response

    from delivery.telegram import _RESPONSE_TYPES, pin_response_types

    async def make_request(bot, method):
        return "answered"

    method = AnswerCallbackQuery(callback_query_id="1")
    assert await pin_response_types(make_request, None, method) == "answered"
    kept = _RESPONSE_TYPES[AnswerCallbackQuery]
    gc.collect()
    assert Response[AnswerCallbackQuery.__returning__] is kept
