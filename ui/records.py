"""Texts and buttons of players' records (issue 15, issue 12): the boards of /top, /stats,
the match history, a match's record and the check of a sent record, and leaving a running
match.

Pure functions of the service's views (:mod:`service.views`) and plain values, like
:mod:`ui.render`: they return Telegram HTML of at most :data:`ui.render.MAX_TEXT` characters
(or an aiogram keyboard).  Names are cleaned and escaped as in :mod:`ui.render`.  Dates are
written in UTC, which is what Telegram gives the bot.
"""

from __future__ import annotations

import html
import time
from collections.abc import Sequence
from typing import Any

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from service.views import (
    HistoryEntry,
    HistoryPage,
    HistoryPlayer,
    HoldView,
    LeaderRow,
    MarkView,
    PersonalStats,
    RecordCheck,
    RecordFile,
)

from .callbacks import HistoryCb, HoldCb, LeaveCb, RecordCb, StatsCb, TopCb
from .i18n import Markup, Translator, get_translator
from .names import bot_gender, localized
from .render import (
    MAX_TEXT,
    clean_name,
    goat_mark,
    keeps_points,
    mark_mean_words,
    result_words,
    seat_label,
    side_names,
    text_length,
    variant_text,
)
from .variants import variant_name as game_name

__all__ = [
    "ROUGH_SIGMA",
    "SETTLING_SIGMA",
    "VARIANT_ROW",
    "board_keyboard",
    "certainty",
    "format_date",
    "history_keyboard",
    "hold_keyboard",
    "leave_button",
    "leave_keyboard",
    "record_button",
    "record_caption",
    "render_board",
    "render_history",
    "render_hold",
    "render_personal",
    "render_record_check",
    "rule_key",
    "stats_keyboard",
    "variant_name",
]

#: Variant buttons per keyboard row.
VARIANT_ROW = 3
#: Rounds a record check lists (the newest; the earlier ones are counted).
CHECK_ROUNDS = 12


def _tr(tr: Translator | None) -> Translator:
    return tr if tr is not None else get_translator()


def variant_name(locale: str, variant: str, *, tr: Translator | None = None) -> str:
    """The name of a game (``Rules.variant``) in ``locale``, plain text
    (:func:`ui.variants.variant_name`)."""
    return game_name(_tr(tr), locale, variant)


def format_date(ts: float | None) -> str:
    """Unix seconds as ``"12.03.2026 15:40 UTC"`` (``"—"`` for None)."""
    if ts is None:
        return "—"
    return time.strftime("%d.%m.%Y %H:%M UTC", time.gmtime(ts))


def rule_key(rule: str | None) -> str:
    """``"§1.7"`` → ``"s1-7"``, the selector of the locales' ``rule-name``."""
    return "s" + rule.lstrip("§").replace(".", "-") if rule else "other"


def _button(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data)


def _rows(buttons: Sequence[InlineKeyboardButton], width: int
          ) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i:i + width]) for i in range(0, len(buttons), width)]


def _fit(lines: list[str], tail: list[str] | None = None) -> str:
    """Lines joined, the last ones dropped until the text (with ``tail``) fits MAX_TEXT."""
    tail = tail or []
    while lines and text_length("\n".join(lines + tail)) > MAX_TEXT:
        lines = lines[:-1]
    return "\n".join(lines + tail)


# -- boards (/top) ---------------------------------------------------------------------------


def render_board(locale: str, rows: Sequence[LeaderRow], *, variant: str, everywhere: bool,
                 with_bots: bool, tr: Translator | None = None) -> str:
    """/top: one board (issue 12, issue 15): its title with the game, what it counts (this
    chat's matches with or without computer players, or every chat's without), then the
    people best first by the skill estimate μ − 3σ with their matches, the rating points of
    RULES.md §1.16 and their goats (§1.15) under the game's own mark (Осёл's 🫏, §2.2), and
    in a game whose marks are its result each mark per match (Семёрка's палки, Генерал's
    lost rounds, §2.8–§2.9)."""
    tr = _tr(tr)
    name = variant_name(locale, variant, tr=tr)
    title = "board-title-global" if everywhere else "board-title-chat"
    counts = ("board-counts-global" if everywhere else
              "board-counts-bots" if with_bots else "board-counts-fair")
    head = [tr.t(locale, title, variant=name), tr.t(locale, counts)]
    if not rows:
        empty = "board-empty-global" if everywhere else "board-empty"  # no «здесь» there
        return "\n".join(head + ["", tr.t(locale, empty)])
    mark = goat_mark(locale, variant, tr=tr)  # the game's own loser (RULES.md §2.2: 🫏)
    lines = head + [tr.t(locale, "board-order", mark=mark,
                         times=variant_text(tr, locale, variant, "goat-times")), ""]
    for r, name in zip(rows, board_names(locale, rows, tr=tr), strict=True):
        line = tr.t(locale, "board-line", place=r.place, name=name, **_signed(r.skill),
                    matches=r.matches, points=r.rating, goats=r.goats, mark=mark)
        # a game whose marks are its result: them per match (RULES.md §2.8–§2.9)
        lines.append(" · ".join([line, *(mark_mean_words(locale, variant, m, tr=tr)
                                         for m in r.marks)]))
    return _fit(lines)


