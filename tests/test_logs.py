"""The logs (issue 33, "Structured logs"): one JSON object a line on request, with the
update, chat and match ids as fields; nothing per update at INFO."""

from __future__ import annotations

import io
import json
import logging

import pytest

from service import logs
from service.game import GameService
from tests.servicekit import FakeClock, start_match


@pytest.fixture
def restore_root():
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for h in list(root.handlers):
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)
    for name in logs._CHATTY:
        logging.getLogger(name).setLevel(logging.NOTSET)


def _lines(buf: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in buf.getvalue().splitlines()]


def test_json_lines_carry_the_bound_ids(restore_root) -> None:
    buf = io.StringIO()
    logs.configure("INFO", "json", stream=buf)
    log = logging.getLogger("kozel.test")
    log.info("before")
    with logs.bound(update_id=17, chat_id=-100):
        log.warning("inside %s", "x")
        with logs.bound(match_id=3):
            log.info("deeper")
        log.info("after the match")
    log.info("outside")
    before, inside, deeper, after, outside = _lines(buf)
    assert before["update_id"] is None and before["chat_id"] is None
    assert inside["message"] == "inside x" and inside["level"] == "WARNING"
    assert (inside["update_id"], inside["chat_id"], inside["match_id"]) == (17, -100, None)
    assert (deeper["update_id"], deeper["chat_id"], deeper["match_id"]) == (17, -100, 3)
    assert after["match_id"] is None and after["chat_id"] == -100
    assert outside["update_id"] is None and outside["logger"] == "kozel.test"


def test_text_lines_name_the_ids_and_info_has_no_line_per_update(restore_root) -> None:
    buf = io.StringIO()
    logs.configure("INFO", "text", stream=buf)
    with logs.bound(update_id=5):
        logging.getLogger("kozel.test").info("hello")
    logging.getLogger("aiogram.event").info("Update id=5 is handled")
    logging.getLogger("aiohttp.access").info("POST /telegram 200")
    (line,) = buf.getvalue().splitlines()
    assert line.endswith("kozel.test: hello [update=5]")
    buf.truncate(0)
    buf.seek(0)
    logs.configure("DEBUG", "text", stream=buf)
    logging.getLogger("aiogram.event").info("Update id=6 is handled")
    assert "Update id=6" in buf.getvalue()
    with pytest.raises(ValueError):
        logs.configure("INFO", "xml", stream=buf)


async def test_a_match_being_changed_is_named_in_its_log_lines(restore_root, tmp_path) -> None:
    buf = io.StringIO()
    logs.configure("INFO", "json", stream=buf)
    svc = await GameService.open(tmp_path / "kozel.sqlite3", clock=FakeClock())
    try:
        res = await start_match(svc, -100, 2)
        async with svc.store.opening(res.match_id):
            logging.getLogger("kozel.test").info("changing it")
        logging.getLogger("kozel.test").info("done")
    finally:
        await svc.close()
    lines = [x for x in _lines(buf) if x["logger"] == "kozel.test"]
    assert [x["match_id"] for x in lines] == [res.match_id, None]
