"""witness-trainer (the console script, installed with the package) against a real studio: a run served end to end,
and the faults of issue 41 §5, each a test: the agent SIGKILLed mid-run, a network that drops answers while metrics
and trajectories go up, a dataset whose sha256 does not match, a run over eval items, a cancelled run.

The studio is the one conftest.py names (WITNESS_URL, WITNESS_TOKEN: the demo admin, scope all); scripts/trainers/run.ts
also passes WITNESS_TRAINING_TOKEN (the admin's token of scope training, what the agent runs with), WITNESS_DATA_DIR
(the studio's data dir: its stored datasets) and WITNESS_DATABASE_URL (its database). Every run a test starts carries
agent labels unique to the test, and its agent claims with them, so no test claims another's run. The training
commands are small Python scripts written to tmp_path (no TRL here: scripts/trainers trains for real)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable

import pytest

from witness import Witness, WitnessError

REPO = Path(__file__).resolve().parents[3]


# ---- helpers -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def training_token(studio_url: str) -> str:
    token = os.environ.get("WITNESS_TRAINING_TOKEN")
    if not token:
        if os.environ.get("WITNESS_REQUIRE_STUDIO") == "1":
            pytest.fail("WITNESS_TRAINING_TOKEN is not set (scripts/trainers/run.ts makes one of scope training)")
        pytest.skip("no training token: set WITNESS_TRAINING_TOKEN (witness token create --scope training)")
    return token


@pytest.fixture(scope="session")
def base_policy(w: Witness) -> str:
    """A policy of the demo project, the base every run here starts from."""
    for t in w.trajectories(project="demo", page_size=20):
        if t.policy:
            return t.policy
    pytest.fail("the demo project has no trajectory with a policy")


def trainer_argv() -> list[str]:
    """The installed console script (pip puts it beside the interpreter), else the module."""
    script = Path(sys.executable).with_name("witness-trainer")
    return [str(script)] if script.exists() else [sys.executable, "-m", "witness.trainer"]


class Trainer:
    """One `witness-trainer` process, its stderr (the agent's log) and stdout (the command's lines) collected."""

    def __init__(self, url: str, token: str, labels: dict[str, str], work_dir: Path, *args: str) -> None:
        label_args = [a for k, v in labels.items() for a in ("--labels", f"{k}={v}")]
        argv = [*trainer_argv(), "--url", url, "--token", token, "--work-dir", str(work_dir), *label_args, *args]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stdout, self.out), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stderr, self.err), daemon=True),
        ]
        for r in self._readers:
            r.start()

    @staticmethod
    def _read(stream, into: list[str]) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    def wait(self, timeout: float) -> int:
        try:
            code = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"witness-trainer did not exit within {timeout} s; its log:\n{self.log}")
        for r in self._readers:
            r.join(timeout=5)
        return code

    @property
    def log(self) -> str:
        return "\n".join(self.err[-40:])

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def start_run(w: Witness, base: str, labels: dict[str, str], *, recipe: str = "trl-sft", max_attempts: int = 1, **extra: Any) -> dict:
    body = {"project": "demo", "recipe": recipe, "base": base, "labels": labels, "maxAttempts": max_attempts, **extra}
    run = w._json("POST", "/api/v1/training-runs", json=body)["run"]
    assert run["status"] == "queued" and run["rows"] > 0, run
    return run


def show(w: Witness, run_id: str) -> dict:
    return w._json("GET", f"/api/v1/training-runs/{run_id}")


def wait_for(what: str, check: Callable[[], Any], timeout: float, every: float = 0.25) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout} s")
        time.sleep(every)


def cancel_quietly(w: Witness, run_id: str) -> None:
    try:
        if show(w, run_id)["status"] in ("queued", "running"):
            w._json("POST", f"/api/v1/training-runs/{run_id}/cancel", json={})
    except WitnessError:
        pass


def write_script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"{sys.executable} {path}"


def labels_for(test: str) -> dict[str, str]:
    return {"test": f"{test}-{uuid.uuid4().hex[:10]}"}


# A training stand-in: reads the dataset, prints a loss per step (attempt-dependent, so "latest wins" shows), and writes
# a model file into {out}. Between steps it sleeps --sleep seconds.
TRAIN = """
import argparse, json, os, pathlib, time
p = argparse.ArgumentParser()
p.add_argument('--data'); p.add_argument('--out'); p.add_argument('--steps', type=int, default=3)
p.add_argument('--sleep', type=float, default=0); p.add_argument('--lines', type=int, default=0)
a = p.parse_args()
attempt = int(os.environ['WITNESS_RUN_ATTEMPT'])
rows = [l for l in pathlib.Path(a.data).read_text().splitlines() if l.strip()]
print(f'training on {len(rows)} rows, attempt {attempt}', flush=True)
for i in range(a.lines):
    print(f'log line {i}', flush=True)
