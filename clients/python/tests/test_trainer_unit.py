"""witness-trainer without a studio: metric lines, placeholders, labels and flags (pure), and one agent's protocol
against an in-process stand-in of the training-run API (httpx.MockTransport, as test_retry_unit.py does): the calls,
their idempotency keys and bodies as lib/training/training-run-schemas.ts defines them. The real studio is
test_trainer.py's."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from witness import Witness
from witness.trainer import (
    Agent,
    MetricParser,
    Options,
    failure_reason,
    fill_command,
    parse_labels,
    parse_options,
    visible_text,
)

# ---- metric lines ------------------------------------------------------------------------------


def test_a_witness_metric_line_is_one_point_per_name_at_its_step():
    parser = MetricParser()
    points = parser.feed('{"witness_metric": {"step": 3, "loss": 0.41, "rewards/accuracies": 0.6}}\n')
    assert points == [{"step": 3, "name": "loss", "value": 0.41}, {"step": 3, "name": "rewards/accuracies", "value": 0.6}]
    # non-numeric, non-finite and boolean values are skipped; a line without a step takes the count of such lines
    points = parser.feed('{"witness_metric": {"loss": 0.3, "note": "warmup", "kl": NaN, "done": true}}')
    assert points == [{"step": 2, "name": "loss", "value": 0.3}]
    # a step that is not a non-negative integer drops the line
    assert parser.feed('{"witness_metric": {"step": -1, "loss": 1}}') == []
    assert parser.feed('{"witness_metric": {"step": 2.5, "loss": 1}}') == []
    assert parser.feed('{"witness_metric": {"step": 4.0, "loss": 1}}') == [{"step": 4, "name": "loss", "value": 1.0}]


def test_transformers_log_dicts_as_the_progress_callback_prints_them():
    # transformers 5.x src/transformers/trainer_callback.py ProgressCallback.on_log: floats formatted f"{v:.4g}" (strings),
    # written with `self.training_bar.write(str(shallow_logs))` after tqdm's carriage-return bar (lines written here)
    parser = MetricParser()
    bar = " 50%|█████     | 1/2 [00:01<00:01,  1.02s/it]\r"
    first = parser.feed(bar + "{'loss': '0.6931', 'grad_norm': '1.2', 'learning_rate': '5e-07', 'rewards/accuracies': '0.5', 'epoch': '0.5'}")
    assert first == [
        {"step": 1, "name": "loss", "value": 0.6931},
        {"step": 1, "name": "grad_norm", "value": 1.2},
        {"step": 1, "name": "learning_rate", "value": 5e-07},
        {"step": 1, "name": "rewards/accuracies", "value": 0.5},
        {"step": 1, "name": "epoch", "value": 0.5},
    ]
    # older transformers (PrinterCallback's print(logs)): numbers, nan among them; the second dict is step 2
    second = parser.feed("{'loss': 0.5, 'grad_norm': nan, 'learning_rate': 1e-06, 'epoch': 1.0}")
    assert [(p["step"], p["name"]) for p in second] == [(2, "loss"), (2, "learning_rate"), (2, "epoch")]
    # the end-of-training summary (train_runtime …) is not a step: no stray point past the last one, and it takes no count
    assert parser.feed("{'train_runtime': '3.21', 'train_samples_per_second': '4.98', 'train_loss': '0.6', 'epoch': '1'}") == []
    assert [p["step"] for p in parser.feed("{'loss': 0.4, 'epoch': 1.5}")] == [3, 3]
    # a dict with its own step keeps it
    assert parser.feed("{'eval_loss': 0.25, 'step': 40}") == [{"step": 40, "name": "eval_loss", "value": 0.25}]


def test_lines_that_are_not_metrics_give_nothing():
    parser = MetricParser()
    for line in [
        "Epoch 1/3",
        "{'model': 'qwen', 'lr': 1e-05, 'batch_size': 8}",  # a printed config: no epoch, no loss
        "{'loss': 'high'}",  # nothing numeric
        "{not python}",
        '{"other": {"step": 1, "loss": 1}}',
        "",
    ]:
        assert parser.feed(line) == [], line
    assert parser.trainer_dicts == 0 and parser.witness_lines == 0


def test_the_last_checkpoint_line_wins():
    parser = MetricParser()
    assert parser.feed('{"witness_checkpoint": {"name": "first", "uri": "s3://b/1"}}') == []
    parser.feed('{"witness_checkpoint": {"uri": "/models/final"}}')
    assert parser.checkpoint == {"uri": "/models/final"}


def test_visible_text_undoes_carriage_returns():
    assert visible_text("plain\n") == "plain"
    assert visible_text(" 10%|█ | 1/10\r 20%|██ | 2/10\r\n") == " 20%|██ | 2/10"
    assert visible_text("bar\r    \rmessage\n") == "message"


def test_failure_reason_carries_the_last_20_lines():
    lines = [f"line {i}" for i in range(1, 31)]
    reason = failure_reason("command exited 3", lines)
    assert reason.startswith("command exited 3; its last 20 log lines:\nline 11\n") and reason.endswith("line 30")
    assert failure_reason("command not found: nope", []) == "command not found: nope"


# ---- placeholders, labels, flags ----------------------------------------------------------------


def test_placeholders_are_filled_after_splitting_so_a_value_with_spaces_stays_one_argument():
    values = {"dataset": "/w/r 1.dataset.jsonl", "base": "acme/coder-7b@ckpt-2000 / acme-shell", "out": "/w/r 1", "run_id": "r1"}
    argv = fill_command("python train.py --data {dataset} --model '{base}' --out={out} --tag run-{run_id}", values)
    assert argv == ["python", "train.py", "--data", "/w/r 1.dataset.jsonl", "--model", values["base"], "--out=/w/r 1", "--tag", "run-r1"]
    # JSON and unknown braces stay as written; a placeholder with no value (another phase's) too
    argv = fill_command('sh -c \'echo {"a": 1} {unknown} {checkpoint}\'', values)
    assert argv == ["sh", "-c", 'echo {"a": 1} {unknown} {checkpoint}']
    with pytest.raises(ValueError, match="empty"):
        fill_command("   ", values)
    with pytest.raises(ValueError, match="cannot split"):
        fill_command("python 'unclosed", values)


def test_labels_repeatable_or_comma_lists():
    assert parse_labels(["gpu=a100", "zone=eu,team = rl"]) == {"gpu": "a100", "zone": "eu", "team": "rl"}
    assert parse_labels([]) == {}
    with pytest.raises(ValueError, match="'gpu' is not k=v"):
        parse_labels(["gpu"])


def test_flags_and_their_refusals(capsys, tmp_path):
    opts = parse_options(["--url", "http://s", "--token", "t", "--command", "train {out}", "--labels", "a=1", "--labels", "b=2,c=3"])
    assert opts.labels == {"a": "1", "b": "2", "c": "3"} and opts.lease == 60 and opts.wait == 30 and not opts.once
    assert opts.work_dir == Path("witness-runs") and opts.name  # hostname-pid
    for argv, said in [
        (["--command", "x {checkpoint}"], "--command uses {checkpoint}, which only --eval-command has"),
        (["--command", "x", "--cancel-command", "scancel {eval_out}"], "--cancel-command uses {eval_out}"),
        (["--command", "x", "--lease", "5"], "--lease 5: between 10 and 600"),
        (["--command", "x", "--labels", "oops"], "'oops' is not k=v"),
        (["--command", "python 'x"], "--command: cannot split"),
    ]:
        with pytest.raises(SystemExit) as exited:
            parse_options(["--url", "http://s", "--token", "t", *argv])
        assert exited.value.code == 2
        assert said in capsys.readouterr().err


# ---- one agent against a stand-in of the API ---------------------------------------------------


class FakeStudio:
    """The training-run endpoints as the design (interfaces.md, issue 41) defines them, for one queued run."""

    def __init__(self, dataset: bytes, *, sha256: str | None = None, lease_seconds: int = 30) -> None:
        self.dataset = dataset
        self.sha256 = sha256 or hashlib.sha256(dataset).hexdigest()
        self.lease_seconds = lease_seconds
        self.queued = True
        self.calls: list[tuple[str, str, Any]] = []
        self.keys: set[str] = set()
        self.logs: list[str] = []
        self.metrics: dict[tuple[str, int], float] = {}
        self.checkpoint: dict[str, Any] | None = None
        self.completed: dict[str, Any] | None = None
        self.cancel_requested = False
        self.lease_lost = False
        self.on_logs: Any = None
        self.imports: list[tuple[dict[str, str], bytes]] = []
        self.drop_answer_of: set[str] = set()  # paths whose first answer is lost after the studio acted on it
        self.lock = threading.Lock()

    def run_view(self) -> dict[str, Any]:
        return {
            "id": "run1",
            "project": "demo",
            "recipe": "trl-dpo",
            "base": {"name": "acme/base model", "uri": None},
            "status": "running",
            "attempts": 1,
            "maxAttempts": 3,
            "rows": 2,
            "sha256": self.sha256,
        }

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        body = json.loads(request.content) if request.headers.get("content-type") == "application/json" else None
        with self.lock:
            self.calls.append((request.method, path, body))
            answer = self.answer(request, path, body)
            if path in self.drop_answer_of:
                self.drop_answer_of.discard(path)
                raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)
        return answer

    def answer(self, request: httpx.Request, path: str, body: Any) -> httpx.Response:
        base = "/api/v1/training-runs/run1"
        if path == "/api/v1/training-runs/claim":
            if not self.queued:
                return httpx.Response(204)
            self.queued = False
            return httpx.Response(
                200,
                json={
                    "run": self.run_view(),
                    "lease": {"token": "lease-1", "expiresAt": "2026-12-07T00:00:00Z", "seconds": self.lease_seconds},
                    "dataset": {"url": f"{base}/dataset", "sha256": self.sha256, "rows": 2, "format": "trl-dpo"},
                    "evalTasksUrl": f"{base}/eval-tasks",
                },
            )
        if path == f"{base}/dataset":
            return httpx.Response(200, content=self.dataset, headers={"content-type": "application/x-ndjson"})
        if path == f"{base}/eval-tasks":
            return httpx.Response(200, content=b'{"task":"t1","instruction":"do it","criteria":["right"]}\n')
        if path == "/api/v1/trajectories":
            self.imports.append((dict(request.url.params), request.content))
            return httpx.Response(200, json={"imported": 1, "skipped": 0, "failed": 0, "trajectories": [], "errors": []})
        assert body["leaseToken"] == "lease-1"
        if self.lease_lost:
            return httpx.Response(409, json={"error": {"code": "CONFLICT", "message": "lease lost: training run run1 was claimed again (attempt 2)"}})
        if path == f"{base}/heartbeat":
            return httpx.Response(200, json={"status": "running", "cancelRequested": self.cancel_requested, "leaseExpiresAt": None})
        if path == f"{base}/events":
            if body["key"] in self.keys:
                return httpx.Response(200, json={"duplicate": True, "points": 0})
            self.keys.add(body["key"])
            self.logs += body.get("logs", [])
            if self.on_logs:
                self.on_logs(self.logs)
            for m in body.get("metrics", []):
                self.metrics[(m["name"], m["step"])] = m["value"]
            return httpx.Response(200, json={"duplicate": False, "points": len(body.get("metrics", []))})
        if path == f"{base}/checkpoint":
            self.checkpoint = body
            name = body.get("name") or "acme/base model+run1"
            return httpx.Response(200, json={"checkpoint": {"name": name, "uri": body["uri"], "policyId": "p1"}})
        if path == f"{base}/complete":
            self.completed = body
            return httpx.Response(200, json={**self.run_view(), "status": {"succeeded": "succeeded"}.get(body["outcome"], body["outcome"])})
        return httpx.Response(404, json={"error": {"code": "NOT_FOUND", "message": f"no route {path}"}})


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"{sys.executable} {path}"


def agent_for(studio: FakeStudio, tmp_path: Path, command: str, **options: Any) -> tuple[Agent, list[str]]:
    logged: list[str] = []
    opts = Options(url="http://studio.test", token="wit_t", command=command, once=True, wait=0, work_dir=tmp_path / "runs", name="a1")
    for k, v in options.items():
        setattr(opts, k, v)
    client = Witness("http://studio.test", "wit_t", transport=httpx.MockTransport(studio), sleep=lambda s: None)
    return Agent(opts, client=client, log=logged.append), logged


DATASET = b'{"prompt":"a","chosen":"b","rejected":"c"}\n{"prompt":"d","chosen":"e","rejected":"f"}\n'


def test_a_run_served_end_to_end(tmp_path: Path):
    studio = FakeStudio(DATASET)
    command = script(
        tmp_path,
        "train.py",
        "import json, sys, pathlib\n"
        "args = dict(zip(sys.argv[1::2], sys.argv[2::2]))\n"
        "rows = pathlib.Path(args['--data']).read_text().splitlines()\n"
        "print(f'training on {len(rows)} rows from base {args[\"--model\"]}')\n"
        "for step in range(1, 4):\n"
        "    print(json.dumps({'witness_metric': {'step': step, 'loss': 1 / step}}))\n"
        "pathlib.Path(args['--out'], 'model.bin').write_text('weights')\n",
    )
    evaluate = script(
        tmp_path,
        "evaluate.py",
        "import json, sys, pathlib\n"
        "ckpt, tasks, out = sys.argv[1:4]\n"
        "for line in pathlib.Path(tasks).read_text().splitlines():\n"
        "    task = json.loads(line)\n"
        "    pathlib.Path(out, task['task'] + '.json').write_text(json.dumps({'messages': [{'role': 'user', 'content': task['instruction']}], 'by': ckpt}))\n",
    )
    agent, logged = agent_for(
        studio, tmp_path, command + " --data {dataset} --model {base_uri} --out {out}", eval_command=evaluate + " {checkpoint} {tasks} {eval_out}"
    )
    assert agent.serve() == 0, logged
    out = tmp_path / "runs" / "run1"
    assert (out / "model.bin").read_text() == "weights"
    assert json.loads((out / ".witness-run.json").read_text())["runId"] == "run1"
    assert (tmp_path / "runs" / "run1.dataset.jsonl").read_bytes() == DATASET
    # the base without a URI is passed by its name, spaces and all, as one argument
    assert "training on 2 rows from base acme/base model" in studio.logs
    assert studio.metrics == {("loss", 1): 1.0, ("loss", 2): 0.5, ("loss", 3): 1 / 3}
    events = [b for m, p, b in studio.calls if p.endswith("/events")]
    assert [e["key"] for e in events] == [f"run1:1:{i}" for i in range(1, len(events) + 1)]
    assert studio.checkpoint == {"leaseToken": "lease-1", "key": "run1:1:checkpoint", "uri": str(out)}
    (params, content), = studio.imports
    assert params == {"project": "demo", "format": "auto", "policy": "acme/base model+run1", "split": "eval"}
    assert json.loads(content)["by"] == "acme/base model+run1"
    assert studio.completed == {"leaseToken": "lease-1", "key": "run1:1:complete", "outcome": "succeeded", "exitCode": 0}
    # the complete call came after every event was sent
    paths = [p for _, p, _ in studio.calls]
    assert paths[-1].endswith("/complete") and max(i for i, p in enumerate(paths) if p.endswith("/events")) < len(paths) - 1


def test_a_dropped_answer_is_sent_again_under_the_same_key_and_adds_nothing(tmp_path: Path):
    studio = FakeStudio(DATASET)
    studio.drop_answer_of = {"/api/v1/training-runs/run1/events", "/api/v1/training-runs/run1/complete"}
    command = script(tmp_path, "train.py", "for i in range(5):\n    print(f'line {i}')\n")
    agent, logged = agent_for(studio, tmp_path, command)
    assert agent.serve() == 0, logged
    events = [b["key"] for m, p, b in studio.calls if p.endswith("/events")]
    assert len(events) == len(set(events)) + 1  # the first batch twice, one key
    assert [line for line in studio.logs if line.startswith("line")] == [f"line {i}" for i in range(5)]
    completes = [b["key"] for m, p, b in studio.calls if p.endswith("/complete")]
    assert completes == ["run1:1:complete", "run1:1:complete"]


def test_a_command_that_exits_non_zero_fails_the_run_with_its_last_lines(tmp_path: Path):
    studio = FakeStudio(DATASET)
    command = script(tmp_path, "train.py", "import sys\nfor i in range(30):\n    print(f'step {i}')\nsys.exit(3)\n")
    agent, _ = agent_for(studio, tmp_path, command)
    assert agent.serve() == 0
    assert studio.completed["outcome"] == "failed" and studio.completed["exitCode"] == 3
    assert studio.completed["reason"] == "command exited 3; its last 20 log lines:\n" + "\n".join(f"step {i}" for i in range(10, 30))
    assert studio.checkpoint is None


def test_a_command_not_found_fails_the_run(tmp_path: Path):
    studio = FakeStudio(DATASET)
    agent, _ = agent_for(studio, tmp_path, "no-such-trainer-xyz --data {dataset}")
    assert agent.serve() == 0
    assert studio.completed == {"leaseToken": "lease-1", "key": "run1:1:complete", "outcome": "failed", "reason": "command not found: no-such-trainer-xyz"}


def test_a_dataset_that_does_not_match_its_sha256_fails_the_run_before_the_command(tmp_path: Path):
    studio = FakeStudio(DATASET, sha256="0" * 64)
    marker = tmp_path / "ran"
    agent, _ = agent_for(studio, tmp_path, script(tmp_path, "train.py", f"open({str(marker)!r}, 'w')\n"))
    assert agent.serve() == 0
    got = hashlib.sha256(DATASET).hexdigest()
    assert studio.completed["reason"] == f"dataset sha256 mismatch: expected {'0' * 64} got {got}"
    assert not marker.exists() and not (tmp_path / "runs" / "run1.dataset.jsonl").exists()


def test_an_out_folder_holding_another_runs_checkpoint_fails_the_run(tmp_path: Path):
    out = tmp_path / "runs" / "run1"
    out.mkdir(parents=True)
    (out / ".witness-run.json").write_text(json.dumps({"runId": "run0"}))
    studio = FakeStudio(DATASET)
    agent, _ = agent_for(studio, tmp_path, "true")
    assert agent.serve() == 0
    assert studio.completed["reason"] == f"{out} already holds run run0's checkpoint"


def test_cancel_stops_the_command_and_runs_the_cancel_command(tmp_path: Path):
    studio = FakeStudio(DATASET, lease_seconds=3)  # a heartbeat every second
    pid_file, cancelled = tmp_path / "pid", tmp_path / "cancelled"
    command = script(
        tmp_path,
        "train.py",
        f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\nprint('started', flush=True)\ntime.sleep(120)\n",
    )
    cancel = script(tmp_path, "cancel.py", "import sys\nopen(sys.argv[1], 'w').write(sys.argv[2])\n")
    agent, logged = agent_for(studio, tmp_path, command, cancel_command=f"{cancel} {cancelled} witness-{{run_id}}")
    threading.Timer(1.5, lambda: setattr(studio, "cancel_requested", True)).start()
    t0 = time.monotonic()
    assert agent.serve() == 0, logged
    assert time.monotonic() - t0 < 30
    assert studio.completed["outcome"] == "cancelled"
    assert cancelled.read_text() == "witness-run1"
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_a_lost_lease_stops_the_command_runs_the_cancel_command_and_completes_nothing(tmp_path: Path):
    studio = FakeStudio(DATASET, lease_seconds=3)
    pid_file, cancelled = tmp_path / "pid", tmp_path / "cancelled"
    command = script(
        tmp_path,
        "train.py",
        f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\nprint('started', flush=True)\ntime.sleep(120)\n",
    )
    cancel = script(tmp_path, "cancel.py", "import sys\nopen(sys.argv[1], 'w').write(sys.argv[2])\n")
    agent, logged = agent_for(studio, tmp_path, command, cancel_command=f"{cancel} {cancelled} {{run_id}}")
    threading.Timer(1.5, lambda: setattr(studio, "lease_lost", True)).start()
    assert agent.serve() == 1, logged  # --once: the run was not served to the end
    assert studio.completed is None and cancelled.read_text() == "run1"
    assert any("lease lost" in line for line in logged)
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_lines_reach_the_studio_while_the_command_runs_not_only_at_its_end(tmp_path: Path):
    # the command waits for the studio to have its first line (a file the stand-in writes when it arrives), and
    # fails after 10 s without it: lines are sent within about a second of being printed
    studio = FakeStudio(DATASET)
    seen = tmp_path / "seen"
    studio.on_logs = lambda logs: "first line" in logs and seen.write_text("yes")
    command = script(
        tmp_path,
        "train.py",
        f"import pathlib, sys, time\nprint('first line', flush=True)\nt0 = time.time()\n"
        f"while not pathlib.Path({str(seen)!r}).exists():\n    time.sleep(0.05)\n    if time.time() - t0 > 10: sys.exit(7)\n"
        f"print(f'seen after {{time.time() - t0:.1f}} s', flush=True)\n",
    )
    agent, logged = agent_for(studio, tmp_path, command)
    assert agent.serve() == 0, logged
    assert studio.completed["outcome"] == "succeeded", studio.completed
    (waited,) = [float(line.split()[2]) for line in studio.logs if line.startswith("seen after")]
    assert waited < 3
