"""The retry rules against httpx.MockTransport (no studio): a real 429 needs 5 exports pending at once
for one person, which the studio's own db tests cover (lib/pending-job-limits.ts); here the client's side:
Retry-After honoured, the same idempotency key on every try, no retry of a POST without one, errors
carrying the server's where and what."""

from __future__ import annotations

import json

import httpx
import pytest

from witness import Witness, WitnessError


def client(handler, sleeps: list[float], **kwargs) -> Witness:
    return Witness("http://studio.test", "wit_test", transport=httpx.MockTransport(handler), sleep=sleeps.append, **kwargs)


def export_answer(status: str = "queued") -> dict:
    return {
        "export": {
            "id": "exp1",
            "format": "trl-dpo",
            "status": status,
            "progress": 0,
            "rows": None,
            "sha256": None,
            "error": None,
            "params": {"project": "demo"},
            "purpose": "training",
            "createdAt": "2026-12-06T00:00:00.000Z",
            "finishedAt": None,
        }
    }


def test_429_waits_retry_after_and_resends_under_the_same_idempotency_key():
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) < 3:
            return httpx.Response(
                429,
                headers={"Retry-After": "7"},
                json={"error": {"code": "RATE_LIMITED", "message": "5 exports pending", "details": {"retryAfterSeconds": 7}}},
            )
        return httpx.Response(202, json=export_answer())

    sleeps: list[float] = []
    job = client(handler, sleeps).start_export("trl-dpo", project="demo")
    assert job.id == "exp1" and job.status == "queued"
    assert sleeps == [7.0, 7.0]
    keys = {r.headers["Idempotency-Key"] for r in seen}
    assert len(seen) == 3 and len(keys) == 1 and next(iter(keys))
    assert all(r.headers["Authorization"] == "Bearer wit_test" for r in seen)
    assert json.loads(seen[0].content) == {"format": "trl-dpo", "project": "demo", "split": "train"}


def test_a_second_call_gets_a_new_idempotency_key():
    keys: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        keys.append(request.headers["Idempotency-Key"])
        return httpx.Response(202, json=export_answer())

    w = client(handler, [])
    w.start_export("trl-dpo", project="demo")
    w.start_export("trl-dpo", project="demo")
    assert len(set(keys)) == 2


def test_503_and_dropped_connections_are_retried_for_gets_with_backoff():
    calls = {"n": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            raise httpx.ConnectError("connection refused", request=request)
        if calls["n"] == 2:
            return httpx.Response(503, json={"error": {"code": "UNAVAILABLE", "message": "starting"}})
        return httpx.Response(200, json={"projects": []})

    sleeps: list[float] = []
    assert client(handler, sleeps).projects() == []
    assert calls["n"] == 3 and len(sleeps) == 2 and all(0 < s <= 30 for s in sleeps)


def test_gives_up_after_max_retries_with_the_servers_error():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "1"}, json={"error": {"code": "RATE_LIMITED", "message": "slow down"}})

    sleeps: list[float] = []
    with pytest.raises(WitnessError) as raised:
        client(handler, sleeps, max_retries=2).projects()
    assert raised.value.status == 429 and raised.value.code == "RATE_LIMITED" and raised.value.message == "slow down"
    assert sleeps == [1.0, 1.0]


def test_a_retry_after_longer_than_max_retry_wait_is_not_waited():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(429, headers={"Retry-After": "3600"}, json={"error": {"code": "RATE_LIMITED", "message": "an hour"}})

    sleeps: list[float] = []
    with pytest.raises(WitnessError) as raised:
        client(handler, sleeps, max_retry_wait=60).projects()
    assert raised.value.status == 429 and sleeps == []


def test_error_carries_code_status_field_and_message():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            422,
            json={"error": {"code": "BAD_INPUT", "message": "Invalid option: expected one of ...", "details": {"field": "format"}}},
        )

    with pytest.raises(WitnessError) as raised:
        client(handler, []).start_export("nope")
    error = raised.value
    assert (error.code, error.status, error.field) == ("BAD_INPUT", 422, "format")
    assert error.message.startswith("Invalid option") and "at format" in str(error)


def test_a_non_json_error_body_still_gives_status_and_text():
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(502, text="Bad Gateway from the proxy")

    with pytest.raises(WitnessError) as raised:
        client(handler, [], max_retries=0).projects()
    assert raised.value.status == 502 and raised.value.code == "INTERNAL" and "proxy" in raised.value.message


def test_paging_follows_next_cursor_until_null():
    def handler(request: httpx.Request) -> httpx.Response:
        cursor = request.url.params.get("cursor")
        page = {None: (["a", "b"], "c1"), "c1": (["c", "d"], "c2"), "c2": (["e"], None)}[cursor]
        rows = [{"id": i, "projectSlug": "p", "taskName": "t", "policy": "x", "split": "train", "steps": 1} for i in page[0]]
        return httpx.Response(200, json={"trajectories": rows, "nextCursor": page[1]})

    ids = [t.id for t in client(handler, []).trajectories(project="p", page_size=2)]
    assert ids == ["a", "b", "c", "d", "e"]


def test_export_download_is_retried_streamed_and_checked_against_its_sha256(tmp_path):
    import hashlib

    body = b'{"prompt": [], "chosen": [], "rejected": []}\n' * 1000
    sha = hashlib.sha256(body).hexdigest()
    calls = {"file": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/file"):
            calls["file"] += 1
            if calls["file"] == 1:
                return httpx.Response(503, headers={"Retry-After": "2"}, json={"error": {"code": "UNAVAILABLE", "message": "later"}})
            return httpx.Response(200, content=body)
        answer = export_answer("done")
        answer["export"].update(rows=1000, sha256=sha)
        return httpx.Response(200, json=answer)

    sleeps: list[float] = []
    w = client(handler, sleeps)
    path = w.download_export("exp1", tmp_path / "dpo.jsonl")
    assert path.read_bytes() == body and sleeps == [2.0] and calls["file"] == 2
    # content-addressed: the same file already there is not downloaded again
    assert w.download_export("exp1", tmp_path / "dpo.jsonl") == path and calls["file"] == 2
    # a file that does not match its sha256 is refused, nothing left behind
    body = b"tampered\n"
    with pytest.raises(WitnessError) as raised:
        w.download_export("exp1", tmp_path / "other.jsonl")
    assert raised.value.code == "CORRUPT" and not (tmp_path / "other.jsonl").exists()
    assert not (tmp_path / "other.jsonl.part").exists()
