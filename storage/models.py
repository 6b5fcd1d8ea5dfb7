"""The one schema definition: SQLAlchemy 2 tables for chats, users, matches, the action log,
match results, the leaderboard aggregate with the skill ratings and their changes.

The schema is dialect-neutral (SQLite and PostgreSQL): only portable column types
(BigInteger, Integer, String, Boolean, Double, JSON), no partial or expression indexes, no
triggers. Timestamps are Unix time in seconds (float, UTC) so that the deadline sweeper and an
injectable test clock compare plain numbers.

The Alembic revisions in ``storage/migrations/versions`` must produce exactly this metadata;
``tests/test_storage_migrations.py`` compares them.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: Constraint names are fixed so that migrations (and SQLite batch mode) can refer to them.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: ``player_stats.scope`` of the global leaderboard rows (Telegram never uses chat id 0).
GLOBAL_SCOPE = 0

#: Integer primary key that is a 64-bit BIGINT on PostgreSQL and the ROWID alias on SQLite.
AutoId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    """Declarative base carrying the shared :data:`NAMING_CONVENTION`."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Chat(Base):
    """A Telegram group (or private chat) the bot plays in.

    ``settings`` is a JSON object; its key ``"rules"`` holds the chat's default rule options
    (the JSON shape of ``engine.Rules.to_json()``, RULES.md §1). ``topic_id`` is the forum topic
    the chat asked the bot to use (None: any topic / not a forum). ``active`` turns False when the
    bot is removed from the chat.
    """

    __tablename__ = "chats"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    title: Mapped[str | None] = mapped_column(String(255))
    language: Mapped[str | None] = mapped_column(String(16))
    is_forum: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    topic_id: Mapped[int | None] = mapped_column(BigInteger)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[float] = mapped_column(Double)
    updated_at: Mapped[float] = mapped_column(Double)


