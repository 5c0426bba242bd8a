"""``witness-trainer``: the trainer agent. It runs beside the GPUs and pulls training runs from a studio.

    witness-trainer --url URL --token TOKEN --command 'python train_dpo.py --data {dataset} --model {base_uri} --out {out}'

It claims one queued run at a time (long-poll, with a lease it renews by heartbeats), downloads the
run's frozen dataset streamed and checks its sha256, runs the command with the placeholders filled
in (in its own process group, stdout and stderr merged), streams the command's lines and metrics
back in batches under idempotency keys, registers the checkpoint on exit 0, runs ``--eval-command``
and imports what it leaves in ``{eval_out}`` as the checkpoint's eval trajectories, and completes
the run. A run that is cancelled, or whose lease is lost, has its command stopped (SIGTERM to the
group, SIGKILL 10 s later) and ``--cancel-command`` run, so that a cluster job the command only
watched (``ray job submit --wait``, ``sbatch --wait``, ``kubectl wait``) ends too.

The agent's own log goes to stderr, one line per thing it does; the command's lines go to stdout.
Exit codes: 0 served (``--once``: one run; ``--max-runs``: that many), 1 the agent could not go
on (studio refusing the token, unreachable past ``--wait``, a lease lost under ``--once``),
2 usage, 3 ``--once`` and no run came within ``--wait`` seconds, 130 interrupted.
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .client import Witness, _backoff, _segment
from .errors import WitnessError

__all__ = ["main", "MetricParser", "fill_command", "parse_labels", "TRAIN_PLACEHOLDERS", "EVAL_PLACEHOLDERS"]

#: the placeholders ``--command`` (and ``--cancel-command``) may use
TRAIN_PLACEHOLDERS = ("dataset", "base", "base_uri", "out", "run_id")
#: ``--eval-command`` may use these too
EVAL_PLACEHOLDERS = TRAIN_PLACEHOLDERS + ("checkpoint", "checkpoint_uri", "tasks", "eval_out")
_PLACEHOLDER = re.compile(r"\{(" + "|".join(EVAL_PLACEHOLDERS) + r")\}")

MARKER = ".witness-run.json"
#: a batch of events is sent every second, or at this many lines, whichever comes first
BATCH_LINES = 500
BATCH_SECONDS = 1.0
#: the studio's limits on one events batch (lib/training/training-run-schemas.ts)
MAX_BATCH_METRICS = 50_000
MAX_LINE_CHARS = 10_000
#: lines of the command's output a failure reason carries
REASON_LINES = 20
#: SIGTERM, then SIGKILL this many seconds later
KILL_AFTER = 10.0
#: the longest a --cancel-command may take
CANCEL_TIMEOUT = 300.0
#: how long checkpoint and complete are tried again while the studio is unreachable
FINAL_CALL_PATIENCE = 600.0
#: a claim long-polls at most this long per request
CLAIM_WAIT = 20.0

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_NO_RUN, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


# ---- pure parts: placeholders, labels, metric lines ------------------------------------------------


def placeholders_in(template: str) -> set[str]:
    """The known placeholders a command template uses."""
    return set(_PLACEHOLDER.findall(template))


def fill_command(template: str, values: Mapping[str, str]) -> list[str]:
    """The command's argv: ``template`` split as a POSIX shell would (shlex), then each placeholder filled in.

    Splitting before filling keeps a value with spaces (a path, a policy name such as ``acme/coder-7b / shell``)
    one argument, whether or not the template quotes it. Placeholders not in ``values`` and other braces are left
    as they are. Raises ValueError for an empty command or unbalanced quotes."""
    try:
        args = shlex.split(template)
    except ValueError as error:
        raise ValueError(f"cannot split the command {template!r}: {error}") from None
    if not args:
        raise ValueError("the command is empty")
    return [_PLACEHOLDER.sub(lambda m: values[m[1]] if m[1] in values else m[0], arg) for arg in args]


def parse_labels(values: Sequence[str]) -> dict[str, str]:
    """``--labels`` given any number of times, each ``k=v`` or a comma list ``k=v,k2=v2``, as one dict."""
    labels: dict[str, str] = {}
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, val = part.partition("=")
            if not sep or not key.strip() or not val.strip():
                raise ValueError(f"--labels {value!r}: {part!r} is not k=v")
            labels[key.strip()] = val.strip()
    return labels


def _number(value: Any) -> float | None:
    """A finite number, or a string of one (transformers' ProgressCallback prints floats as ``f"{v:.4g}"`` strings)."""
    if isinstance(value, str) and _NUMERIC.fullmatch(value.strip()):
        value = float(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


_NUMERIC = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _step(value: Any) -> int | None:
    number = _number(value)
    if number is None or number < 0 or number != int(number) or number > 2_147_483_647:
        return None
    return int(number)


# the names a Python dict repr may hold that literal_eval cannot read: non-finite floats (their points are dropped anyway)
_NON_FINITE = re.compile(r"(?<![\w'\"])-?(?:nan|inf)(?![\w'\"])")


@dataclass
class MetricParser:
    """Reads metric points and the checkpoint line out of a command's output, one line at a time.

    - ``{"witness_metric": {"step": 3, "loss": 0.41, "rewards/accuracies": 0.6}}``: one point per name at its step
      (a line without ``step`` takes the count of such lines so far);
    - a transformers/TRL log dictionary as its ``ProgressCallback`` prints it (``training_bar.write(str(logs))``, floats
      as ``f"{v:.4g}"`` strings in transformers 5, numbers before: ``{'loss': '0.6931', 'grad_norm': '1.2',
      'learning_rate': '5e-07', 'rewards/accuracies': '0.5', 'epoch': '0.5'}``) or ``PrinterCallback`` (``print(logs)``):
      one point per numeric value, at its ``step`` when it has one, else the count of such dictionaries so far in
      this attempt (1, 2, …); read only when it has ``epoch`` or a ``…loss`` key, so a printed config is not a metric,
      and not the end-of-training summary (``train_runtime``, ``train_loss``, …);
    - ``{"witness_checkpoint": {"name": …, "uri": …}}``: the checkpoint to register (the last such line wins).

    Non-numeric and non-finite values are skipped. A progress bar's carriage returns are undone first (the text
    after the last ``\\r`` is the line a terminal shows)."""

    witness_lines: int = 0
    trainer_dicts: int = 0
    checkpoint: dict[str, str] | None = None

    def feed(self, line: str) -> list[dict[str, Any]]:
        text = visible_text(line).strip()
        start = text.find("{")
        if start < 0 or not text.endswith("}"):
            return []
        text = text[start:]
        try:
            data = json.loads(text)
        except ValueError:
            data = None
        if isinstance(data, dict):
            if isinstance(data.get("witness_metric"), dict):
                self.witness_lines += 1
                return self._points(data["witness_metric"], self.witness_lines)
            if isinstance(data.get("witness_checkpoint"), dict):
                self._checkpoint(data["witness_checkpoint"])
                return []
            return self._trainer_dict(data)
        if len(text) > 100_000 or "'" not in text:
            return []
        try:
            data = ast.literal_eval(_NON_FINITE.sub("None", text))
        except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
            return []
        return self._trainer_dict(data) if isinstance(data, dict) else []

    def _trainer_dict(self, data: dict[Any, Any]) -> list[dict[str, Any]]:
        keys = [k for k in data if isinstance(k, str)]
        if len(keys) != len(data) or not ("epoch" in data or any(k.endswith("loss") for k in keys)):
            return []
        # the end-of-training summary (train_runtime, train_loss, …) is not a step: read, it was a stray point past the last
        if "train_runtime" in data:
            return []
        if not any(_number(v) is not None for k, v in data.items() if k != "step"):
            return []
        self.trainer_dicts += 1
        return self._points(data, self.trainer_dicts)

    def _points(self, values: dict[str, Any], default_step: int) -> list[dict[str, Any]]:
        step = _step(values["step"]) if "step" in values else default_step
        if step is None:
            return []
        points = []
        for name, value in values.items():
            number = _number(value)
            if name == "step" or number is None or not isinstance(name, str) or not 0 < len(name) <= 200:
                continue
            points.append({"step": step, "name": name, "value": number})
        return points

    def _checkpoint(self, value: dict[str, Any]) -> None:
        name, uri = value.get("name"), value.get("uri")
        self.checkpoint = {
            **({"name": name.strip()} if isinstance(name, str) and name.strip() else {}),
            **({"uri": uri.strip()} if isinstance(uri, str) and uri.strip() else {}),
        }


def visible_text(line: str) -> str:
    """What a terminal shows of a line that carriage returns overwrote (a tqdm bar, then tqdm.write's text)."""
    line = line.rstrip("\r\n")
    if "\r" not in line:
        return line
    parts = [p for p in line.split("\r") if p.strip()]
    return parts[-1] if parts else ""


def failure_reason(what: str, lines: Sequence[str]) -> str:
    """``what`` plus the command's last log lines (the studio keeps 20,000 characters of a reason)."""
    tail = list(lines)[-REASON_LINES:]
    if not tail:
        return what
    text = f"{what}; its last {len(tail)} log line{'s' if len(tail) != 1 else ''}:\n" + "\n".join(tail)
    return text if len(text) <= 19_000 else text[:9_000] + "\n…\n" + text[-9_000:]


# ---- the agent -------------------------------------------------------------------------------------


class LeaseLost(Exception):
    """The studio answered 409: this agent's lease on the run is gone (expired and re-claimed, or the run ended)."""


class Interrupted(Exception):
    """SIGINT or SIGTERM to the agent."""


def _is_lease_lost(error: WitnessError) -> bool:
    return error.status == 409 and "lease" in error.message.lower()


@dataclass
class Options:
    url: str
    token: str
    command: str
    eval_command: str | None = None
    cancel_command: str | None = None
    once: bool = False
    wait: float = 30.0
    labels: dict[str, str] = field(default_factory=dict)
    work_dir: Path = Path("witness-runs")
    name: str = ""
    lease: int = 60
    max_runs: int | None = None


class Attempt:
    """One claim of a run: its lease, the heartbeat, the event uploader, and the flags that stop its command."""

    def __init__(self, agent: Agent, claim: dict[str, Any]) -> None:
        self.agent = agent
        self.claim = claim
        self.run: dict[str, Any] = claim["run"]
        self.run_id: str = self.run["id"]
        self.number: int = int(self.run.get("attempts") or 1)
        self.token: str = claim["lease"]["token"]
        self.lease_seconds: int = int(claim["lease"].get("seconds") or agent.options.lease)
        self.cancelled = threading.Event()
        self.lease_lost = threading.Event()
        self.done = threading.Event()
        self.stop_listeners: list[Callable[[], None]] = []
        self.lines: deque[str] = deque(maxlen=REASON_LINES)
        self.parser = MetricParser()
        self.uploader = Uploader(self)
        self._heartbeat = threading.Thread(target=self._heartbeats, name=f"heartbeat-{self.run_id}", daemon=True)
        self._lock = threading.Lock()

    @property
    def path(self) -> str:
        return f"/api/v1/training-runs/{_segment(self.run_id)}"

    @property
    def stopping(self) -> bool:
        return self.cancelled.is_set() or self.lease_lost.is_set()

    def key(self, what: str) -> str:
        return f"{self.run_id}:{self.number}:{what}"

    def start(self) -> None:
        self._heartbeat.start()
        self.uploader.start()

    def finish(self) -> None:
        """Stops the heartbeat; sends what the uploader holds (unless the lease is lost)."""
        self.uploader.close()
        self.done.set()
        self._heartbeat.join(timeout=5)
        sent = self.uploader.sent
        self.agent.log(f"run {self.run_id}: sent {sent['lines']} log lines and {sent['points']} metric points in {sent['batches']} batches")

    def on_stop(self, listener: Callable[[], None]) -> Callable[[], None]:
        with self._lock:
            self.stop_listeners.append(listener)
        if self.stopping:
            listener()
        return lambda: self._remove(listener)

    def _remove(self, listener: Callable[[], None]) -> None:
        with self._lock:
            if listener in self.stop_listeners:
                self.stop_listeners.remove(listener)

    def _signal_stop(self) -> None:
        with self._lock:
            listeners = list(self.stop_listeners)
        for listener in listeners:
            listener()

    def mark_lease_lost(self, why: str) -> None:
        if not self.lease_lost.is_set():
            self.agent.log(f"run {self.run_id}: lease lost ({why}); stopping its command, the run is not completed here")
            self.lease_lost.set()
            self._signal_stop()

    def _heartbeats(self) -> None:
        interval = max(1.0, self.lease_seconds / 3)
        beat = 0
        while not self.done.wait(interval):
            beat += 1
            try:
                answer = self.agent.call(
                    "POST",
                    f"{self.path}/heartbeat",
                    {"leaseToken": self.token, "leaseSeconds": self.lease_seconds},
                    key=self.key(f"heartbeat-{beat}"),
                )
            except LeaseLost as lost:
                self.mark_lease_lost(str(lost))
                return
            except WitnessError as error:
                self.agent.log(f"run {self.run_id}: heartbeat failed ({error}); trying again in {interval:.0f} s")
                continue
            if answer.get("status") not in (None, "running"):
                self.mark_lease_lost(f"the run is {answer.get('status')}")
                return
            if answer.get("cancelRequested") and not self.cancelled.is_set():
                self.agent.log(f"run {self.run_id}: cancel requested; stopping its command")
                self.cancelled.set()
                self._signal_stop()

    def output(self, line: str) -> None:
        """One line of the command's output: echoed to stdout, kept for a failure reason, parsed, queued for upload."""
        text = visible_text(line)
        if len(text) > MAX_LINE_CHARS:
            text = text[:MAX_LINE_CHARS] + "…"
        print(text, flush=True)
        self.lines.append(text)
        self.uploader.add(text, self.parser.feed(text))

    def note(self, message: str) -> None:
        """The agent's own line: to stderr, and into the run's log as ``[witness-trainer] …``."""
        self.agent.log(f"run {self.run_id}: {message}")
        self.uploader.add(f"[witness-trainer] {message}", [])


class Uploader(threading.Thread):
    """Sends the run's lines and metric points in batches: every second, or at 500 lines.

    Each batch carries the key ``<run id>:<attempt>:<sequence>`` and is sent again under the same key until the
    studio answers (a batch it has seen adds nothing), so a dropped answer never doubles a line or a point."""

    def __init__(self, attempt: Attempt) -> None:
        super().__init__(name=f"uploader-{attempt.run_id}", daemon=True)
        self.attempt = attempt
        self._cond = threading.Condition()
        self._lines: list[str] = []
        self._metrics: list[dict[str, Any]] = []
        self._first_at: float | None = None
        self._closing = False
        self._closed_at = 0.0
        self._sequence = 0
        self.sent = {"batches": 0, "lines": 0, "points": 0}

    def add(self, line: str | None, points: list[dict[str, Any]]) -> None:
        with self._cond:
            if line is not None:
                self._lines.append(line)
            self._metrics.extend(points)
            if self._first_at is None:
                # the first of a batch: the sender starts its one-second clock
                self._first_at = time.monotonic()
                self._cond.notify()
            elif len(self._lines) >= BATCH_LINES or len(self._metrics) >= MAX_BATCH_METRICS:
                self._cond.notify()

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._closed_at = time.monotonic()
            self._cond.notify()
        self.join()

    def run(self) -> None:
        while True:
            with self._cond:
                while True:
                    pending = bool(self._lines or self._metrics)
                    due = pending and (
                        self._closing
                        or len(self._lines) >= BATCH_LINES
                        or len(self._metrics) >= MAX_BATCH_METRICS
                        or time.monotonic() - (self._first_at or 0) >= BATCH_SECONDS
                    )
                    if due or (self._closing and not pending):
                        break
                    self._cond.wait(max(0.05, BATCH_SECONDS - (time.monotonic() - (self._first_at or 0))) if pending else None)
                if not pending:
                    return
                lines, self._lines = self._lines[:BATCH_LINES], self._lines[BATCH_LINES:]
                metrics, self._metrics = self._metrics[:MAX_BATCH_METRICS], self._metrics[MAX_BATCH_METRICS:]
                self._first_at = time.monotonic() if (self._lines or self._metrics) else None
            if self.attempt.lease_lost.is_set():
                continue  # nothing more is accepted on this lease: dropped
            self._send(lines, metrics)

    def _send(self, lines: list[str], metrics: list[dict[str, Any]]) -> None:
        self._sequence += 1
        body: dict[str, Any] = {"leaseToken": self.attempt.token, "key": self.attempt.key(str(self._sequence))}
        if lines:
            body["logs"] = lines
        if metrics:
            body["metrics"] = metrics
        agent = self.attempt.agent
        tries = 0
        while True:
            try:
                answer = agent.call("POST", f"{self.attempt.path}/events", body, key=body["key"])
                self.sent["batches"] += 1
                self.sent["lines"] += len(lines)
                self.sent["points"] += len(metrics) if answer.get("duplicate") else int(answer.get("points") or 0)
                return
            except LeaseLost as lost:
                self.attempt.mark_lease_lost(str(lost))
                return
            except WitnessError as error:
                if error.status not in (0, 429) and error.status < 500:
                    # refused as it is (a line or a name the studio will not take): logged, not retried
                    agent.log(f"run {self.attempt.run_id}: a batch of {len(lines)} lines and {len(metrics)} points was refused: {error}")
                    return
                if self.attempt.lease_lost.is_set() or agent.interrupted.is_set():
                    return
                if self._closing and time.monotonic() - self._closed_at > FINAL_CALL_PATIENCE:
                    agent.log(f"run {self.attempt.run_id}: gave up a batch of {len(lines)} lines and {len(metrics)} points: {error.message}")
                    return
                wait = _backoff(min(tries, 6))
                agent.log(f"run {self.attempt.run_id}: could not send a batch ({error.message}); again in {wait:.1f} s under the same key")
                time.sleep(wait)
                tries += 1


class Agent:
    def __init__(self, options: Options, client: Witness | None = None, log: Callable[[str], None] | None = None) -> None:
        self.options = options
        self.client = client or Witness(options.url, options.token, timeout=max(60.0, CLAIM_WAIT + 30))
        self._log = log or (lambda message: print(f"witness-trainer: {message}", file=sys.stderr, flush=True))
        self.work_dir = options.work_dir.expanduser().resolve()
        self.interrupted = threading.Event()

    def log(self, message: str) -> None:
        self._log(message)

    # ---- HTTP ----------------------------------------------------------------------------------

    def call(self, method: str, path: str, body: Any = None, *, key: str | None = None, patience: float = 0.0) -> Any:
        """One API call (the client tries a dropped connection or a 5xx again under the same key); then, for up to
        ``patience`` seconds, again while the studio cannot be reached. A 409 about the lease raises LeaseLost."""
        deadline = time.monotonic() + patience
        tries = 0
        while True:
            try:
                return self.client._json(method, path, json=body, idempotency_key=key)
            except WitnessError as error:
                if _is_lease_lost(error):
                    raise LeaseLost(error.message) from error
                unreachable = error.status == 0 or error.status >= 500 or error.status == 429
                if not unreachable or time.monotonic() >= deadline or self.interrupted.is_set():
                    raise
                wait = _backoff(min(tries, 6))
                self.log(f"{method} {path}: {error.message}; again in {wait:.1f} s")
                time.sleep(wait)
                tries += 1

    # ---- the loop ------------------------------------------------------------------------------

    def serve(self) -> int:
        opts = self.options
        self.work_dir.mkdir(parents=True, exist_ok=True)
        where = f" with labels {','.join(f'{k}={v}' for k, v in opts.labels.items())}" if opts.labels else ""
        self.log(f"agent {opts.name} serving {self.client.url}{where}; work dir {self.work_dir}")
        served = 0
        deadline = time.monotonic() + opts.wait
        unreachable = 0
        while True:
            wait = CLAIM_WAIT
            if opts.once:
                wait = min(CLAIM_WAIT, max(0.0, deadline - time.monotonic()))
            try:
                claim = self.claim(wait)
                unreachable = 0
            except WitnessError as error:
                if error.status == 0 or error.status >= 500 or error.status == 429:
                    if opts.once and time.monotonic() >= deadline:
                        self.log(f"the studio could not be reached within --wait {opts.wait:g} s: {error.message}")
                        return EXIT_ERROR
                    pause = _backoff(min(unreachable, 6))
                    unreachable += 1
                    self.log(f"could not claim ({error.message}); again in {pause:.1f} s")
                    time.sleep(pause)
                    continue
                self.log(f"the studio refused the claim: {error}")
                return EXIT_ERROR
            if claim is None:
                if opts.once and time.monotonic() >= deadline:
                    self.log(f"no run came within --wait {opts.wait:g} s")
                    return EXIT_NO_RUN
                continue
            outcome = self.serve_run(claim)
            served += 1
            if opts.once:
                return EXIT_ERROR if outcome == "lease-lost" else EXIT_OK
            if opts.max_runs is not None and served >= opts.max_runs:
                self.log(f"served {served} run{'s' if served != 1 else ''} (--max-runs); exiting")
                return EXIT_OK

    def claim(self, wait: float) -> dict[str, Any] | None:
        body: dict[str, Any] = {"agent": self.options.name, "waitSeconds": round(wait, 3), "leaseSeconds": self.options.lease}
        if self.options.labels:
            body["labels"] = self.options.labels
        response = self.client._request("POST", "/api/v1/training-runs/claim", json=body)
        if response.status_code == 204:
            return None
        if response.status_code >= 400:
            raise WitnessError.from_response(response)
        return response.json()

    # ---- one run -------------------------------------------------------------------------------

    def serve_run(self, claim: dict[str, Any]) -> str:
        """Serves one claimed run; answers succeeded / failed / cancelled (completed) or lease-lost (left to its lease)."""
        attempt = Attempt(self, claim)
        run = attempt.run
        base = run.get("base") or {}
        self.log(
            f"claimed run {attempt.run_id} (attempt {attempt.number} of {run.get('maxAttempts', '?')}; {run.get('recipe')}; "
            f"{run.get('rows')} rows; base {base.get('name')}; lease {attempt.lease_seconds} s)"
        )
        attempt.start()
        completion: dict[str, Any] | None = None
        try:
            completion = self._serve(attempt)
        except Interrupted:
            attempt.note("interrupted: the command was stopped; the run is left to its lease (re-claimed when it expires)")
            raise
        finally:
            attempt.finish()
        if completion is None:
            return "lease-lost"
        return self._complete(attempt, completion)

    def _serve(self, attempt: Attempt) -> dict[str, Any] | None:
        """The steps of one attempt; the body to complete it with, or None when the lease was lost."""
        run, claim = attempt.run, attempt.claim
        out = self.work_dir / attempt.run_id
        base = run.get("base") or {}
        values = {
            "dataset": str(self.work_dir / f"{attempt.run_id}.dataset.jsonl"),
            "base": str(base.get("name") or ""),
            "base_uri": str(base.get("uri") or base.get("name") or ""),
            "out": str(out),
            "run_id": attempt.run_id,
        }

        # {out}: this run's folder, never one another run wrote its checkpoint to
        out.mkdir(parents=True, exist_ok=True)
        marker = out / MARKER
        holder = _marker_run(marker)
        if holder and holder != attempt.run_id:
            return self._failed(attempt, f"{out} already holds run {holder}'s checkpoint")
        marker.write_text(
            json.dumps({"runId": attempt.run_id, "attempt": attempt.number, "agent": self.options.name, "claimedAt": _now()}) + "\n"
        )
        if attempt.number > 1 and self.options.cancel_command:
            attempt.note(f"attempt {attempt.number}: running --cancel-command first, to stop what attempt {attempt.number - 1} left running")
            self._cancel_command(attempt, values)

        # the frozen dataset, streamed and checked
        dataset = Path(values["dataset"])
        expected = str((claim.get("dataset") or {}).get("sha256") or run.get("sha256") or "")
        url = (claim.get("dataset") or {}).get("url") or f"{attempt.path}/dataset"
        try:
            if dataset.exists() and _file_sha256(dataset) == expected:
                attempt.note(f"dataset {dataset} already here (sha256 {expected[:12]}…)")
            else:
                self.client.download(url, dataset, sha256=expected or None, what=f"run {attempt.run_id}")
                attempt.note(f"downloaded the dataset to {dataset} ({run.get('rows')} rows, sha256 {expected[:12]}…)")
        except WitnessError as error:
            if _is_lease_lost(error):
                attempt.mark_lease_lost(error.message)
                return None
            if error.code == "CORRUPT":
                details = error.details if isinstance(error.details, dict) else {}
                return self._failed(attempt, f"dataset sha256 mismatch: expected {details.get('expected')} got {details.get('got')}")
            if error.status == 0 or error.status >= 500:
                attempt.note(f"could not download the dataset ({error.message}); leaving the run to its lease")
                return None
            return self._failed(attempt, f"the dataset could not be downloaded: {error.message}")
        if attempt.stopping:
            return self._stopped(attempt, values)

        # the training command
        exit_code, missing = self._run_command(attempt, self.options.command, values, "training")
        if attempt.stopping:
            return self._stopped(attempt, values)
        if missing is not None:
            return self._failed(attempt, missing)
        if exit_code != 0:
            what = f"command exited {exit_code}" + (f" (killed by {_signal_name(-exit_code)})" if exit_code < 0 else "")
            return self._failed(attempt, failure_reason(what, attempt.lines), exit_code=exit_code)

        # the checkpoint
        printed = attempt.parser.checkpoint or {}
        body: dict[str, Any] = {"leaseToken": attempt.token, "key": attempt.key("checkpoint"), "uri": printed.get("uri") or str(out)}
        if printed.get("name"):
            body["name"] = printed["name"]
        try:
            answer = self.call("POST", f"{attempt.path}/checkpoint", body, key=body["key"], patience=FINAL_CALL_PATIENCE)
        except LeaseLost as lost:
            attempt.mark_lease_lost(str(lost))
            return self._stopped(attempt, values)
        except WitnessError as error:
            return self._failed(attempt, f"the checkpoint was refused: {error.message}", exit_code=0)
        checkpoint = answer.get("checkpoint") or {}
        attempt.note(f"registered checkpoint {checkpoint.get('name')} ({checkpoint.get('uri')})")

        # the eval command, and its trajectories
        eval_error = None
        if self.options.eval_command:
            eval_error = self._evaluate(attempt, values, checkpoint, out)
            if attempt.stopping:
                return self._stopped(attempt, {**values, **self._eval_values(checkpoint, out)})
            if eval_error:
                attempt.note(f"eval: {eval_error.splitlines()[0]}")
        completion: dict[str, Any] = {"outcome": "succeeded", "exitCode": 0}
        if eval_error:
            completion["evalError"] = eval_error
        return completion

    def _eval_values(self, checkpoint: dict[str, Any], out: Path) -> dict[str, str]:
        return {
            "checkpoint": str(checkpoint.get("name") or ""),
            "checkpoint_uri": str(checkpoint.get("uri") or out),
            "tasks": str(out / "eval_tasks.jsonl"),
            "eval_out": str(out / "eval_out"),
        }

    def _evaluate(self, attempt: Attempt, values: dict[str, str], checkpoint: dict[str, Any], out: Path) -> str | None:
        """Runs --eval-command and imports what it leaves in {eval_out}; the evalError, or None when all went in."""
        eval_values = {**values, **self._eval_values(checkpoint, out)}
        tasks, eval_out = Path(eval_values["tasks"]), Path(eval_values["eval_out"])
        try:
            self.client.download(attempt.claim.get("evalTasksUrl") or f"{attempt.path}/eval-tasks", tasks)
        except WitnessError as error:
            if _is_lease_lost(error):
                attempt.mark_lease_lost(error.message)
                return None
            return f"the eval tasks could not be downloaded: {error.message}"
        count = sum(1 for line in tasks.read_text(encoding="utf-8").splitlines() if line.strip())
        # a re-run starts from an empty folder: what an earlier attempt left is not imported as this one's
        shutil.rmtree(eval_out, ignore_errors=True)
        eval_out.mkdir(parents=True)
        attempt.note(f"eval: {count} task{'s' if count != 1 else ''} in {tasks}; running --eval-command")
        attempt.lines.clear()
        exit_code, missing = self._run_command(attempt, self.options.eval_command or "", eval_values, "eval")
        if attempt.stopping:
            return None
        if missing is not None:
            return failure_reason(f"eval {missing}", attempt.lines)
        problems = []
        if exit_code != 0:
            problems.append(failure_reason(f"eval command exited {exit_code}", attempt.lines))
        entries = sorted((p for p in eval_out.iterdir() if not p.name.startswith(".")), key=lambda p: p.name)
        if not entries:
            return "\n".join(problems + [f"the eval command left nothing in {eval_out}"])
        project = run_project(attempt.run)
        try:
            report = self.client.import_trajectories(*entries, project=project, policy=checkpoint.get("name"), split="eval")
        except WitnessError as error:
            return "\n".join(problems + [f"the eval trajectories were refused: {error.message}"])
        attempt.note(
            f"eval: imported {report.imported} trajectories of {checkpoint.get('name')} into {project} (split eval)"
            + (f", {report.skipped} already there" if report.skipped else "")
            + (f", {report.failed} failed" if report.failed else "")
        )
        if report.failed:
            shown = "; ".join(f"{e.where}: {e.message}" for e in report.errors[:5])
            problems.append(f"{report.failed} eval trajector{'ies' if report.failed != 1 else 'y'} failed to import: {shown}")
        elif report.imported + report.skipped == 0:
            problems.append(f"nothing in {eval_out} was read as a trajectory")
        return "\n".join(problems) or None

    def _run_command(self, attempt: Attempt, template: str, values: dict[str, str], what: str) -> tuple[int, str | None]:
        """Runs a command in its own process group, its output line by line into the attempt; stopped when the attempt
        is. Returns (exit code, None), or (127, "command not found: X") when it could not be started."""
        argv = fill_command(template, values)
        attempt.note(f"{what}: {shlex.join(argv)}")
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "WITNESS_RUN_ID": attempt.run_id, "WITNESS_RUN_ATTEMPT": str(attempt.number)}
        try:
            process = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True, env=env
            )
        except FileNotFoundError:
            return 127, f"command not found: {argv[0]}"
        except PermissionError:
            return 126, f"command not executable: {argv[0]}"
        stopper = GroupStopper(process, self.log)
        forget = attempt.on_stop(stopper.stop)
        try:
            assert process.stdout is not None
            for raw in iter(process.stdout.readline, b""):
                attempt.output(raw.decode("utf-8", errors="replace"))
            exit_code = process.wait()
        except BaseException:
            stopper.stop()
            stopper.wait()
            raise
        finally:
            forget()
        stopper.wait()
        attempt.note(f"{what} command exited {exit_code}" + (" (stopped)" if stopper.stopped else ""))
        return exit_code, None

    def _cancel_command(self, attempt: Attempt, values: dict[str, str]) -> None:
        """Runs --cancel-command (its lines into the run's log, a limit of 5 minutes); its failure is only logged."""
        if not self.options.cancel_command:
            return
        argv = fill_command(self.options.cancel_command, values)
        attempt.note(f"cancel: {shlex.join(argv)}")
        try:
            done = subprocess.run(
                argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=CANCEL_TIMEOUT, check=False
            )
        except FileNotFoundError:
            attempt.note(f"--cancel-command not found: {argv[0]}")
            return
        except subprocess.TimeoutExpired:
            attempt.note(f"--cancel-command still running after {CANCEL_TIMEOUT:.0f} s; left behind")
            return
        for line in done.stdout.decode("utf-8", errors="replace").splitlines():
            attempt.output(line)
        attempt.note(f"--cancel-command exited {done.returncode}")

    def _stopped(self, attempt: Attempt, values: dict[str, str]) -> dict[str, Any] | None:
        """After a cancel or a lost lease: --cancel-command; then complete cancelled, or nothing (the lease is gone)."""
        self._cancel_command(attempt, values)
        if attempt.lease_lost.is_set():
            return None
        return {"outcome": "cancelled", "reason": "cancelled by request; the command was stopped"}

    def _failed(self, attempt: Attempt, reason: str, exit_code: int | None = None) -> dict[str, Any]:
        attempt.note(f"failed: {reason.splitlines()[0]}")
        return {"outcome": "failed", "reason": reason, **({"exitCode": exit_code} if exit_code is not None else {})}

    def _complete(self, attempt: Attempt, completion: dict[str, Any]) -> str:
        body = {"leaseToken": attempt.token, "key": attempt.key("complete"), **completion}
        try:
            view = self.call("POST", f"{attempt.path}/complete", body, key=body["key"], patience=FINAL_CALL_PATIENCE)
        except LeaseLost as lost:
            self.log(f"run {attempt.run_id}: could not complete it, the lease is lost ({lost})")
            return "lease-lost"
        except WitnessError as error:
            self.log(f"run {attempt.run_id}: the studio refused to complete it as {completion['outcome']}: {error}")
            return "lease-lost"
        status = view.get("status") if isinstance(view, dict) else None
        self.log(f"run {attempt.run_id}: {status or completion['outcome']}")
        return str(status or completion["outcome"])


