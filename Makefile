# Two commands do all the set-up on a fresh machine:
#   make run   -- create .venv, install, run the bot (with BOT_TOKEN); without a token, the
#                 local table: the bot against a Telegram of its own, played in the browser
#   make test  -- create .venv, install, run the whole test suite
PY ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-stamp

.PHONY: run test lint bench install clean cluster

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(VENV)/bin/pip install -q --upgrade pip
	$(VENV)/bin/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# without BOT_TOKEN (environment or .env) the local table instead of an error (localtable/);
# `python bot.py`, what Docker and production run, still stops without one
run: $(STAMP)
	$(VENV)/bin/python bot.py --local-table-without-token

# two processes, each test file in one of them (its module fixtures, such as the bot an
# end-to-end file shares, start once): the end-to-end tests spend much of their time waiting
# for Telegram's rate limits, which the other process fills with work
test: $(STAMP)
	$(VENV)/bin/python -m pytest -n 2 --dist loadfile

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# a local cluster: PostgreSQL, WORKERS bot workers, the test Bot API server delivering webhooks
WORKERS ?= 3
cluster: $(STAMP)
	$(VENV)/bin/python -m tests.e2e.cluster --workers $(WORKERS)

bench: $(STAMP)
	$(VENV)/bin/python bench/engine_bench.py

clean:
	rm -rf $(VENV) *.egg-info