class User(Base):
    """A Telegram user who touched the bot. ``dm_open``: the user has started the bot in a
    private chat, so their hand can be sent there; ``language``: their /lang choice;
    ``telegram_language``: the ``language_code`` Telegram last reported for them (revision
    0008), spoken where they chose none, after a restart too."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    first_name: Mapped[str] = mapped_column(String(255), default="", server_default="")
    last_name: Mapped[str | None] = mapped_column(String(255))
    username: Mapped[str | None] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(16))
    telegram_language: Mapped[str | None] = mapped_column(String(16))
    dm_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[float] = mapped_column(Double)
    updated_at: Mapped[float] = mapped_column(Double)


class Match(Base):
    """A lobby that becomes a match.

    - ``status``: ``lobby`` | ``playing`` | ``finished`` | ``stopped`` | ``expired``.
    - ``end_reason``: None while open; ``limit`` (RULES.md §1.15), ``timeout`` (§1.17),
      ``stopped``, ``bot_removed``, ``expired``.
    - ``active_key``: ``"<chat_id>:<thread_id or 0>"`` while the status is lobby or playing,
      else NULL; its unique constraint allows one open lobby/match per chat topic, across
      processes, without a partial index.
    - ``rules``: ``engine.Rules.to_json()``; ``seats``: ``[{"user_id": int, "name": str}, ...]``
      in seat order (RULES.md §1.1); ``seed``: the deal seed, set at start.
    - ``version``: bumped by every accepted change (optimistic concurrency check).
    - ``messages``: the message ids the bot must edit, a JSON object owned by the UI layer.
    - ``deadline_at``: when the current turn (or the lobby) times out, Unix seconds; None: none.
    - ``hold``: a question the match waits on instead of a turn (revision 0005), None
      otherwise: ``{"afk": seat}`` while the group chooses whether a computer player takes
      the seat of a player whose turns timed out (RULES.md §1.17) or the match ends by
      timeout; ``deadline_at`` is then when the question times out.
    - ``stopped_by``: the name of the person who stopped the match (revision 0010), None
      for a match not stopped by a person.
    """

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("chats.id"))
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    end_reason: Mapped[str | None] = mapped_column(String(16))
    active_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seats: Mapped[list[Any]] = mapped_column(JSON, default=list)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    messages: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    deadline_at: Mapped[float | None] = mapped_column(Double)
    hold: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    stopped_by: Mapped[str | None] = mapped_column(String(64))
    creator_id: Mapped[int] = mapped_column(BigInteger)
    rematch_of: Mapped[int | None] = mapped_column(AutoId, ForeignKey("matches.id"))
    created_at: Mapped[float] = mapped_column(Double)
    updated_at: Mapped[float] = mapped_column(Double)
    started_at: Mapped[float | None] = mapped_column(Double)
    finished_at: Mapped[float | None] = mapped_column(Double)

    __table_args__ = (
        Index(None, "deadline_at"),
        Index(None, "chat_id", "status"),
    )


class OpenSeat(Base):
    """Who sits in which open match (revision 0006): one row per user seated in a lobby or
    a playing match (``matches.seats``), kept by the repository in the transaction that
    changes the seats or closes the match, so the open matches of a user are found by the
    primary key instead of decoding the seats of every open match."""

    __tablename__ = "open_seats"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    match_id: Mapped[int] = mapped_column(
        AutoId, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class Action(Base):
    """The append-only action log: one row per accepted decision, ``seq`` = 1, 2, 3, ...

    ``decision`` is ``{"tile": "2-5", "end": "left"|"right"|null}`` for a player's move or
    ``{"host": true}`` for a host move on timeout (RULES.md §1.17). ``user_id`` is who pressed
    (None for the host). The seed plus these rows reproduce the match through the engine.
    """

    __tablename__ = "actions"

    match_id: Mapped[int] = mapped_column(
        AutoId, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    decision: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Double)


class MatchResult(Base):
    """One row per seat of a match that ended under the rules (``ended_by`` = ``limit``,
    RULES.md §1.15, or ``timeout``, §1.17); stopped/expired matches and matches ended by the
    bot's removal have none.

    ``final_score`` is the open score (the team's in team play, §1.14); ``rating`` the rating
    gain (§1.16); ``outs`` how many rounds the player went out (§1.9); ``fish`` how many fish the
    player made as the fisher (§1.10); ``timed_out``: the player whose timeouts ended the match.
    ``bot``: the strength of a computer player's seat (revision 0003), None for a human; such
    rows count in :class:`BotStats`, never in a person's :class:`PlayerStats`.

    Revision 0005: ``variant`` the game (``engine.Rules.variant``, RULES.md §2); ``side`` the
    scoring side (the seat, or the team 0/1, §1.14); ``place`` the side's place in the match
    (1 best, equal places tie; ``PlayerResult.place``); ``left_match`` True for a person who
    left the started match and whose seat a computer player finished (rated 0 as the
    timed-out player of §1.16; ``user_id``/``name`` are the person's); ``title`` a goat's
    title where the variant gives one (``MatchEnd.title``: ``sea``, ``snotty``, ``admiral``,
    ``extraordinary``, ``hanging``, ``general``, RULES.md §2.1, §2.9).

    Revision 0010 (issue 30 items 1 and 4): ``marks`` what the game counts beside points, as
    the match ended it for the seat (``PlayerResult.marks``: a list of ``{"name", "count",
    "limit", "per"}``, the seat's own count of a mark kept per seat, its side's of one kept
    per side; Семёрка's палки, RULES.md §2.8, Генерал's lost rounds, §2.9), ``[]`` for a game
    that counts none, NULL for a row stored before the revision (not known); ``remembered``
    the side's points still remembered at the end (§1.12; 0 for a row stored before).
    """

    __tablename__ = "match_results"

    match_id: Mapped[int] = mapped_column(
        AutoId, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(255), default="", server_default="")
    chat_id: Mapped[int] = mapped_column(BigInteger)
    final_score: Mapped[int] = mapped_column(Integer)
    goat: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[int] = mapped_column(Integer)
    outs: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    fish: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    ended_by: Mapped[str] = mapped_column(String(16))
    finished_at: Mapped[float] = mapped_column(Double)
    bot: Mapped[str | None] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(16), default="classic",
                                         server_default="classic")
    side: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    place: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    left_match: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    title: Mapped[str | None] = mapped_column(String(16))
    marks: Mapped[list[Any] | None] = mapped_column(JSON(none_as_null=True))
    remembered: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))

    __table_args__ = (
        Index(None, "user_id", "finished_at"),
        Index(None, "chat_id", "finished_at"),
    )


class PlayerStats(Base):
    """Leaderboard aggregate over :class:`MatchResult`, kept in the same transaction as the
    results it sums (revision 0005; revision 0002 kept one row per scope and person over
    every variant).

    Key: ``scope`` a chat id, or :data:`GLOBAL_SCOPE` (0) for all chats; ``variant`` the game
    (RULES.md §2: ratings of different games are not comparable); ``with_bots`` False for the
    board of matches without computer players, True for the board of every match (the global
    scope has only the former, "fair boards"; see :mod:`storage.skill`); ``user_id`` a person
    (computer players' results go to :class:`BotStats`).

    Sums: ``matches``, ``goats`` (§1.15), ``rating`` the points of §1.16, ``outs``, ``fish``,
    ``score_sum`` (``score_sum`` / ``matches`` is the average final score), ``wins`` first
    places.  The skill rating (:mod:`storage.skill`): ``mu``, ``sigma`` and ``skill`` =
    μ − 3σ, the conservative estimate the board is ordered by.
    """

    __tablename__ = "player_stats"

    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    with_bots: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    goats: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    rating: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    outs: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    fish: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    score_sum: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    skill: Mapped[float] = mapped_column(Double)

    __table_args__ = (
        Index(None, "scope", "variant", "with_bots", "skill"),
        Index(None, "user_id"),
    )


class RatingChange(Base):
    """How one match changed one person's skill rating on one board (revision 0005): the
    board (``scope``, ``with_bots``; its variant is the match's) and (μ, σ) before and after
    (:mod:`storage.skill`).  The match history shows the change of the conservative estimate,
    and the rows let the ratings be checked against their history."""

    __tablename__ = "rating_changes"

    match_id: Mapped[int] = mapped_column(
        AutoId, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    scope: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    with_bots: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    mu_before: Mapped[float] = mapped_column(Double)
    sigma_before: Mapped[float] = mapped_column(Double)
    mu_after: Mapped[float] = mapped_column(Double)
    sigma_after: Mapped[float] = mapped_column(Double)


class BotStats(Base):
    """Computer players' results, summed per strength (``easy``/``normal``/``hard``) over
    all chats, kept apart from the humans' :class:`PlayerStats` (revision 0003)."""

    __tablename__ = "bot_stats"

    strength: Mapped[str] = mapped_column(String(16), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    goats: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    rating: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    outs: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    fish: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    score_sum: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))


class GroupSend(Base):
    """A message or edit the bot sent to a group, kept for a minute (revision 0004): Telegram
    takes about 20 a minute per group, edits included, and a restarted bot reads the sends of
    the last minute to go on counting where it stopped. ``sent_at``: Unix seconds."""

    __tablename__ = "group_sends"

    id: Mapped[int] = mapped_column(AutoId, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    sent_at: Mapped[float] = mapped_column(Double, index=True)


class InboxUpdate(Base):
    """A Telegram update received by a worker of a cluster (revision 0007, issue 22), stored
    before the webhook is answered, once per ``update_id`` (Telegram resends an update it got
    no 2xx for).  ``chat_id`` is the route key: the chat whose owner worker processes it (a
    press on a private hand message routes to its match's group).  ``payload``: the update's
    JSON as Telegram sent it; ``received_at`` / ``done_at``: Unix seconds (``done_at`` None
    while pending); ``claimed_by``: the worker id that took it (None before).  ``seq``
    (revision 0009): its position in its chat's order, in which the chat's owner processes
    the pending rows -- a Telegram update's ``update_id``; a Mini App action's (negative
    ``update_id``) the largest position among the chat's pending rows when it came, so it
    goes after the updates that came before it (:func:`storage.cluster.inbox_put`)."""

    __tablename__ = "inbox"

    update_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    received_at: Mapped[float] = mapped_column(Double)
    claimed_by: Mapped[int | None] = mapped_column(BigInteger)
    done_at: Mapped[float | None] = mapped_column(Double)
    seq: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (
        Index(None, "done_at", "chat_id", "seq"),
    )



class ChatLease(Base):
    """Which worker owns a chat (revision 0007, issue 22; 0013): the owner alone processes
    the chat's updates and fires its matches' deadlines.  A chat is leased only while it has
    work (an open lobby or match, pending updates); its owner gives it back when it falls idle
    (the row goes).  ``owner``: the worker id (it holds a session advisory lock on that id and
    keeps its :class:`ClusterWorker` row fresh while it lives: the lease lives as long as
    both do), 0 for a chat handed back that needs an owner (its owner stopped, or shed it to
    a worker with fewer chats); ``epoch`` grows at every change of hands while the row
    lives; ``since``: Unix seconds, when it last changed hands."""

    __tablename__ = "chat_leases"

    chat_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    owner: Mapped[int] = mapped_column(BigInteger, index=True)
    epoch: Mapped[int] = mapped_column(Integer)
    since: Mapped[float] = mapped_column(Double)


class ClusterWorker(Base):
    """A live worker of a cluster (revision 0013, issue 33): its heartbeat pushes
    ``expires_at`` (Unix seconds) forward every lease/3 seconds, which keeps every lease it
    holds alive -- one row written per worker, however many chats it owns.  ``owned``: how
    many chats it owned at its last heartbeat (the workers share the chats by it);
    ``joined_at``: Unix seconds.  A worker that stops deletes its row; a dead one's row goes
    once its chats are taken."""

    __tablename__ = "cluster_workers"

    worker_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    expires_at: Mapped[float] = mapped_column(Double)
    owned: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[float] = mapped_column(Double)


class RateBucket(Base):
    """A token bucket shared by the workers of a cluster (revision 0007, issue 22): a private
    chat's (``key`` = its chat id) or the bot's global one (``key`` 0).  ``tokens`` as of
    ``at`` (Unix seconds)."""

    __tablename__ = "rate_buckets"

    key: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    tokens: Mapped[float] = mapped_column(Double)
    at: Mapped[float] = mapped_column(Double)


class BotSecret(Base):
    """A secret the bot made for itself and every worker shares (revision 0012, issue 33):
    ``name`` (``"webhook"``: the ``secret_token`` Telegram sends with every webhook POST when
    ``WEBHOOK_SECRET`` is not set), its ``value`` (1–256 characters of ``A-Za-z0-9_-``) and
    ``created_at`` (Unix seconds).  Made once, by whichever worker starts first; kept, so a
    restart registers the same one."""

    __tablename__ = "bot_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))
    created_at: Mapped[float] = mapped_column(Double)
