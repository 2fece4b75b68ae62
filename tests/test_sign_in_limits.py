"""A limit per account, whatever the address: guesses at one account from many addresses
(X-Forwarded-For is not trusted: each client is its own address here) stop at the
account's limit; the sign-in page says until when, in Japanese; the head judge's desk
names the judge whose account is locked. Judges' PINs have six digits at least."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from shinpan.engine.event_rules import Role
from shinpan.errors import InvalidInput
from shinpan.services import accounts, events
from shinpan.services.accounts import ACCOUNT_LIMIT, ACCOUNT_LOCK, account_locked_until, attempt_sign_in
from shinpan.store.db import Database
from shinpan.web.app import create_app
from web_support import csrf_in, sign_in

ADDRESSES = [f"198.51.100.{n}" for n in range(1, 9)]  # eight addresses
LIMITS = {"limit": 5, "per_address": 20, "window": 300.0}


def _guess(client: TestClient, name: str, password: str) -> tuple[int, str]:
    token = csrf_in(client.get("/login").text)
    done = client.post("/login", data={"name": name, "password": password, "csrf_token": token})
    return done.status_code, done.text


def test_eight_addresses_get_no_more_than_the_accounts_limit_of_guesses(db: Database) -> None:
    """Eight addresses, six guesses each (under each address's own limit of 5 per name, 20
    in all): the account takes ACCOUNT_LIMIT failures, then refuses everyone, the right
    password too; the page says until when (the venue's time) and how long, in Japanese."""
    accounts.add_user(db, "狙われた 審判", "right-password-1", 2)
    app = create_app(db)
    codes: list[int] = []
    for address in ADDRESSES:
        with TestClient(app, client=(address, 50000)) as client:
            codes += [_guess(client, "狙われた 審判", f"wrong-{address}-{n}")[0] for n in range(6)]
    assert codes.count(401) == ACCOUNT_LIMIT and codes.count(429) == len(codes) - ACCOUNT_LIMIT, codes
    with TestClient(app, client=("203.0.113.9", 50000)) as owner:
        status, page = _guess(owner, "狙われた 審判", "right-password-1")
    assert status == 429
    said = re.search(
        r"ログインの失敗が続いたため、このアカウントは(\d\d:\d\d)まで\(あと(\d+)分\)ログインできません", page
    )
    assert said is not None, page
    assert 1 <= int(said.group(2)) <= ACCOUNT_LOCK.total_seconds() // 60


def test_the_service_counts_guesses_at_an_account_whatever_the_address(db: Database) -> None:
    at = datetime(2026, 3, 1, 5, 0, tzinfo=UTC)
    taken = []
    for n in range(40):
        refused = attempt_sign_in(db, ADDRESSES[n % 8], "誰か", now=at + timedelta(seconds=n), **LIMITS)
        taken.append(refused is None)
    assert taken.count(True) == ACCOUNT_LIMIT
    # The lock ends ACCOUNT_LOCK after the last failure; the next failure locks twice as long.
    later = at + timedelta(seconds=ACCOUNT_LIMIT - 1) + ACCOUNT_LOCK + timedelta(seconds=1)
    assert attempt_sign_in(db, ADDRESSES[0], "誰か", now=later, **LIMITS) is None
    again = attempt_sign_in(db, ADDRESSES[1], "誰か", now=later + timedelta(seconds=1), **LIMITS)
    assert again is not None and again.locked_until == later + 2 * ACCOUNT_LOCK
    # Another account is not touched by it.
    assert attempt_sign_in(db, ADDRESSES[0], "別の人", now=later, **LIMITS) is None


def test_the_lock_doubles_with_each_failure_and_has_a_ceiling() -> None:
    t = datetime(2026, 3, 1, tzinfo=UTC)
    few = [t] * (ACCOUNT_LIMIT - 1)
    assert account_locked_until(few) is None
    assert account_locked_until([*few, t]) == t + ACCOUNT_LOCK
    assert account_locked_until([*few, t, t]) == t + 2 * ACCOUNT_LOCK
    assert account_locked_until([t] * (ACCOUNT_LIMIT + 30)) == t + timedelta(hours=1)


def test_the_head_judge_is_told_on_the_desk(db: Database) -> None:
    head = accounts.add_user(db, "主任 審判", "head-password-1", 2)
    event = events.create_event(
        db, name="大会", head_judge="主任 審判", head_judge_level=2, head_judge_account=head.uid
    )
    accounts.join(db, accounts.invite(db, event, Role.floor_judge, "主任 審判"), "床 審判", "864209")
    for n in range(ACCOUNT_LIMIT):
        attempt_sign_in(db, ADDRESSES[n % 8], "床 審判", **LIMITS)
    (locked,) = accounts.locked_judges(db, event)
    assert (locked.seat, locked.account) == ("床 審判", "床 審判")
    desk = (
        sign_in(TestClient(create_app(db)), "主任 審判", "head-password-1").get(f"/events/{event}/desk").text
    )
    assert "床 審判" in desk and "ログインの失敗が続いた" in desk and "locked-account" in desk


@pytest.mark.parametrize("pin", ["1234", "12345"])
def test_a_pin_has_six_digits_at_least(db: Database, pin: str) -> None:
    head = accounts.add_user(db, "主任", "head-password-1", 2)
    event = events.create_event(
        db, name="大会", head_judge="主任", head_judge_level=2, head_judge_account=head.uid
    )
    code = accounts.invite(db, event, Role.floor_judge, "主任")
    with pytest.raises(InvalidInput, match="at least 6"):
        accounts.join(db, code, "床", pin)
    assert accounts.join(db, code, "床", "123456").name == "床"