class GroupStopper:
    """Stops a command's whole process group: SIGTERM, then SIGKILL after 10 s. Idempotent, from any thread."""

    def __init__(self, process: subprocess.Popen[bytes], log: Callable[[str], None]) -> None:
        self.process = process
        self.log = log
        self.stopped = False
        self._lock = threading.Lock()
        self._killer: threading.Thread | None = None

    def stop(self) -> None:
        with self._lock:
            if self.stopped:
                return
            self.stopped = True
            self._killer = threading.Thread(target=self._stop, daemon=True)
            self._killer.start()

    def _stop(self) -> None:
        pgid = self.process.pid  # start_new_session: the group's id is the leader's pid
        _killpg(pgid, signal.SIGTERM)
        try:
            self.process.wait(timeout=KILL_AFTER)
        except subprocess.TimeoutExpired:
            self.log(f"the command (pid {pgid}) did not stop within {KILL_AFTER:.0f} s of SIGTERM: SIGKILL")
        # what is left of the group (the leader gone, its children not) goes too
        _killpg(pgid, signal.SIGKILL)

    def wait(self) -> None:
        killer = self._killer
        if killer is not None:
            killer.join()


def _killpg(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def run_project(run: Mapping[str, Any]) -> str:
    """The project slug of a run view (a string; an object's ``slug`` as a fallback)."""
    project = run.get("project")
    if isinstance(project, dict):
        project = project.get("slug")
    return str(project or "default")


def _marker_run(marker: Path) -> str | None:
    try:
        data = json.loads(marker.read_text())
    except (OSError, ValueError):
        return None
    return data.get("runId") if isinstance(data, dict) and isinstance(data.get("runId"), str) else None


def _file_sha256(path: Path) -> str:
    from .client import _sha256

    return _sha256(path)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# ---- the command line ------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="witness-trainer",
        description="The trainer agent: claims Witness training runs, runs your command on each, streams logs and metrics back, "
        "registers the checkpoint and imports its eval trajectories.",
        epilog="Placeholders: --command and --cancel-command: {dataset} {base} {base_uri} {out} {run_id}; --eval-command also "
        "{checkpoint} {checkpoint_uri} {tasks} {eval_out}. Exit codes: 0 served, 1 error, 2 usage, 3 --once and no run came "
        "within --wait.",
    )
    parser.add_argument("--url", default=os.environ.get("WITNESS_URL"), help="the studio (default $WITNESS_URL)")
    parser.add_argument("--token", default=os.environ.get("WITNESS_TOKEN"), help="an API token of scope training (default $WITNESS_TOKEN)")
    parser.add_argument("--command", required=True, help="the training command, e.g. 'python train_dpo.py --data {dataset} --out {out}'")
    parser.add_argument("--eval-command", help="run after a successful training; the trajectory files it leaves in {eval_out} are imported")
    parser.add_argument("--cancel-command", help="run after the command was stopped (cancel, lease lost), e.g. 'scancel --name witness-{run_id}'")
    parser.add_argument("--once", action="store_true", help="serve one run and exit (3 when none came within --wait)")
    parser.add_argument("--wait", type=float, default=30.0, metavar="SECONDS", help="with --once: how long to wait for a run (default 30)")
    parser.add_argument("--labels", action="append", default=[], metavar="K=V", help="this agent's labels (repeatable, or k=v,k2=v2)")
    parser.add_argument("--work-dir", type=Path, default=Path("witness-runs"), help="where {out} = <work-dir>/<run id> goes (default ./witness-runs)")
    parser.add_argument("--name", help="the agent's name shown on the run (default <hostname>-<pid>)")
    parser.add_argument("--lease", type=int, default=60, metavar="SECONDS", help="the lease asked for, 10..600 (default 60); heartbeat every third of it")
    parser.add_argument("--max-runs", type=int, metavar="N", help="exit after serving N runs")
    return parser