#: The fewest digits of a Telegram id that tell two people of one name apart on a board.
TAG_DIGITS = 4


def board_names(locale: str, rows: Sequence[LeaderRow], *,
                tr: Translator | None = None) -> list[str]:
    """Each row's name as a board shows it (issue 30 item 7): the name, and where two or more
    rows bear the same one (case and spacing aside: three «Маша» on the global board) what
    tells them apart — the @username, else the end of the Telegram id, as many digits as it
    takes (at least :data:`TAG_DIGITS`), the same on every board and in every chat."""
    tr = _tr(tr)
    names = [clean_name(r.name) for r in rows]
    keys = [" ".join(n.casefold().split()) for n in names]
    shared = {k for k in keys if keys.count(k) > 1}
    out = list(names)
    for key in shared:
        same = [i for i, k in enumerate(keys) if k == key]
        bare = [i for i in same if not rows[i].username
                or names[i].casefold() == "@" + rows[i].username.casefold()]
        ids = [str(abs(rows[i].user_id)) for i in bare]
        width = TAG_DIGITS
        while width < max(map(len, ids), default=0) and len({x[-width:] for x in ids}) < len(ids):
            width += 1
        for i in same:
            if i in bare:
                out[i] = tr.plain(locale, "board-name-id", name=names[i],
                                  digits=str(abs(rows[i].user_id))[-width:])
            else:
                out[i] = tr.plain(locale, "board-name-user", name=names[i],
                                  username=rows[i].username)
    return out