for step in range(1, a.steps + 1):
    print(json.dumps({'witness_metric': {'step': step, 'loss': attempt + 1 / step, 'rewards/accuracies': step / a.steps}}), flush=True)
    time.sleep(a.sleep)
# transformers' own log dict, as its ProgressCallback prints it (floats as strings, transformers 5), then its
# end-of-training summary (not a step: left out)
print("{'grad_norm': '1.5', 'learning_rate': '5e-07', 'epoch': '1.0'}", flush=True)
print("{'train_runtime': '1.5', 'train_loss': '0.42', 'epoch': '1.0'}", flush=True)
pathlib.Path(a.out, 'model.bin').write_text(f'weights of attempt {attempt}')
"""

# An eval stand-in: one OpenAI-chat trajectory per eval task, named by its task, answered "by" the checkpoint.
EVALUATE = """
import json, pathlib, sys
checkpoint, tasks, out = sys.argv[1:4]
for i, line in enumerate(pathlib.Path(tasks).read_text().splitlines()):
    task = json.loads(line)
    doc = {'id': f'{checkpoint}/{task["task"]}', 'task_id': task['task'], 'model': checkpoint,
           'messages': [{'role': 'user', 'content': task['instruction'] or task['task']},
                        {'role': 'assistant', 'content': f'answer of {checkpoint} to {task["task"]}'}]}
    pathlib.Path(out, f'{i:03d}.json').write_text(json.dumps(doc))