def parse_options(argv: Sequence[str] | None = None) -> Options:
    parser = _parser()
    args = parser.parse_args(argv)
    if not args.url:
        parser.error("--url is required (or set WITNESS_URL)")
    if not args.token:
        parser.error("--token is required (or set WITNESS_TOKEN): an API token of scope training")
    if not 10 <= args.lease <= 600:
        parser.error(f"--lease {args.lease}: between 10 and 600 seconds")
    if args.wait < 0:
        parser.error(f"--wait {args.wait:g}: not negative")
    if args.max_runs is not None and args.max_runs < 1:
        parser.error(f"--max-runs {args.max_runs}: at least 1")
    try:
        labels = parse_labels(args.labels)
    except ValueError as error:
        parser.error(str(error))
    for flag, template, allowed in (
        ("--command", args.command, TRAIN_PLACEHOLDERS),
        ("--cancel-command", args.cancel_command, TRAIN_PLACEHOLDERS),
        ("--eval-command", args.eval_command, EVAL_PLACEHOLDERS),
    ):
        if template is None:
            continue
        try:
            fill_command(template, {})
        except ValueError as error:
            parser.error(f"{flag}: {error}")
        wrong = sorted(placeholders_in(template) - set(allowed))
        if wrong:
            parser.error(f"{flag} uses {', '.join('{' + w + '}' for w in wrong)}, which only --eval-command has")
    return Options(
        url=args.url,
        token=args.token,
        command=args.command,
        eval_command=args.eval_command,
        cancel_command=args.cancel_command,
        once=args.once,
        wait=args.wait,
        labels=labels,
        work_dir=args.work_dir,
        name=args.name or f"{socket.gethostname()}-{os.getpid()}",
        lease=args.lease,
        max_runs=args.max_runs,
    )


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_options(argv)
    agent = Agent(options)

    def interrupt(signum: int, _frame: Any) -> None:
        agent.interrupted.set()
        raise Interrupted(signal.Signals(signum).name)

    previous = {s: signal.signal(s, interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        return agent.serve()
    except Interrupted as stop:
        agent.log(f"{stop}: exiting")
        return EXIT_INTERRUPTED
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        agent.client.close()


if __name__ == "__main__":
    sys.exit(main())
