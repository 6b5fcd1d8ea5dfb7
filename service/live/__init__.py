"""The service's window on the engine: every module of the service that reads ``engine`` is in
this package, so adapting the service to a new engine is a change here.

- :mod:`service.live.match` — a match in memory (:class:`~service.live.match.LiveMatch`),
  rebuilt from its seed and action log, the steps that change it, and its
  :class:`~service.views.Result`;
- :mod:`service.live.viewing` — the views of a match for each audience (the group's table,
  each seat's hand, a round's summary, the match end);
- :mod:`service.live.moves` — tiles, moves, logged decisions and public events in the
  service's terms;
- :mod:`service.live.rulebook` — the games and their options (:func:`variant_infos`);
- :mod:`service.live.seats` — who holds a seat: people and computer players;
- :mod:`service.live.thinking` — a computer player's decision (run in worker processes);
- :mod:`service.live.records` — game records: a played match's, and the check of a sent one.

The other rooms of the service see these modules' values and plain views, never an engine
value.  This package re-exports nothing.
"""
