"""The coordination's cost against the chats known, on a real PostgreSQL (issue 33, "Must
show"): before (a tree of an older commit, by default 3ea4f07) and after (this tree), side
by side in one run.

    .venv/bin/python -m bench.coordination_bench                 # 1k/10k/100k × 1%/10%
    .venv/bin/python -m bench.coordination_bench --chats 1000 --active 0.01 --seconds 4

For each size a fresh database is migrated by the side's own code and filled: ``chats``
known chats, of which ``active`` have a match being played (its deadline an hour ahead: a
person's turn).  Two workers of that side run their real loops (the owner loop of
``service.cluster`` and the deadlines' sweeper, as ``handlers.run`` starts them).  Before,
worker A owns every chat ever seen (the old code never gave a lease back) and worker B none;
after, the two share the active chats (as rebalancing leaves them; idle chats have no
lease).  Nothing is sent and no update comes in: both workers are idle.  Over ``--seconds`` after a
warm-up, counted in each worker process by SQLAlchemy's ``before_cursor_execute`` and
``after_cursor_execute`` events on every engine of the worker: the statements each worker
sent, and the rows written to the lease tables (``chat_leases``, ``cluster_workers``) and the
rate-limit table (``rate_buckets``).  Then worker A asks its shared limits before 20
requests a second to groups for ``--seconds``: the rate-limit rows written per request.

Targets: no per-chat cost for idle chats; an idle worker under one statement a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The commit measured as "before": main before the coordination followed the active chats.
BEFORE = "3ea4f07"
#: Requests a second asked of the shared limits in the rate phase.
SENDS_PER_SECOND = 20
_WRITES = ("chat_leases", "cluster_workers", "rate_buckets")


def _tree(commit: str) -> Path:
    """A checkout of ``commit`` under /tmp (a detached git worktree, made once)."""
    path = Path("/tmp") / f"kozel-bench-{commit}"
    if not (path / "service" / "cluster.py").exists():
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", str(path),
                        commit], check=True, capture_output=True)
    return path


# ----------------------------------------------------------------------------- the child


class _Counter:
    """Statements and written rows per ``application_name`` (one per worker)."""

    def __init__(self) -> None:
        self.statements: dict[str, int] = {}
        self.rows: dict[tuple[str, str], int] = {}
        self.on = False

    def install(self) -> None:
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        def who(conn) -> str:
            return str(conn.engine.url.query.get("application_name", ""))

        @event.listens_for(Engine, "before_cursor_execute")
        def before(conn, cursor, statement, params, context, many):  # noqa: ANN001
            if self.on:
                key = who(conn)
                self.statements[key] = self.statements.get(key, 0) + 1

        @event.listens_for(Engine, "after_cursor_execute")
        def after(conn, cursor, statement, params, context, many):  # noqa: ANN001
            if not self.on:
                return
            sql = " ".join(statement.split()).lower()
            for table in _WRITES:
                if any(f"{verb} {table}" in sql for verb in
                       ("update", "insert into", "delete from")):
                    key = (who(conn), table)
                    self.rows[key] = self.rows.get(key, 0) + max(0, cursor.rowcount or 0)


def _fill(url: str, chats: int, active: int, owned: int, owners: tuple[int, ...],
          after: bool) -> None:
    """``chats`` chats, ``active`` of them with a match being played, the first ``owned``
    leased to ``owners`` in turn (the old schema's leases carry an expiry, the new one's do
    not)."""
    from sqlalchemy import create_engine, text

    eng = create_engine(url)
    now = time.time()
    with eng.begin() as conn:
        conn.execute(text("""INSERT INTO chats (id, title, is_forum, settings, active,
                                                created_at, updated_at)
                             SELECT -g, 'g', false, '{}', true, 0, 0
                               FROM generate_series(1, :n) AS g"""), {"n": chats})
        conn.execute(text("""INSERT INTO matches (chat_id, status, rules, seats, version,
                                                  messages, deadline_at, creator_id,
                                                  created_at, updated_at, started_at)
                             SELECT -g, 'playing', '{}', '[]', 1, '{}', :later, 1, 0, 0, 0
                               FROM generate_series(1, :n) AS g"""),
                     {"n": active, "later": now + 3600})
        column, value = ("since", "0") if after else ("expires_at", ":later")
        conn.execute(text(f"""INSERT INTO chat_leases (chat_id, owner, epoch, {column})
                              SELECT -g, (CAST(:owners AS bigint[]))[1 + g % :k], 1, {value}
                                FROM generate_series(1, :n) AS g"""),
                     {"n": owned, "owners": list(owners), "k": len(owners),
                      "later": now + 3600})
    eng.dispose()


async def _child(args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(args.tree))
    os.chdir(args.tree)
    from service.cluster import WorkerOptions
    from service.game import GameService
    from storage import open_database

    counter = _Counter()
    counter.install()
    db = await open_database(args.url)  # migrated by this side's own code
    await db.dispose()
    after = Path(args.tree, "storage/migrations/versions/0013_cluster_workers.py").exists()
    active = int(args.chats * args.active)
    a_id, b_id = 101, 202
    # before: worker A holds every chat ever seen (the old code never gave a lease back);
    # after: the chats with work, shared by the two workers as their rebalancing leaves them
    _fill(args.url, args.chats, active, active if after else args.chats,
          (a_id, b_id) if after else (a_id,), after)
    sweep = {}
    if after:
        from service.cluster import SWEEP_EVERY

        sweep = {"interval": SWEEP_EVERY}
    services = [await GameService.open(args.url, worker=WorkerOptions(worker_id=w, lease=5.0))
                for w in (a_id, b_id)]
    stop = asyncio.Event()

    async def handle(payload):  # noqa: ANN001, ANN202 - no update comes in
        return None

    tasks = []
    for svc in services:
        svc.cluster.exit = None
        await svc.cluster.start()
        tasks.append(asyncio.create_task(svc.cluster.run(handle, stop=stop)))
        tasks.append(asyncio.create_task(svc.deadlines.run(stop=stop, **sweep)))
    await asyncio.sleep(args.warmup)
    names = {w: f"kozel-w{w}" for w in (a_id, b_id)}

    def window() -> dict:
        out = {}
        for w, name in names.items():
            out[w] = {"statements": counter.statements.get(name, 0) / args.seconds,
                      **{t: counter.rows.get((name, t), 0) / args.seconds for t in _WRITES}}
        return out

    counter.on = True
    await asyncio.sleep(args.seconds)
    counter.on = False
    idle = window()
    counter.statements.clear()
    counter.rows.clear()
    # the rate phase: worker A asks its shared limits before requests to groups
    cluster = services[0].cluster
    counter.on = True
    sent, start = 0, time.monotonic()
    while time.monotonic() - start < args.seconds:
        wait = await cluster.shared(-1 - sent % max(1, active or 1))
        if wait > 0:
            await asyncio.sleep(wait)
            continue
        sent += 1
        await asyncio.sleep(max(0.0, start + sent / SENDS_PER_SECOND - time.monotonic()))
    counter.on = False
    rate = window()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for svc in services:
        await svc.cluster.stop()
        await svc.close()
    return {"idle": idle, "rate": rate, "sent": sent, "a": a_id, "b": b_id,
            "leased": active if after else args.chats}


# ----------------------------------------------------------------------------- the parent


def _run_side(tree: Path, url: str, chats: int, active: float, seconds: float,
              warmup: float) -> dict:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", "--tree", str(tree),
         "--url", url, "--chats", str(chats), "--active", str(active),
         "--seconds", str(seconds), "--warmup", str(warmup)],
        capture_output=True, text=True, check=False, cwd=str(tree))
    if out.returncode != 0:
        raise RuntimeError(out.stderr[-3000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Parse the command line, run every size on both sides, print the table."""
    parser = argparse.ArgumentParser(prog="python -m bench.coordination_bench",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--chats", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--active", type=float, nargs="+", default=[0.01, 0.1])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--before", default=BEFORE, help="the commit measured as before")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", default=str(REPO), help=argparse.SUPPRESS)
    parser.add_argument("--url", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.chats, args.active = args.chats[0], args.active[0]
        print(json.dumps(asyncio.run(_child(args))))
        return
    sys.path.insert(0, str(REPO))
    from tests import pgkit

    sides = {"before": _tree(args.before), "after": REPO}
    server = pgkit.PgServer.start()
    head = ("chats", "active", "side", "leases", "A lease w/s", "A stmt/s", "B lease w/s",
            "B stmt/s", "rate w/request")
    print(" | ".join(head))
    print(" | ".join("---" for _ in head))
    try:
        for chats in args.chats:
            for active in args.active:
                for side, tree in sides.items():
                    name = server.create_database(prefix=f"kozel_bench_{side}")
                    got = _run_side(tree, server.url(name), chats, active, args.seconds,
                                    args.warmup)
                    server.drop_database(name)
                    a, b = got["idle"][str(got["a"])], got["idle"][str(got["b"])]
                    rate = got["rate"][str(got["a"])]
                    per = (rate["rate_buckets"] * args.seconds / got["sent"]
                           if got["sent"] else 0.0)
                    leases = ("chat_leases", "cluster_workers")
                    print(" | ".join((
                        f"{chats:,}", f"{active:.0%}", side, f"{got['leased']:,}",
                        f"{sum(a[t] for t in leases):,.1f}", f"{a['statements']:.2f}",
                        f"{sum(b[t] for t in leases):,.1f}", f"{b['statements']:.2f}",
                        f"{per:.2f}")), flush=True)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