"""


def policy_trajectories(w: Witness, policy_id: str) -> list[dict]:
    return w._json("GET", "/api/v1/trajectories", params={"project": "demo", "policy": policy_id, "limit": 200})["trajectories"]


# ---- a run served --------------------------------------------------------------------------------


def test_a_run_is_claimed_trained_checkpointed_evaluated_and_completed(w, studio_url, training_token, base_policy, tmp_path):
    labels = labels_for("e2e")
    run = start_run(w, base_policy, labels)
    train = write_script(tmp_path, "train.py", TRAIN)
    evaluate = write_script(tmp_path, "evaluate.py", EVALUATE)
    agent = Trainer(
        studio_url, training_token, labels, tmp_path / "runs",
        "--once", "--wait", "30",
        "--command", f"{train} --data {{dataset}} --out {{out}} --steps 4",
        "--eval-command", f"{evaluate} {{checkpoint}} {{tasks}} {{eval_out}}",
    )  # fmt: skip
    assert agent.wait(120) == 0, agent.log
    view = show(w, run["id"])
    out = tmp_path / "runs" / run["id"]
    assert view["status"] == "succeeded" and view["attempts"] == 1 and view["evalError"] is None, (view, agent.log)
    assert view["checkpoint"]["name"] == f"{base_policy}+{run['id'][:8]}" and view["checkpoint"]["uri"] == str(out)
    assert (out / "model.bin").read_text() == "weights of attempt 1"
    # the dataset it trained on is the run's frozen file, checked
    dataset = tmp_path / "runs" / f"{run['id']}.dataset.jsonl"
    assert hashlib.sha256(dataset.read_bytes()).hexdigest() == run["sha256"]
    assert f"training on {run['rows']} rows, attempt 1" in view["logTail"]
    # 4 steps of two witness_metric names, and the transformers log dict at step 1 (the first such dict); not its summary
    points = {(m["name"], m["step"]): m["value"] for m in view["metrics"]}
    assert len(points) == len(view["metrics"])
    assert {k: v for k, v in points.items() if k[0] == "loss"} == {("loss", s): 1 + 1 / s for s in range(1, 5)}
    assert points[("grad_norm", 1)] == 1.5 and points[("learning_rate", 1)] == 5e-07
    assert not any(name in ("train_runtime", "train_loss") for name, _ in points)
    # the eval tasks' answers landed as the checkpoint's eval trajectories, one per task
    tasks = [json.loads(line) for line in (out / "eval_tasks.jsonl").read_text().splitlines()]
    assert tasks and all(set(t) == {"task", "instruction", "criteria"} for t in tasks)
    imported = policy_trajectories(w, view["checkpoint"]["policyId"])
    assert sorted(t["taskName"] for t in imported) == sorted(t["task"] for t in tasks)
    assert all(t["split"] == "eval" for t in imported)


def test_once_exits_3_when_no_run_comes_within_wait(studio_url, training_token, tmp_path):
    t0 = time.monotonic()
    agent = Trainer(studio_url, training_token, labels_for("idle"), tmp_path, "--once", "--wait", "1", "--command", "true")
    assert agent.wait(60) == 3, agent.log
    assert time.monotonic() - t0 < 30 and "no run came within --wait 1 s" in agent.log


def test_a_command_not_found_fails_the_run_with_that_reason(w, studio_url, training_token, base_policy, tmp_path):
    labels = labels_for("notfound")
    run = start_run(w, base_policy, labels)
    agent = Trainer(studio_url, training_token, labels, tmp_path, "--once", "--command", "no-such-trainer-cmd --data {dataset}")
    assert agent.wait(60) == 0, agent.log
    view = show(w, run["id"])
    assert view["status"] == "failed" and view["failureReason"] == "command not found: no-such-trainer-cmd", view
    assert view["checkpoint"] is None


# ---- faults (issue 41 §5) ---------------------------------------------------------------------------


def test_fault_agent_killed_mid_run_is_reclaimed_with_one_checkpoint_and_no_duplicate_points(w, studio_url, training_token, base_policy, tmp_path):
    labels = labels_for("sigkill")
    run = start_run(w, base_policy, labels, max_attempts=3)
    train = write_script(tmp_path, "train.py", TRAIN)
    # 30 steps of 0.3 s: long enough that attempt 1 is still training when its first points show on the run
    command = f"{train} --data {{dataset}} --out {{out}} --steps 30 --sleep 0.3"
    first = Trainer(studio_url, training_token, labels, tmp_path / "runs", "--once", "--lease", "10", "--command", command)
    try:
        wait_for("attempt 1's first points", lambda: len(show(w, run["id"]).get("metrics") or []) >= 4, 60)
    finally:
        os.kill(first.process.pid, signal.SIGKILL)
        first.wait(10)
    mid = show(w, run["id"])
    assert mid["status"] == "running" and mid["attempts"] == 1 and mid["checkpoint"] is None
    first_loss = {m["step"]: m["value"] for m in mid["metrics"] if m["name"] == "loss"}
    assert first_loss and all(v == 1 + 1 / s for s, v in first_loss.items()), "attempt 1's points, before the kill"
    # a second agent: the lease (10 s) runs out, the run is queued again and re-claimed: attempt 2, the same {out}
    second = Trainer(studio_url, training_token, labels, tmp_path / "runs", "--once", "--wait", "60", "--lease", "10", "--command", command)
    try:
        assert second.wait(120) == 0, second.log
    finally:
        second.kill()
    view = show(w, run["id"])
    assert view["status"] == "succeeded" and view["attempts"] == 2, (view, second.log)
    assert view["checkpoint"] is not None and (tmp_path / "runs" / run["id"] / "model.bin").read_text() == "weights of attempt 2"
    keys = [(m["name"], m["step"]) for m in view["metrics"]]
    assert len(keys) == len(set(keys)), "a (name, step) twice"
    loss = {m["step"]: m["value"] for m in view["metrics"] if m["name"] == "loss"}
    assert loss == {s: 2 + 1 / s for s in range(1, 31)}, "one series, attempt 2's values winning"
    # one checkpoint, registered by attempt 2 (attempt 1 was killed before its command ended)
    assert view["checkpoint"]["name"] == f"{base_policy}+{run['id'][:8]}"
    assert "registered checkpoint" in second.log and "registered checkpoint" not in first.log
    assert json.loads((tmp_path / "runs" / run["id"] / ".witness-run.json").read_text())["attempt"] == 2


class FlakyProxy:
    """A TCP proxy in front of the studio that forwards every request and, for paths matching ``drop``, throws away
    every other answer (the 1st, 3rd, … of each path kind) after the studio acted on the request: the client sees the
    connection close with no answer, as when a network cuts out mid-call. One request per connection."""

    def __init__(self, upstream: str, drop: re.Pattern[str]) -> None:
        m = re.match(r"https?://([^:/]+):(\d+)", upstream)
        assert m, upstream
        self.upstream = (m[1], int(m[2]))
        self.drop = drop
        self.counts: dict[str, int] = {}
        self.dropped: list[str] = []
        self.lock = threading.Lock()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self) -> None:
        self.server.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            head, body = self._read_request(client)
            if head is None:
                return
            lines = head.split(b"\r\n")
            method, target, _ = lines[0].decode().split(" ", 2)
            kept = [h for h in lines[1:] if h and not h.lower().startswith((b"connection:", b"keep-alive:"))]
            request = b"\r\n".join([lines[0], *kept, b"Connection: close", b"", b""]) + body
            with socket.create_connection(self.upstream) as up:
                up.sendall(request)
                answer = b"".join(iter(lambda: up.recv(65536), b""))
            kind = self._kind(target)
            if kind:
                with self.lock:
                    self.counts[kind] = self.counts.get(kind, 0) + 1
                    if self.counts[kind] % 2 == 1:
                        self.dropped.append(f"{method} {target}")
                        return  # the studio did it; the answer is lost
            client.sendall(answer)

    def _kind(self, target: str) -> str | None:
        path = target.split("?", 1)[0]
        m = self.drop.search(path)
        return m[0] if m else None

    @staticmethod
    def _read_request(sock: socket.socket) -> tuple[bytes | None, bytes]:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return None, b""
            data += chunk
        head, rest = data.split(b"\r\n\r\n", 1)
        headers = {k.strip().lower(): v.strip() for k, _, v in (h.decode("latin-1").partition(":") for h in head.split(b"\r\n")[1:])}
        if headers.get("transfer-encoding", "").lower() == "chunked":
            # de-chunked and sent on with a length
            body = b""
            while True:
                while b"\r\n" not in rest:
                    rest += sock.recv(65536)
                size_line, rest = rest.split(b"\r\n", 1)
                size = int(size_line.split(b";")[0], 16)
                while len(rest) < size + 2:
                    rest += sock.recv(65536)
                body, rest = body + rest[:size], rest[size + 2 :]
                if size == 0:
                    break
            kept = [h for h in head.split(b"\r\n") if not h.lower().startswith(b"transfer-encoding:")]
            head = b"\r\n".join(kept) + f"\r\nContent-Length: {len(body)}".encode()
            return head, body
        length = int(headers.get("content-length", "0") or 0)
        while len(rest) < length:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return head, rest


def test_fault_network_cut_while_uploading_metrics_and_trajectories_adds_nothing_twice(w, studio_url, training_token, base_policy, tmp_path):
    labels = labels_for("netcut")
    run = start_run(w, base_policy, labels)
    proxy = FlakyProxy(studio_url, re.compile(r"/(events|checkpoint|complete)$|^/api/v1/trajectories$"))
    train = write_script(tmp_path, "train.py", TRAIN)
    evaluate = write_script(tmp_path, "evaluate.py", EVALUATE)
    try:
        agent = Trainer(
            proxy.url, training_token, labels, tmp_path / "runs",
            "--once", "--wait", "30",
            "--command", f"{train} --data {{dataset}} --out {{out}} --steps 30 --lines 120 --sleep 0.02",
            "--eval-command", f"{evaluate} {{checkpoint}} {{tasks}} {{eval_out}}",
        )  # fmt: skip
        assert agent.wait(180) == 0, agent.log
    finally:
        proxy.close()
    kinds = {d.split("?")[0].rsplit("/", 1)[-1] for d in proxy.dropped}
    assert {"events", "checkpoint", "complete", "trajectories"} <= kinds, proxy.dropped
    view = show(w, run["id"])
    assert view["status"] == "succeeded" and view["evalError"] is None, (view, agent.log)
    # every line once, in order
    lines = [line for line in view["logTail"] if line.startswith("log line ")]
    assert lines == [f"log line {i}" for i in range(120)]
    # every point once: 30 steps × 2 names, plus the transformers log dict's 3
    keys = [(m["name"], m["step"]) for m in view["metrics"]]
    assert len(keys) == len(set(keys)) == 30 * 2 + 3
    # one trajectory per eval task, though every other import answer was lost
    tasks = (tmp_path / "runs" / run["id"] / "eval_tasks.jsonl").read_text().splitlines()
    assert len(policy_trajectories(w, view["checkpoint"]["policyId"])) == len(tasks) > 0


def test_fault_a_dataset_that_does_not_match_its_sha256_fails_the_run(w, studio_url, training_token, base_policy, tmp_path):
    data_dir = os.environ.get("WITNESS_DATA_DIR")
    if not data_dir:
        pytest.skip("WITNESS_DATA_DIR (the studio's data dir) is not set")
    labels = labels_for("sha")
    run = start_run(w, base_policy, labels, recipe="trl-kto")
    # the export's file, stored content-addressed (lib/datasets/build-export.ts datasetStorageKey: datasets/<sha256>.jsonl)
    stored = Path(data_dir) / "storage" / "datasets" / f"{run['sha256']}.jsonl"
    assert stored.is_file(), f"no stored dataset at {stored}"
    original = stored.read_bytes()
    changed = original + b'{"prompt": "slipped in later"}\n'
    ran = tmp_path / "ran"
    try:
        stored.write_bytes(changed)
        agent = Trainer(studio_url, training_token, labels, tmp_path / "runs", "--once", "--command", f"touch {ran}")
        assert agent.wait(60) == 0, agent.log
    finally:
        stored.write_bytes(original)
    view = show(w, run["id"])
    got = hashlib.sha256(changed).hexdigest()
    assert view["status"] == "failed", view
    assert view["failureReason"] == f"dataset sha256 mismatch: expected {run['sha256']} got {got}"
    assert not ran.exists(), "the command ran on a changed dataset"
    assert not (tmp_path / "runs" / f"{run['id']}.dataset.jsonl").exists()


def test_fault_a_run_over_eval_items_is_refused_before_it_is_queued(w, tmp_path):
    """No path of the studio makes such a pair any more (the import refuses to move a task between splits, pairs are
    within one task), so the test writes one into the database, as an older studio or a hand edit could have left it:
    a pairwise item whose second trajectory is of an eval-split task."""
    database = os.environ.get("WITNESS_DATABASE_URL")
    if not database:
        pytest.skip("WITNESS_DATABASE_URL (the studio's database) is not set")
    project = f"trainer-guard-{uuid.uuid4().hex[:8]}"

    def doc(task: str, model: str) -> dict:
        return {
            "id": f"{task}/{model}",
            "task_id": task,
            "model": model,
            "messages": [{"role": "user", "content": f"solve {task}"}, {"role": "assistant", "content": f"{model} solves {task}"}],
        }

    train = w.import_documents([doc("pair-task", "model-a"), doc("pair-task", "model-b")], project=project, split="train")
    held_out = w.import_documents([doc("held-out-task", "model-a")], project=project, split="eval")
    assert train.imported == 2 and held_out.imported == 1, (train.errors, held_out.errors)
    campaign = w._json(
        "POST",
        "/api/v1/campaigns",
        json={
            "project": project,
            "name": "pairs",
            "mode": "pairwise",
            "overlap": 1,
            "filter": {"split": "train"},
            "rubric": {"name": "r", "definition": {"title": "r", "questions": [{"id": "overall", "type": "likert", "prompt": "Overall", "points": 5}]}},
        },
    )["campaign"]
    eval_trajectory = held_out.trajectories[0].id
    sql = """
      const { Client } = require('pg');
      (async () => {
        const c = new Client({ connectionString: process.argv[1] });
        await c.connect();
        const r = await c.query('UPDATE campaign_item SET "trajectoryBId" = $2 WHERE "campaignId" = $1 AND "trajectoryBId" IS NOT NULL', [process.argv[2], process.argv[3]]);
        await c.end();
        console.log(r.rowCount);
      })().catch((e) => { console.error(e.message); process.exit(1); });
    """
    done = subprocess.run(["node", "-e", sql, database, campaign["id"], eval_trajectory], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
    base = train.trajectories[0].policy
    with pytest.raises(WitnessError) as refused:
        w._json("POST", "/api/v1/training-runs", json={"project": project, "recipe": "trl-dpo", "base": base, "campaign": campaign["id"]})
    error = refused.value
    assert error.status == 422 and error.code == "BAD_INPUT"
    assert re.search(r"Refused: 1 item\(s\) of this scope touch evaluation tasks", error.message), error.message
    assert f"/lead/campaigns/{campaign['id']}" in error.message
    # nothing queued
    assert w._json("GET", "/api/v1/training-runs", params={"project": project})["runs"] == []


def test_fault_a_cancelled_run_stops_the_command_and_runs_the_cancel_command(w, studio_url, training_token, base_policy, tmp_path):
    labels = labels_for("cancel")
    run = start_run(w, base_policy, labels)
    pid_file, cancelled = tmp_path / "pid", tmp_path / "cancelled"
    long = write_script(
        tmp_path, "long.py", f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\nprint('working', flush=True)\ntime.sleep(600)\n"
    )
    cancel = write_script(tmp_path, "cancel.py", "import sys\nopen(sys.argv[1], 'w').write(sys.argv[2])\n")
    agent = Trainer(
        studio_url, training_token, labels, tmp_path / "runs",
        "--once", "--lease", "10",
        "--command", long,
        "--cancel-command", f"{cancel} {cancelled} witness-{{run_id}}",
    )  # fmt: skip
    try:
        pid = int(wait_for("the command's pid", lambda: pid_file.exists() and pid_file.read_text(), 60))
        requested = w._json("POST", f"/api/v1/training-runs/{run['id']}/cancel", json={})
        assert requested["status"] == "running" and requested["cancelRequested"] is True
        assert agent.wait(60) == 0, agent.log
    finally:
        agent.kill()
        cancel_quietly(w, run["id"])
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert cancelled.read_text() == f"witness-{run['id']}"
    view = show(w, run["id"])
    assert view["status"] == "cancelled" and view["checkpoint"] is None, view