def board_keyboard(locale: str, variants: Sequence[str], current: str, everywhere: bool, *,
                   in_group: bool, tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The games of /top, ✓ on the one shown, :data:`VARIANT_ROW` a row; in a group also
    "this chat" / "all chats"."""
    tr = _tr(tr)
    buttons = []
    for v in variants:
        label = variant_name(locale, v, tr=tr)
        buttons.append(_button(("✓ " if v == current else "") + label,
                               TopCb(variant=v, everywhere=everywhere).pack()))
    rows = _rows(buttons, VARIANT_ROW)
    if in_group:
        rows.append([
            _button(("✓ " if not everywhere else "") + tr.plain(locale, "btn-here"),
                    TopCb(variant=current, everywhere=False).pack()),
            _button(("✓ " if everywhere else "") + tr.plain(locale, "btn-everywhere"),
                    TopCb(variant=current, everywhere=True).pack())])
    return InlineKeyboardMarkup(inline_keyboard=rows)


# -- personal statistics (/stats) ---------------------------------------------------------


def _signed(skill: float) -> dict[str, object]:
    """A skill estimate as ``sign`` (the minus sign U+2212 below zero, else empty) and
    ``skill`` (its size to 0.1): the locales' NUMBER() would write a hyphen."""
    shown = round(skill, 1)
    return {"sign": "−" if shown < 0 else "", "skill": abs(shown)}


#: The skill estimate's σ above which it is called rough (few matches), and above which it
#: is still settling; below the second it is firm.  A new player starts at σ = 25/3
#: (``storage.skill``); each rated match narrows it.
ROUGH_SIGMA = 6.0
SETTLING_SIGMA = 3.5


def certainty(sigma: float) -> str:
    """How sure the skill estimate is, in the words a player reads instead of σ: ``low``,
    ``mid`` or ``high`` (:data:`ROUGH_SIGMA`, :data:`SETTLING_SIGMA`; RULES.md §1.16 keeps
    the rating points, the estimate is the boards' order)."""
    return "low" if sigma >= ROUGH_SIGMA else "mid" if sigma >= SETTLING_SIGMA else "high"


def _figures(tr: Translator, locale: str, st: PersonalStats) -> list[str]:
    if not st.matches:
        return [tr.t(locale, "pstats-none")]
    return [tr.t(locale, "pstats-games", matches=st.matches, wins=st.wins, goats=st.goats,
                 **{"as": variant_text(tr, locale, st.variant, "goat-as")}),
            tr.t(locale, "pstats-skill", **_signed(st.skill), sure=certainty(st.sigma),
                 points=st.rating),
            _play_line(tr, locale, st)]


def _play_line(tr: Translator, locale: str, st: PersonalStats) -> str:
    """Outs (RULES.md §1.9), fish (§1.10) and the result per match: the average final score,
    or in a game whose marks are its result (no points: Семёрка, Генерал, §2.8–§2.9) each
    mark per match over the matches that stored it."""
    if keeps_points(st.variant):
        play = tr.pick(locale, f"pstats-play-{st.variant}", "pstats-play")  # a game's words
        return tr.t(locale, play, outs=st.outs, fish=st.fish,
                    average=float(st.average_score))
    if not st.marks:
        return tr.t(locale, "pstats-play-short", outs=st.outs, fish=st.fish)
    words = ", ".join(mark_mean_words(locale, st.variant, m, tr=tr) for m in st.marks)
    return tr.t(locale, "pstats-play-marks", outs=st.outs, fish=st.fish, marks=Markup(words))


def render_personal(locale: str, name: str, variant: str, *, here: PersonalStats | None,
                    overall: PersonalStats, solo: PersonalStats | None = None,
                    others: Sequence[tuple[str, int]] = (), bots_left_out: bool = False,
                    bots_elsewhere: int = 0, tr: Translator | None = None) -> str:
    """/stats of one player in one game: in this chat (``here``, a group's board as the chat
    counts), in every chat (``overall``, without computer players), in private matches
    against computer players (``solo``, when there are any); matches, first places, goats
    (RULES.md §1.15), the skill rating and the rating points (§1.16), outs (§1.9), fish
    (§1.10), the average final score (in Семёрка and Генерал, which keep no points, their
    marks per match, §2.8–§2.9); then the other games they played (``others``: game,
    matches); ``bots_left_out``: this chat's board leaves out matches with computer
    players, which an empty answer then says; ``bots_elsewhere``: matches with computer
    players in groups, which no board shown here counts (private /stats says so, issue 20
    item 7)."""
    tr = _tr(tr)
    name = clean_name(name)
    played = [s for s in (here, overall, solo) if s is not None and s.matches]
    why = ([tr.t(locale, "pstats-bots-left-out")] if bots_left_out else []) + (
        [tr.t(locale, "pstats-bots-elsewhere", count=bots_elsewhere)] if bots_elsewhere else [])
    if not played and not others:
        return "\n".join([tr.t(locale, "pstats-empty", name=name), *why])
    lines = [tr.t(locale, "pstats-title", name=name, variant=variant_name(locale, variant,
                                                                           tr=tr))]
    if here is not None:
        lines += ["", tr.t(locale, "pstats-here", place=here.place or 0,
                           players=here.players)] + _figures(tr, locale, here)
    lines += ["", tr.t(locale, "pstats-overall", place=overall.place or 0,
                       players=overall.players)] + _figures(tr, locale, overall)
    if solo is not None and solo.matches:
        lines += ["", tr.t(locale, "pstats-solo")] + _figures(tr, locale, solo)
    if others:
        listed = ", ".join(f"{variant_name(locale, v, tr=tr)} ({n})" for v, n in others)
        lines += ["", tr.t(locale, "pstats-others", list=listed)]
    if bots_elsewhere:
        lines += ["", why[-1]]
    return _fit(lines)


def stats_keyboard(locale: str, user_id: int, variants: Sequence[str], current: str, *,
                   tr: Translator | None = None) -> InlineKeyboardMarkup | None:
    """A button per game the player played (✓ on the one shown); None for one game."""
    if len(variants) < 2:
        return None
    tr = _tr(tr)
    buttons = [_button(("✓ " if v == current else "") + variant_name(locale, v, tr=tr),
                       StatsCb(user=user_id, variant=v).pack()) for v in variants]
    return InlineKeyboardMarkup(inline_keyboard=_rows(buttons, VARIANT_ROW))


# -- the history ------------------------------------------------------------------------------


def _skill(tr: Translator, locale: str, delta: float | None) -> str:
    if delta is None:
        return ""
    shown = round(delta, 1)
    sign = "+" if shown > 0 else "−" if shown < 0 else "±"
    return " · " + tr.t(locale, "hist-skill", sign=sign, delta=abs(shown))


def _result(tr: Translator, locale: str, variant: str, p: HistoryPlayer) -> Markup:
    """A seat's result in /history as the match's end told it (:func:`ui.render.result_words`:
    the open score with the points still remembered, RULES.md §1.12, or the game's marks,
    §2.8–§2.9); a game whose marks are its result, stored before the bot kept them, says it
    was not stored rather than «0»."""
    if p.marks is None and not keeps_points(variant):
        return Markup(tr.t(locale, "hist-result-unknown"))
    return Markup(result_words(locale, variant, p.score, p.remembered, p.marks or (), tr=tr))


def _entry(tr: Translator, locale: str, m: HistoryEntry, mine: bool) -> list[str]:
    head = tr.t(locale, "hist-match", id=m.match_id, date=format_date(m.finished_at),
                variant=variant_name(locale, m.variant, tr=tr))
    if tr.has(tr.resolve(locale), f"hist-game-{m.variant}"):  # how the game counts
        numbers = {k: v for k, v in m.rules.items() if type(v) is int}
        stopped = "yes" if m.ended_by == "timeout" else "no"
        head += " · " + tr.t(locale, f"hist-game-{m.variant}", timeout=stopped,
                             **{"set": 6, "match_limit": 0, **numbers})
    if mine:
        if m.chat_id > 0:
            head += " · " + tr.t(locale, "hist-where-private")
        elif m.chat_title:
            head += " · " + tr.t(locale, "hist-where-chat", chat=clean_name(m.chat_title))
    lines = [head]
    if m.ended_by == "timeout":
        lines.append(tr.t(locale, "hist-timeout"))
    if m.with_bots:
        lines.append(tr.t(locale, "hist-bots"))
    teams = len({p.side for p in m.players}) < len(m.players)
    for p in sorted(m.players, key=lambda p: (p.place, p.seat)):
        # a seat a person left is the seat's result at its place, named as it was played
        # (issue 20 item 1); the person's points are 0 (RULES.md §1.16)
        name = seat_label(p.played_by, p.name) if p.left and p.played_by else clean_name(p.name)
        if teams:
            name += " " + tr.t(locale, "hist-team", team=p.side + 1)
        skill = _skill(tr, locale, p.skill)
        score = _result(tr, locale, m.variant, p)
        if p.left:
            skill = " · " + tr.t(locale, "hist-left", round=p.left_round or 1) + skill
        if p.goat:
            goat = tr.t(locale, "hist-goat", title=p.title or "none", variant=m.variant)
            lines.append(tr.t(locale, "hist-line-goat", place=p.place, name=name,
                              score=score, goat=goat, points=p.rating,
                              mark=goat_mark(locale, m.variant, tr=tr)) + skill)
        elif p.timed_out:
            lines.append(tr.t(locale, "hist-line-timeout", place=p.place, name=name,
                              score=score, points=p.rating) + skill)
        else:
            lines.append(tr.t(locale, "hist-line", place=p.place, name=name, score=score,
                              points=p.rating) + skill)
    return lines


def render_history(locale: str, page: HistoryPage, *, mine: bool,
                   tr: Translator | None = None) -> str:
    """/history: one page of finished matches, newest first (issue 15): for each its number,
    date, game (and for a person's own history, the chat), then each seat in the order of
    places with its result as the match's end told it (the score and the points remembered,
    or the game's marks), the goat with the game's word or title (RULES.md §1.15, §2), the
    rating points (§1.16), the change of the skill estimate, who timed out (§1.17) or left.
    ``mine``: the person's own history (a private chat) rather than a chat's."""
    tr = _tr(tr)
    page = localized(page, locale, tr)
    if not page.entries:
        return tr.t(locale, "hist-empty-user" if mine else "hist-empty-chat")
    lines = [tr.t(locale, "hist-title-user" if mine else "hist-title-chat",
                  total=page.total),
             tr.t(locale, "hist-page", page=page.page + 1, pages=page.pages)]
    for m in page.entries:
        lines += [""] + _entry(tr, locale, m, mine)
    return _fit(lines, ["", tr.t(locale, "hist-legend"), tr.t(locale, "hist-records")])


def history_keyboard(locale: str, page: HistoryPage, *, tr: Translator | None = None
                     ) -> InlineKeyboardMarkup | None:
    """A record button per match of the page, then "newer" / "older" where there are more
    pages; None for an empty history."""
    if not page.entries:
        return None
    tr = _tr(tr)
    rows = _rows([_button(tr.plain(locale, "btn-record-n", id=m.match_id),
                          RecordCb(match=m.match_id).pack()) for m in page.entries], 5)
    nav = []
    if page.page > 0:
        nav.append(_button(tr.plain(locale, "btn-newer"), HistoryCb(page=page.page - 1).pack()))
    if page.page + 1 < page.pages:
        nav.append(_button(tr.plain(locale, "btn-older"), HistoryCb(page=page.page + 1).pack()))
    if nav:
        rows.append(nav)
    return InlineKeyboardMarkup(inline_keyboard=rows)


# -- records --------------------------------------------------------------------------------


def record_button(locale: str, match_id: int, *, tr: Translator | None = None
                  ) -> InlineKeyboardButton:
    """"Send me the game record" under a match's end."""
    return _button(_tr(tr).plain(locale, "btn-record"), RecordCb(match=match_id).pack())


def record_caption(locale: str, rec: RecordFile, *, tr: Translator | None = None) -> str:
    """The caption of a record file (≤ 1024 characters): the match, its game and date, and
    how to check it."""
    tr = _tr(tr)
    return tr.t(locale, "rec-caption", id=rec.match_id,
                variant=variant_name(locale, rec.variant, tr=tr),
                date=format_date(rec.finished_at))


def _rule(tr: Translator, locale: str, rule: str | None, rules_url: str | None) -> Markup:
    """The rule a record breaks, cited from the project's rule book (docs/RULES.md, by its
    section and name), a link when ``rules_url`` says where it can be read."""
    if not rule:
        return Markup("")
    book = tr.t(locale, "chk-book-link", url=rules_url) if rules_url else tr.t(locale,
                                                                                "chk-book")
    return Markup(tr.t(locale, "chk-rule", section=rule, rule_key=rule_key(rule),
                       book=Markup(book)))


def render_record_check(locale: str, check: RecordCheck, *, limit: int,
                        rules_url: str | None = None, tr: Translator | None = None) -> str:
    """What a sent record shows (issue 15, "Checking a record"): each round (the newest
    :data:`CHECK_ROUNDS`) with how it ended and what was recorded (in a game whose marks are
    its result, its marks after the round: палки, проигрыши, RULES.md §2.8–§2.9), the end
    of the match — each side's result as the match's end words it, goats with the game's
    word and mark (§1.15, §2), winners, a draw, the rating points (§1.16) — and whether it
    equals the match the bot stored; or why it is refused, the round, the decision, whose it
    is (the player by name) and what is wrong, and the rule it breaks by its section and
    name in the rule book (a link with ``rules_url``, the
    ``RULES_URL`` setting).  A record of a stored match with other names says which.
    ``limit``: the largest record read [bytes].  What is malformed in a file that is no
    record (``format``) is said in the reader's words (``RecordCheck.problem``), never in
    the engine's English."""
    tr = _tr(tr)
    check = localized(check, locale, tr)
    names = [clean_name(n) for n in check.names]
    if not check.ok:
        return _check_error(tr, locale, check, names, limit=limit, rules_url=rules_url)
    seats = list(range(len(names)))
    sides = [s % 2 for s in seats] if check.teams else seats
    lines = [tr.t(locale, "chk-ok", variant=variant_name(locale, check.variant, tr=tr),
                  names=", ".join(names)), ""]
    lines += _check_rounds(tr, locale, check, names)
    lines.append("")
    if check.finished:
        lines += _check_end(tr, locale, check, names, sides)
    else:
        lines.append(tr.t(locale, "chk-unfinished"))
    if check.stored_match is not None and check.stored and check.renamed:
        listed = ", ".join(f"{clean_name(a)} → {clean_name(b)}" for a, b in check.renamed)
        lines.append(tr.t(locale, "chk-stored-renamed", id=check.stored_match, list=listed))
    elif check.stored_match is not None:
        lines.append(tr.t(locale, "chk-stored-same" if check.stored else "chk-stored-diff",
                          id=check.stored_match))
    return _fit(lines)


def _check_error(tr: Translator, locale: str, check: RecordCheck, names: Sequence[str], *,
                 limit: int, rules_url: str | None) -> str:
    """Why a sent record is refused (:func:`render_record_check`)."""
    err = check.error
    seat = check.seat
    name = names[seat] if seat is not None and 0 <= seat < len(names) else (
        f"#{seat + 1}" if seat is not None else "?")
    tiles = " ".join(f"[{t.replace('-', '|')}]" for t in check.tiles) or "none"
    args = {"round": check.round_no or 0, "decision": check.decision_no or 0,
            "rule": _rule(tr, locale, check.rule, rules_url), "name": name,
            "tiles": tiles, "reason": check.reason or "other"}
    if err == "size":
        return tr.t(locale, "chk-err-size", size=int(check.detail or 0), limit=limit)
    if err == "variant":
        return tr.t(locale, "chk-err-variant", variant=check.detail)
    key = {"json": "chk-err-json", "misdeal": "chk-err-misdeal", "deal": "chk-err-deal",
           "rounds": "chk-err-rounds", "illegal": "chk-err-illegal"}.get(
               err or "", "chk-err-format")
    lines = [tr.t(locale, key, **args).rstrip()]
    if key == "chk-err-format":  # what is malformed, in the reader's words
        numbers = {"count": 0, "min": 0, "max": 0, **dict(check.problem_args)}
        lines.append(tr.t(locale, "chk-problem", problem=check.problem or "other",
                          need="exact" if numbers["min"] == numbers["max"] else "range",
                          **numbers,
                          round=check.round_no or 0, decision=check.decision_no or 0))
    return "\n".join(lines)


def _check_rounds(tr: Translator, locale: str, check: RecordCheck, names: Sequence[str]
                  ) -> list[str]:
    """The newest :data:`CHECK_ROUNDS` rounds of a checked record, how each ended and what it
    recorded (RULES.md §1.11–§1.14) — in a game whose marks are its result (no points:
    Семёрка, Генерал, §2.8–§2.9), its marks after the round."""
    lines = []
    hidden = max(0, len(check.rounds) - CHECK_ROUNDS)
    if hidden:
        lines.append(tr.t(locale, "chk-more", count=hidden))
    points = keeps_points(check.variant)
    for r in check.rounds[hidden:]:
        name = names[r.by] if 0 <= r.by < len(names) else "?"
        if points or not r.marks:
            key = tr.pick(locale, f"chk-round-{check.variant}", "chk-round")  # a game's words
            lines.append(tr.t(locale, key, round=r.round_no, end=r.end, name=name,
                              recorded=" / ".join(map(str, r.recorded)),
                              scores=" / ".join(map(str, r.scores))))
        else:
            lines.append(tr.t(locale, "chk-round-marks", round=r.round_no, end=r.end,
                              name=name, marks=Markup(_tallies(tr, locale, check.variant,
                                                               r.marks))))
    return lines


def _check_end(tr: Translator, locale: str, check: RecordCheck, names: Sequence[str],
               sides: Sequence[int]) -> list[str]:
    """The end of a checked record's match, as the match's end tells it: each side's result
    (:func:`_final_results`), the goats with the game's word and mark (RULES.md §1.15, §2),
    the winners, a draw, the rating points (§1.16) — 0 for a side whose every seat a person
    handed to a computer player in the stored match (``RecordCheck.left``), with a line per
    such seat saying what the record gives the seat and that the person gets 0, as the
    match's end said (issue 30 item 3)."""
    labels = side_names(names, sides)
    lines = [tr.t(locale, "chk-finished"),
             tr.t(locale, "chk-final", list=Markup(" · ".join(
                 f"{html.escape(labels[side])} — {words}"
                 for side, words in enumerate(_final_results(tr, locale, check, sides))
                 if side < len(labels))))]
    if check.goats:
        goat = tr.t(locale, "hist-goat", title=check.title or "none", variant=check.variant)
        lines.append(tr.t(locale, "chk-goats", goat=goat,
                          mark=goat_mark(locale, check.variant, tr=tr), names=", ".join(
                              labels[s] for s in check.goats if s < len(labels))))
    if check.winners:
        lines.append(tr.t(locale, "chk-winners", names=", ".join(
            labels[s] for s in check.winners if s < len(labels))))
    if check.draw:
        lines.append(tr.t(locale, "chk-draw"))
    # a side of nobody but seats people handed to computer players earns its people nothing,
    # as the match's end said (RULES.md §1.16); the record's own figure is said beside it
    handed = {left.seat for left in check.left}
    gone = {side for side in set(sides)
            if all(k in handed for k, s in enumerate(sides) if s == side)}
    if check.rating:
        lines.append(tr.t(locale, "chk-rating", list=", ".join(
            f"{labels[s]} +{0 if s in gone else r}" for s, r in enumerate(check.rating)
            if s < len(labels))))
    for left in check.left:
        side = sides[left.seat] if left.seat < len(sides) else None
        rating = check.rating[side] if side is not None and side < len(check.rating) else 0
        lines.append(tr.t(locale, "chk-left", name=clean_name(left.name),
                          bot=clean_name(left.bot), round=left.round_no or 1, rating=rating,
                          gender=bot_gender(left.bot, tr)))
    return lines


def _tallies(tr: Translator, locale: str, variant: str, marks: Sequence[Any]) -> str:
    """A round's marks in a record check («<b>Палки:</b> 0 / 1 / 0»), HTML."""
    return "; ".join(f"{variant_text(tr, locale, variant, 'mark-round-title', mark=m.name)} "
                     + " / ".join(map(str, m.counts)) for m in marks)


def _final_results(tr: Translator, locale: str, check: RecordCheck, sides: Sequence[int]
                   ) -> list[str]:
    """Each side's result at the end of a checked record, as the match's end words it
    (:func:`ui.render.result_words`: the open score and the points still remembered,
    RULES.md §1.12, or the game's marks, §2.8–§2.9), side order; a mark kept per seat is
    that of the side's first seat."""
    out = []
    for side in range(max(sides, default=-1) + 1):
        seat = sides.index(side)
        marks = [MarkView(t.name, t.counts[seat if t.per == "seat" else side], t.limit, t.per)
                 for t in check.marks
                 if (seat if t.per == "seat" else side) < len(t.counts)]
        score = check.scores[side] if side < len(check.scores) else 0
        kept = check.remembered[side] if side < len(check.remembered) else 0
        out.append(result_words(locale, check.variant, score, kept, marks, tr=tr))
    return out


# -- leaving ----------------------------------------------------------------------------------


def leave_button(locale: str, match_id: int, user_id: int, *, tr: Translator | None = None
                 ) -> list[InlineKeyboardButton]:
    """The row "leave the match" for a player's private keyboard."""
    return [_button(_tr(tr).plain(locale, "btn-leave-match"),
                    LeaveCb(match=match_id, user=user_id, action="ask").pack())]


def leave_keyboard(locale: str, match_id: int, user_id: int, *, tr: Translator | None = None
                   ) -> InlineKeyboardMarkup:
    """The confirmation of leaving: "yes, leave" and "no, I stay" (for ``user_id`` only)."""
    tr = _tr(tr)
    return InlineKeyboardMarkup(inline_keyboard=[[
        _button(tr.plain(locale, "btn-leave-yes"),
                LeaveCb(match=match_id, user=user_id, action="yes").pack()),
        _button(tr.plain(locale, "btn-leave-no"),
                LeaveCb(match=match_id, user=user_id, action="no").pack())]])


def hold_keyboard(locale: str, hold: HoldView, match_id: int, *,
                  tr: Translator | None = None) -> InlineKeyboardMarkup:
    """The group's two answers to the question about a player's timeouts."""
    tr = _tr(tr)
    return InlineKeyboardMarkup(inline_keyboard=[[
        _button(tr.plain(locale, "btn-hold-bot"),
                HoldCb(match=match_id, ver=hold.version, choice="bot").pack()),
        _button(tr.plain(locale, "btn-hold-end"),
                HoldCb(match=match_id, ver=hold.version, choice="end").pack())]])


def render_hold(locale: str, hold: HoldView, seconds: int, *,
                tr: Translator | None = None) -> str:
    """The question to the group when ``hold.name``'s turns timed out (RULES.md §1.17)."""
    return _tr(tr).t(locale, "hold-question", name=clean_name(hold.name), seconds=seconds)
