"""A directory imported as zips of runs, against httpx.MockTransport (no studio): what each zip holds,
the split along top-level subfolders, a subfolder alone over the limit, the studio's own smaller limit
followed, retries of a streamed zip under one idempotency key, and errors named by their local path.
tests/test_studio.py imports a Harbor trial folder this way into a real studio."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import httpx
import pytest

from witness import Witness, WitnessError

KIB = 1024 / 1024 / 1024  # one KiB in MiB, for max_zip_mb


def client(handler, sleeps: list[float] | None = None) -> Witness:
    return Witness("http://studio.test", "wit_test", transport=httpx.MockTransport(handler), sleep=(sleeps if sleeps is not None else []).append)


def report(**values) -> dict:
    return {"imported": 0, "skipped": 0, "failed": 0, "unchangedFiles": 0, "trajectories": [], "errors": [], **values}


def names(request: httpx.Request) -> list[str]:
    return sorted(zipfile.ZipFile(io.BytesIO(request.content)).namelist())


def incompressible(n: int) -> bytes:
    import os

    return os.urandom(n)


def runs_dir(tmp_path: Path) -> Path:
    runs = tmp_path / "runs"
    (runs / "trial-a" / "agent").mkdir(parents=True)
    (runs / "trial-a" / "agent" / "trajectory.json").write_bytes(incompressible(3000))
    (runs / "trial-a" / "config.json").write_bytes(incompressible(1000))
    (runs / "trial-b").mkdir()
    (runs / "trial-b" / "result.json").write_bytes(incompressible(3000))
    (runs / "loose.jsonl").write_bytes(incompressible(2000))
    (runs / ".hidden.json").write_text("{}")
    (runs / "trial-b" / ".DS_Store").write_text("x")
    (runs / ".aider.chat.history.md").write_text("#### hi\n")  # a tool's own history, walked as the CLI walks it
    return runs


def test_a_directory_is_one_zip_with_relative_paths_and_no_hidden_files(tmp_path: Path):
    runs = runs_dir(tmp_path)
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=report(imported=3))

    result = client(handler).import_trajectories(runs, project="p", format="harbor")
    (request,) = seen
    assert request.headers["Content-Type"] == "application/zip"
    assert request.headers["Content-Length"] == str(len(request.content)) and "Transfer-Encoding" not in request.headers
    assert request.url.params["project"] == "p" and request.url.params["format"] == "harbor"
    assert names(request) == [".aider.chat.history.md", "loose.jsonl", "trial-a/agent/trajectory.json", "trial-a/config.json", "trial-b/result.json"]
    assert result.imported == 3


def test_over_the_limit_it_splits_along_top_level_subfolders_never_inside_one(tmp_path: Path):
    runs = runs_dir(tmp_path)
    (runs / ".aider.chat.history.md").unlink()
    seen: list[list[str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(names(request))
        return httpx.Response(200, json=report(imported=1, trajectories=[{"id": str(len(seen)), "format": "harbor", "steps": 2, "task": "t", "policy": "x", "created": True}]))

    # 5 KiB: trial-a (4 KiB of random bytes, which do not compress) fits alone, not beside anything else
    result = client(handler).import_trajectories(runs, project="p", max_zip_mb=5 * KIB, concurrency=1)
    assert sorted(seen) == [["loose.jsonl"], ["trial-a/agent/trajectory.json", "trial-a/config.json"], ["trial-b/result.json"]]
    # each top-level entry whole in exactly one zip
    tops = [n.split("/")[0] for zip_names in seen for n in zip_names]
    assert sorted(set(tops)) == ["loose.jsonl", "trial-a", "trial-b"] and len(seen) >= 2
    for top in ("trial-a", "trial-b", "loose.jsonl"):
        assert sum(any(n.split("/")[0] == top for n in zip_names) for zip_names in seen) == 1
    assert result.imported == len(seen) and len(result.trajectories) == len(seen)  # the reports added up


def test_a_subfolder_alone_over_the_limit_raises_saying_which_before_sending(tmp_path: Path):
    runs = runs_dir(tmp_path)
    calls: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        return httpx.Response(200, json=report())

    with pytest.raises(WitnessError) as raised:
        client(handler).import_trajectories(runs, project="p", max_zip_mb=3.5 * KIB, concurrency=1)
    error = raised.value
    assert not calls  # every zip is written before the first is sent
    assert error.code == "TOO_LARGE" and error.field == str(runs / "trial-a")
    assert "trial-a alone" in error.message and "not split across zips" in error.message and "subfolders one by one" in error.message


def test_the_studios_smaller_limit_is_followed_by_splitting_again(tmp_path: Path):
    runs = runs_dir(tmp_path)
    seen: list[list[str]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if len(request.content) > 6000:
            return httpx.Response(413, json={"error": {"code": "TOO_LARGE", "message": "request body over the limit of 6 KiB", "details": {"limitBytes": 6000}}})
        seen.append(names(request))
        return httpx.Response(200, json=report(imported=1))

    result = client(handler).import_trajectories(runs, project="p", concurrency=1)
    tops = sorted(n.split("/")[0] for zip_names in seen for n in zip_names)
    assert len(seen) >= 2 and sorted(set(tops)) == [".aider.chat.history.md", "loose.jsonl", "trial-a", "trial-b"]
    assert result.imported == len(seen)


def test_a_streamed_zip_is_resent_whole_under_the_same_idempotency_key(tmp_path: Path):
    runs = runs_dir(tmp_path)
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if len(seen) == 1:
            return httpx.Response(503, headers={"Retry-After": "1"}, json={"error": {"code": "UNAVAILABLE", "message": "later"}})
        return httpx.Response(200, json=report(imported=1))

    sleeps: list[float] = []
    client(handler, sleeps).import_trajectories(runs, project="p")
    assert len(seen) == 2 and sleeps == [1.0]
    assert seen[0].headers["Idempotency-Key"] == seen[1].headers["Idempotency-Key"]
    assert seen[0].content == seen[1].content and names(seen[1])


def test_errors_name_the_file_on_this_machine_and_loose_files_still_go_alone(tmp_path: Path):
    runs = runs_dir(tmp_path)
    single = tmp_path / "one.json"
    single.write_text('{"messages": []}')
    bodies: list[tuple[str, bytes]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append((request.headers["Content-Type"], request.content))
        if request.headers["Content-Type"] == "application/zip":
            errors = [
                {"path": "trial-b/result.json", "where": "trial-b/result.json", "message": "unreadable"},
                {"path": "loose.jsonl", "where": "line 2", "message": "not JSON"},
            ]
            return httpx.Response(200, json=report(imported=1, failed=2, errors=errors))
        return httpx.Response(422, json=report(failed=1, errors=[{"path": "body", "where": "messages", "message": "no steps"}]))

    result = client(handler).import_trajectories(runs, single, project="p")
    assert sorted(t for t, _ in bodies) == ["application/octet-stream", "application/zip"]
    assert ("application/octet-stream", single.read_bytes()) in bodies
    by_path = {e.path: e for e in result.errors}
    assert by_path[str(runs / "trial-b" / "result.json")].where == str(runs / "trial-b" / "result.json")
    assert by_path[str(runs / "loose.jsonl")].where == "line 2"
    assert by_path[str(single)].where == "messages"
    assert (result.imported, result.failed) == (1, 3)


def test_an_empty_directory_or_a_missing_path_is_refused(tmp_path: Path):
    w = client(lambda request: httpx.Response(200, json=report()))
    (tmp_path / "empty" / ".git").mkdir(parents=True)
    with pytest.raises(WitnessError) as empty:
        w.import_trajectories(tmp_path / "empty", project="p")
    assert empty.value.field == "paths"
    with pytest.raises(WitnessError) as missing:
        w.import_trajectories(tmp_path / "nope", project="p")
    assert missing.value.field == str(tmp_path / "nope")
    with pytest.raises(WitnessError) as bad:
        w.import_trajectories(tmp_path, project="p", max_zip_mb=0)
    assert bad.value.field == "max_zip_mb"
