"""initData verification for the Mini App (issue 21): signature, age, signed start_param,
and the short-lived stream token."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode

import pytest

from delivery.initdata import (
    InitDataError,
    check_stream_token,
    mint_stream_token,
    sign_init_data,
    start_param_for,
    verify_init_data,
)

TOKEN = "123456:TEST-token"
NOW = 1_800_000_000


def _data(**over) -> dict[str, str]:
    fields = {"auth_date": str(NOW - 10), "query_id": "q1",
              "user": json.dumps({"id": 42, "first_name": "Ана", "language_code": "uk"}),
              "start_param": start_param_for(7)}
    fields.update(over)
    return fields


def test_signed_data_gives_the_caller_and_the_match():
    caller = verify_init_data(sign_init_data(_data(), TOKEN), TOKEN, now=NOW)
    assert (caller.user_id, caller.language_code, caller.match_id) == (42, "uk", 7)


def test_no_start_param_means_no_match():
    fields = _data()
    del fields["start_param"]
    assert verify_init_data(sign_init_data(fields, TOKEN), TOKEN, now=NOW).match_id is None


def test_another_bots_signature_is_refused():
    with pytest.raises(InitDataError):
        verify_init_data(sign_init_data(_data(), "999:other"), TOKEN, now=NOW)


@pytest.mark.parametrize("key,value", [("start_param", "m8"), ("auth_date", str(NOW)),
                                       ("user", json.dumps({"id": 43}))])
def test_tampering_any_field_breaks_the_signature(key, value):
    fields = dict(parse_qsl(sign_init_data(_data(), TOKEN)))
    fields[key] = value
    with pytest.raises(InitDataError, match="signature"):
        verify_init_data(urlencode(fields), TOKEN, now=NOW)


def test_unsigned_data_is_refused():
    with pytest.raises(InitDataError):
        verify_init_data(urlencode(_data()), TOKEN, now=NOW)


def test_data_from_1970_is_refused_though_signed():
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(sign_init_data(_data(auth_date="1"), TOKEN), TOKEN, now=NOW)


def test_age_limit_is_the_callers_choice():
    data = sign_init_data(_data(auth_date=str(NOW - 600)), TOKEN)
    assert verify_init_data(data, TOKEN, now=NOW, max_age_s=601).user_id == 42
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(data, TOKEN, now=NOW, max_age_s=599)


def test_future_dated_data_is_refused():
    with pytest.raises(InitDataError, match="expired"):
        verify_init_data(sign_init_data(_data(auth_date=str(NOW + 3600)), TOKEN), TOKEN, now=NOW)


@pytest.mark.parametrize("start", ["7", "mx", "m-1", "x7"])
def test_a_start_param_that_names_no_match_is_refused(start):
    with pytest.raises(InitDataError, match="start_param"):
        verify_init_data(sign_init_data(_data(start_param=start), TOKEN), TOKEN, now=NOW)


def test_data_without_a_user_is_refused():
    fields = _data()
    del fields["user"]
    with pytest.raises(InitDataError, match="user"):
        verify_init_data(sign_init_data(fields, TOKEN), TOKEN, now=NOW)


def test_stream_token_round_trip_and_expiry():
    token = mint_stream_token(42, 7, TOKEN, ttl_s=300, now=NOW)
    assert check_stream_token(token, TOKEN, now=NOW + 299) == (42, 7)
    with pytest.raises(InitDataError, match="expired"):
        check_stream_token(token, TOKEN, now=NOW + 301)


@pytest.mark.parametrize("bad", ["", "42.7", "42.8.9999999999.abc"])
def test_forged_stream_tokens_are_refused(bad):
    with pytest.raises(InitDataError):
        check_stream_token(bad, TOKEN, now=NOW)


def test_a_token_for_another_match_does_not_verify():
    user, _match, expiry, mac = mint_stream_token(42, 7, TOKEN, now=NOW).split(".")
    with pytest.raises(InitDataError, match="bad token"):
        check_stream_token(f"{user}.8.{expiry}.{mac}", TOKEN, now=NOW)
