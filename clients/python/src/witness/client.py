"""``Witness(url, token)``: the studio's public API (``/api/v1``) from Python."""

from __future__ import annotations

import dataclasses
import email.utils
import functools
import hashlib
import json
import os
import random
import tempfile
import time
import uuid
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

import httpx

from .errors import WitnessError
from .models import (
    AgreementRow,
    Campaign,
    EstimateRow,
    Export,
    ImportedTrajectory,
    ImportFailure,
    ImportReport,
    Project,
    Review,
    Rows,
    Trajectory,
)

__all__ = ["Witness", "DEFAULT_IMPORT_MAX_MB"]

# the files `witness import` leaves out of a directory it walks (lib/ingest/collect-inputs.ts), besides hidden ones
_SKIP_FILES = {".DS_Store", "Thumbs.db"}
# hidden files it walks all the same: a tool's own history
_HIDDEN_HISTORIES = {".aider.chat.history.md"}
# the studio's largest zip of runs by default (WITNESS_IMPORT_MAX_MB, lib/env.ts); it expands to at most four times that
DEFAULT_IMPORT_MAX_MB = 256
_EXPANDED_FACTOR = 4
# answers that mean "not now": retried when the request may be sent again (a GET, or a POST carrying its idempotency key)
_RETRY_STATUSES = {502, 503, 504}


class Witness:
    """A client of one studio, authenticated by an API token (user menu, API tokens; or ``witness token create``).

    Every call raises :class:`WitnessError` on a refusal, with the server's ``code``, ``status``,
    ``field`` (where) and ``message`` (what). A 429 is waited out as its ``Retry-After`` says and
    sent again, as is a 502/503/504 or a dropped connection, up to ``max_retries`` times; a POST is
    sent again only under the same idempotency key it was first sent with.
    """

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        timeout: float = 60.0,
        max_retries: int = 5,
        max_retry_wait: float = 120.0,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        token = token if token is not None else os.environ.get("WITNESS_TOKEN")
        headers = {"User-Agent": "witness-python/0.1", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.url = url.rstrip("/")
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self._sleep = sleep
        self._http = httpx.Client(base_url=self.url, headers=headers, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Witness:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- lists --------------------------------------------------------------------------------

    def projects(self, *, role: str | None = None) -> Rows[Project]:
        """The projects the token reaches (``role="lead"``: only those its user leads)."""
        body = self._json("GET", "/api/v1/projects", params=_params(role=role))
        return Rows(Project.from_json(p) for p in body["projects"])

    def campaigns(self, *, project: str | None = None) -> Rows[Campaign]:
        """Campaigns (newest first) with their progress, of the projects the token's user leads; ``project``: that one's."""
        body = self._json("GET", "/api/v1/campaigns", params=_params(project=project))
        return Rows(Campaign.from_json(c) for c in body["campaigns"])

    def campaign(self, campaign_id: str) -> dict[str, Any]:
        """One campaign's settings, rubric and progress per reviewer, as the studio answers it."""
        return self._json("GET", f"/api/v1/campaigns/{_segment(campaign_id)}")["campaign"]

    def trajectories(self, *, project: str | None = None, page_size: int = 100) -> Iterator[Trajectory]:
        """Every trajectory of a project (or of every project the token leads), page after page as you iterate."""
        for item in self._pages("/api/v1/trajectories", "trajectories", _params(project=project, limit=page_size)):
            yield Trajectory.from_json(item)

    def iter_reviews(self, campaign_id: str, *, page_size: int = 100) -> Iterator[Review]:
        """A campaign's current reviews, newest first, page after page as you iterate (leads: everyone's; reviewers: their own)."""
        for item in self._pages("/api/v1/reviews", "reviews", _params(campaignId=campaign_id, limit=page_size)):
            yield Review.from_json(item)

    def reviews(self, campaign_id: str, *, page_size: int = 100) -> Rows[Review]:
        """All of a campaign's current reviews as rows (``.to_pandas()``)."""
        return Rows(self.iter_reviews(campaign_id, page_size=page_size))

    def agreement(
        self, campaign_id: str, *, include_agents: bool = False, timeout: float = 120.0, poll_interval: float = 0.5
    ) -> Rows[AgreementRow]:
        """Krippendorff's alpha of a campaign, one row per rubric criterion (coefficient, 95% interval, items, reviewers).

        The studio computes the figures in the background: while it answers ``computing`` this polls
        (up to ``timeout`` seconds). ``rows.meta`` has the rest (``state``: current or stale, ``computedAt``, ``campaign``).
        ``include_agents``: agent reviewers count as raters too.
        """
        params = _params(includeAgents="1" if include_agents else None)
        deadline = time.monotonic() + timeout
        while True:
            body = self._json("GET", f"/api/v1/campaigns/{_segment(campaign_id)}/agreement", params=params)
            if body.get("state") != "computing":
                break
            if time.monotonic() >= deadline:
                raise WitnessError(
                    f"the agreement of campaign {campaign_id} was still being computed after {timeout:.0f} s: is a worker running?",
                    code="TIMEOUT",
                    status=0,
                )
            self._sleep(poll_interval)
        meta = {k: v for k, v in body.items() if k != "criteria"}
        return Rows((AgreementRow.from_json(r) for r in body["criteria"]), meta)

    def estimates(self, campaign_id: str) -> Rows[EstimateRow]:
        """The campaign's figures (pass rate, reward hacking, answer leakage), human-only and prediction-powered with
        95% intervals: the ``overall`` rows (the campaign's items), then one per policy (``scope="policy"``).
        ``rows.meta["note"]`` says why there are none (a pairwise campaign, nothing reviewed yet)."""
        body = self._json("GET", f"/api/v1/campaigns/{_segment(campaign_id)}/estimates")
        rows = [dataclasses.replace(EstimateRow.from_json(r), scope="overall") for r in body["overall"]]
        rows += [dataclasses.replace(EstimateRow.from_json(r), scope="policy") for r in body["byPolicy"]]
        return Rows(rows, {k: v for k, v in body.items() if k not in ("overall", "byPolicy")})

    # ---- import -------------------------------------------------------------------------------

    def import_trajectories(
        self,
        *paths: str | os.PathLike[str],
        project: str = "default",
        format: str = "auto",
        environment: str | None = None,
        policy: str | None = None,
        split: str | None = None,
        concurrency: int = 4,
        max_zip_mb: float = DEFAULT_IMPORT_MAX_MB,
    ) -> ImportReport:
        """Imports trajectory files and directories, a directory collected as ``witness import DIR`` collects it.

        A directory is zipped (to a temporary file, its paths relative to it kept, hidden files
        and ``.DS_Store``/``Thumbs.db`` left out, ``.aider.chat.history.md`` kept) and sent as ``application/zip``: the studio expands
        it and collects it as ``witness import`` does, so a folder one importer reads as a unit
        (a Harbor trial or job, a tau2 run, a Cline task folder, an OpenHands session) stays one
        trajectory. A directory whose zip would pass ``max_zip_mb`` (the studio's
        ``WITNESS_IMPORT_MAX_MB``, 256 by default; a smaller limit the studio answers with is
        followed) is sent as several zips, split along its top-level subfolders and files, never
        one subfolder across two zips: a subfolder that alone is over the limit raises
        :class:`WitnessError` (``TOO_LARGE``, ``field`` its path) before anything is sent (every
        zip is written first; only a limit the studio names smaller than ``max_zip_mb`` is found
        while sending, after other zips may have been imported). (A directory whose root holds ``header.json`` or ``samples/*_epoch_N.json``
        reads as one Inspect ``.eval`` log, as a zip of it would.)

        A file given as a path is one request, its bytes the document (its format detected from
        content unless ``format`` names one). Requests go ``concurrency`` at a time and their reports
        are added up, each error's ``path`` naming its file on this machine. A body the studio
        refuses whole (every item failed, a file too large) is counted as failed and the rest go
        on; a refusal of the request itself (no such project, not a lead) raises.
        """
        if max_zip_mb <= 0:
            raise WitnessError(f"max_zip_mb must be positive, not {max_zip_mb}", code="BAD_INPUT", status=0, field="max_zip_mb")
        params = _params(project=project, format=format, environment=environment, policy=policy, split=split)
        limit = int(max_zip_mb * 1024 * 1024)
        with tempfile.TemporaryDirectory(prefix="witness-import-") as scratch:
            # every zip written before the first is sent: a subfolder over the limit raises with nothing imported
            jobs: list[Callable[[], ImportReport]] = []
            for given in paths:
                path = Path(given)
                if path.is_dir():
                    units = _units(path)
                    for group, zip_path in self._zips(path, units, limit, Path(scratch)) if units else []:
                        jobs.append(functools.partial(self._send_zip, path, group, zip_path, limit, params, Path(scratch)))
                elif path.is_file():
                    jobs.append(functools.partial(self._import_body, path.read_bytes, "application/octet-stream", params, str(path)))
                else:
                    raise WitnessError(f"no such file or directory: {path}", code="BAD_INPUT", status=0, field=str(path))
            if not jobs:
                raise WitnessError("no files to import", code="BAD_INPUT", status=0, field="paths")
            with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
                reports = list(pool.map(lambda job: job(), jobs))
        return _add_reports(reports)

    def _zips(self, root: Path, units: list[_Unit], limit: int, scratch: Path) -> list[tuple[list[_Unit], Path]]:
        """``units`` (top-level entries of ``root``) written into zips of at most ``limit`` bytes each, in temporary files.

        Packed by their sizes before compression first (at most what the studio expands, 4 × ``limit``); a zip
        that comes out over ``limit`` is packed again at the compression it showed (halved when that changes
        nothing); a single unit whose zip is over the limit raises."""
        made: list[tuple[list[_Unit], Path]] = []
        for group in _plan(root, units, limit):
            handle, name = tempfile.mkstemp(suffix=".zip", dir=scratch)
            os.close(handle)
            zip_path = Path(name)
            _write_zip(root, group, zip_path)
            size = zip_path.stat().st_size
            if size <= limit:
                made.append((group, zip_path))
                continue
            zip_path.unlink()
            if len(group) == 1:
                raise _alone_over(root, group[0], size, limit, None)
            made += self._zips_smaller(root, group, limit, scratch, budget=int(limit * sum(u.size for u in group) / size * 0.9))
        return made

    def _zips_smaller(self, root: Path, group: list[_Unit], limit: int, scratch: Path, budget: int) -> list[tuple[list[_Unit], Path]]:
        groups = _pack(group, max(1, budget))
        if len(groups) == 1:
            half = len(group) // 2
            groups = [group[:half], group[half:]]
        return [made for g in groups for made in self._zips(root, g, limit, scratch)]

    def _send_zip(
        self, root: Path, group: list[_Unit], zip_path: Path, limit: int, params: dict[str, Any], scratch: Path
    ) -> ImportReport:
        """One zip of runs sent; one the studio refuses as too large (its limit is smaller than ``max_zip_mb``) is zipped
        again in smaller parts, and those sent."""
        try:
            return self._import_body(zip_path, "application/zip", params, _group_label(root, group), lambda inner: _local_path(root, inner))
        except _TooLarge as refused:
            size = zip_path.stat().st_size
            studio_limit = refused.limit_bytes if refused.limit_bytes and refused.limit_bytes < size else None
            if len(group) == 1:
                raise _alone_over(root, group[0], size, studio_limit or limit, refused.message) from None
            smaller = studio_limit or limit
            budget = int(smaller * sum(u.size for u in group) / size * 0.9) if studio_limit else sum(u.size for u in group) // 2
            parts = self._zips_smaller(root, group, smaller, scratch, budget)
            return _add_reports([self._send_zip(root, g, z, smaller, params, scratch) for g, z in parts])
        finally:
            zip_path.unlink(missing_ok=True)

    def import_documents(
        self,
        documents: Iterable[Mapping[str, Any] | list[Any]],
        *,
        project: str = "default",
        format: str = "auto",
        environment: str | None = None,
        policy: str | None = None,
        split: str | None = None,
        batch_size: int = 100,
    ) -> ImportReport:
        """Imports in-memory documents (e.g. OpenAI message lists) as NDJSON batches, one document a line."""
        params = _params(project=project, format=format, environment=environment, policy=policy, split=split)
        reports: list[ImportReport] = []
        batch: list[str] = []
        first = 0

        def send() -> None:
            body = ("\n".join(batch) + "\n").encode()
            report = self._import_body(body, "application/x-ndjson", params, f"documents {first + 1}-{first + len(batch)}")
            reports.append(report)

        for i, document in enumerate(documents):
            batch.append(json.dumps(document, ensure_ascii=False, separators=(",", ":")))
            if len(batch) >= batch_size:
                send()
                first, batch = i + 1, []
        if batch:
            send()
        return _add_reports(reports)

    def _import_body(
        self,
        body: bytes | Path | Callable[[], bytes],
        content_type: str,
        params: dict[str, Any],
        label: str,
        local: Callable[[str], str] | None = None,
    ) -> ImportReport:
        """Sends one import body (bytes, read when sent, or a file streamed from disk) under one idempotency key, kept
        for every retry.
        ``local`` turns the path of an error as the studio names it into one on this machine (default: ``label (path)``)."""
        response = self._request(
            "POST",
            "/api/v1/trajectories",
            params=params,
            content=body if isinstance(body, (bytes, Path)) else body(),
            headers={"Content-Type": content_type},
            idempotency_key=str(uuid.uuid4()),
        )
        data = _json_or_none(response)
        if response.status_code == 200 or (response.status_code == 422 and isinstance(data, dict) and "failed" in data):
            return _relabel(ImportReport.from_json(data), local or (lambda inner: _join_where(label, inner)))
        error = WitnessError.from_response(response)
        if error.status == 413 and content_type == "application/zip":
            details = error.details if isinstance(error.details, dict) else {}
            limit = details.get("limitBytes")
            raise _TooLarge(error.message, int(limit) if isinstance(limit, (int, float)) else None)
        # this body refused whole (over the size limit, empty, unreadable): counted as failed, the other files go on;
        # a refused query parameter (its field named) or any other refusal concerns every file: raised
        if error.status == 413 or (error.status == 422 and error.field not in params):
            where = f"{label} ({error.field})" if error.field else label
            return ImportReport.from_json({"failed": 1, "errors": [{"path": label, "where": where, "message": error.message}]})
        raise error

    # ---- exports ------------------------------------------------------------------------------

    def start_export(
        self,
        format: str,
        *,
        project: str | None = None,
        split: str = "train",
        campaign: str | None = None,
        min_agreement: float | None = None,
        min_reviews: int | None = None,
        score_gap: float | None = None,
        **options: Any,
    ) -> Export:
        """Requests a dataset export (queued for a worker; an identical request still queued joins it)."""
        body = {
            k: v
            for k, v in {
                "format": format,
                "project": project,
                "split": split,
                "campaign": campaign,
                "minAgreement": min_agreement,
                "minReviews": min_reviews,
                "scoreGap": score_gap,
                **options,
            }.items()
            if v is not None
        }
        data = self._json("POST", "/api/v1/exports", json=body, idempotency_key=str(uuid.uuid4()))
        return Export.from_json(data["export"])

    def get_export(self, export_id: str) -> Export:
        return Export.from_json(self._json("GET", f"/api/v1/exports/{_segment(export_id)}")["export"])

    def wait_export(self, export_id: str, *, timeout: float = 600.0, poll_interval: float = 0.5) -> Export:
        """Polls the export until it is done; raises WitnessError when it failed or did not finish within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get_export(export_id)
            if job.status == "done":
                return job
            if job.status == "failed":
                raise WitnessError(job.error or "the export failed", code="EXPORT_FAILED", status=200, field="export")
            if time.monotonic() >= deadline:
                raise WitnessError(
                    f"export {export_id} is still {job.status} ({job.progress:.0%}) after {timeout:.0f} s: is a worker running?",
                    code="TIMEOUT",
                    status=0,
                )
            self._sleep(poll_interval)

    def download_export(self, export: Export | str, path: str | os.PathLike[str] | None = None) -> Path:
        """Downloads a finished export's JSONL (to ``path``, else the cache folder, named by its sha256); returns its path.

        The file is content-addressed: one already there with the same sha256 is not downloaded again.
        """
        job = export if isinstance(export, Export) else self.get_export(export)
        if path is None:
            cache = Path(os.environ.get("WITNESS_CACHE") or Path.home() / ".cache" / "witness") / "exports"
            split = "-EVAL" if job.purpose == "evaluation" else ""
            path = cache / f"witness-{job.format}{split}-{(job.sha256 or job.id)[:12]}.jsonl"
        target = Path(path)
        if job.sha256 and target.exists() and _sha256(target) == job.sha256:
            return target
        url = f"/api/v1/exports/{_segment(job.id)}/file"
        self.download(url, target, sha256=job.sha256, what=f"export {job.id}")
        return target

    def download(self, url: str, target: str | os.PathLike[str], *, sha256: str | None = None, what: str | None = None) -> str:
        """GETs ``url`` (a path of the studio's API) streamed to ``target`` and returns the bytes' sha256 (hex).

        Written to ``<target>.part`` and hashed on the way, then moved into place; a 429/502/503/504 or a dropped
        connection is tried again from the start (``max_retries`` times). When ``sha256`` is given and the bytes do not
        match, nothing is left behind and ``WitnessError`` ``CORRUPT`` is raised (``details``: ``expected``, ``got``).
        A refusal (404, 410, …) raises the studio's error."""
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        attempt = 0
        while True:
            # streamed to disk (a dataset may be large), hashed on the way; a 429/5xx or a dropped connection is tried again
            try:
                with self._http.stream("GET", url) as response:
                    if response.status_code == 200:
                        digest = hashlib.sha256()
                        with partial.open("wb") as out:
                            for chunk in response.iter_bytes(1 << 20):
                                digest.update(chunk)
                                out.write(chunk)
                        break
                    response.read()
                    wait = _retry_after(response.headers.get("Retry-After"))
                    if response.status_code not in (429, *_RETRY_STATUSES) or attempt >= self.max_retries:
                        raise WitnessError.from_response(response)
            except httpx.TransportError as error:
                partial.unlink(missing_ok=True)
                if attempt >= self.max_retries:
                    raise WitnessError(f"could not download {url}: {error}", code="UNAVAILABLE", status=0, method="GET", url=url) from error
                wait = None
            self._sleep(_backoff(attempt) if wait is None else min(wait, self.max_retry_wait))
            attempt += 1
        got = digest.hexdigest()
        if sha256 and got != sha256:
            partial.unlink(missing_ok=True)
            raise WitnessError(
                f"the downloaded file{f' of {what}' if what else ''} does not match its sha256: expected {sha256}, got {got}",
                code="CORRUPT",
                status=200,
                details={"expected": sha256, "got": got},
                method="GET",
                url=url,
            )
        partial.replace(target)
        return got

    def export(
        self,
        format: str,
        *,
        project: str | None = None,
        split: str = "train",
        campaign: str | None = None,
        min_agreement: float | None = None,
        min_reviews: int | None = None,
        score_gap: float | None = None,
        path: str | os.PathLike[str] | None = None,
        as_dataset: bool | None = None,
        timeout: float = 600.0,
        **options: Any,
    ) -> Any:
        """A dataset in a trainer format (``trl-dpo``, ``trl-kto``, ``trl-reward``, ``trl-sft``, ``trl-prm``, ``openrlhf``, ``slime``).

        Requests the export, waits for it and downloads the JSONL. Returns a ``datasets.Dataset``
        (``load_dataset("json", data_files=path, split="train")``) when ``datasets`` is installed
        (``as_dataset=False``: the path anyway; ``True``: fail without it), else the file's path.
        """
        job = self.start_export(
            format,
            project=project,
            split=split,
            campaign=campaign,
            min_agreement=min_agreement,
            min_reviews=min_reviews,
            score_gap=score_gap,
            **options,
        )
        job = self.wait_export(job.id, timeout=timeout)
        file = self.download_export(job, path)
        if as_dataset is False:
            return file
        try:
            import datasets  # type: ignore[import-untyped]
        except ImportError:
            if as_dataset:
                raise
            return file
        if not job.rows:
            return datasets.Dataset.from_list([])
        return datasets.load_dataset("json", data_files=str(file), split="train")

    # ---- the HTTP core ----------------------------------------------------------------------------

    def _json(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self._request(method, path, **kwargs)
        if response.status_code >= 400:
            raise WitnessError.from_response(response)
        return response.json()

    def _pages(self, path: str, key: str, params: dict[str, Any]) -> Iterator[Any]:
        cursor: str | None = None
        while True:
            body = self._json("GET", path, params={**params, **({"cursor": cursor} if cursor else {})})
            yield from body[key]
            cursor = body.get("nextCursor")
            if not cursor:
                return

    def _request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, Any] | None = None,
        json: Any = None,
        content: bytes | Path | None = None,
        headers: Mapping[str, str] | None = None,
        idempotency_key: str | None = None,
    ) -> httpx.Response:
        """Sends the request, again after a 429 (its Retry-After), a 502/503/504 or a dropped connection, each time
        with the same idempotency key; a POST without one is sent again only after a 429 (nothing was done)."""
        all_headers = dict(headers or {})
        if isinstance(content, Path):
            # streamed from disk, read afresh on every try (a zip of runs may be hundreds of MiB)
            all_headers["Content-Length"] = str(content.stat().st_size)
        if idempotency_key:
            all_headers["Idempotency-Key"] = idempotency_key
        safe = method in ("GET", "HEAD") or idempotency_key is not None
        attempt = 0
        while True:
            try:
                body = _read_chunks(content) if isinstance(content, Path) else content
                response = self._http.request(method, path, params=params, json=json, content=body, headers=all_headers)
            except httpx.TransportError as error:
                if not safe or attempt >= self.max_retries:
                    raise WitnessError(
                        f"could not reach the studio at {self.url}: {error}", code="UNAVAILABLE", status=0, method=method, url=path
                    ) from error
                self._sleep(_backoff(attempt))
                attempt += 1
                continue
            retryable = response.status_code == 429 or (safe and response.status_code in _RETRY_STATUSES)
            if not retryable or attempt >= self.max_retries:
                return response
            wait = _retry_after(response.headers.get("Retry-After"))
            wait = _backoff(attempt) if wait is None else wait
            if wait > self.max_retry_wait:
                return response
            response.close()
            self._sleep(wait)
            attempt += 1


def _params(**values: Any) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


def _segment(value: str) -> str:
    from urllib.parse import quote

    return quote(str(value), safe="")


@dataclasses.dataclass(frozen=True)
class _Unit:
    """A top-level entry of a directory being imported (a subfolder, or a file): never split across two zips."""

    path: Path
    files: tuple[Path, ...]
    size: int


class _TooLarge(Exception):
    """A zip the studio refused as too large (413), with its limit when it said one."""

    def __init__(self, message: str, limit_bytes: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.limit_bytes = limit_bytes


def _visible(entry: Path) -> bool:
    if entry.name in _SKIP_FILES:
        return False
    return not entry.name.startswith(".") or entry.name in _HIDDEN_HISTORIES


def _walk(path: Path) -> Iterator[Path]:
    """The files of a directory in name order, hidden ones and .DS_Store/Thumbs.db left out (as `witness import`)."""
    for entry in sorted(path.iterdir(), key=lambda p: p.name):
        if not _visible(entry):
            continue
        if entry.is_dir():
            yield from _walk(entry)
        elif entry.is_file():
            yield entry


def _units(root: Path) -> list[_Unit]:
    """The directory's top-level subfolders and files, each with the files a zip of it holds (empty folders left out)."""
    units = []
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if not _visible(entry):
            continue
        files = tuple(_walk(entry)) if entry.is_dir() else (entry,) if entry.is_file() else ()
        if files:
            units.append(_Unit(entry, files, sum(f.stat().st_size for f in files)))
    return units


def _plan(root: Path, units: list[_Unit], limit: int) -> list[list[_Unit]]:
    """Units packed in order into groups of at most ``limit`` × 4 bytes before compression (what the studio expands at
    most); a group whose zip comes out over ``limit`` is split again when written. A unit over that alone raises."""
    expanded = limit * _EXPANDED_FACTOR
    for unit in units:
        if unit.size > expanded:
            raise _alone_over(root, unit, unit.size, limit, None, expanded=True)
    return _pack(units, expanded)


def _pack(units: list[_Unit], budget: int) -> list[list[_Unit]]:
    """Units in order into groups of at most ``budget`` bytes in all (a unit over it alone in its group)."""
    groups: list[list[_Unit]] = []
    current: list[_Unit] = []
    total = 0
    for unit in units:
        if current and total + unit.size > budget:
            groups.append(current)
            current, total = [], 0
        current.append(unit)
        total += unit.size
    if current:
        groups.append(current)
    return groups


def _alone_over(root: Path, unit: _Unit, size: int, limit: int, said: str | None, *, expanded: bool = False) -> WitnessError:
    kind = "folder" if unit.path.is_dir() else "file"
    what = (
        f"holds {_mib(size)}, over the {_mib(limit * _EXPANDED_FACTOR)} a zip of runs may expand to"
        if expanded
        else f"zips to {_mib(size)}, over the studio's import limit of {_mib(limit)}"
    )
    hint = "import its subfolders one by one (or raise WITNESS_IMPORT_MAX_MB on the studio)" if kind == "folder" else "raise WITNESS_IMPORT_MAX_MB on the studio"
    studio = f" (the studio said: {said})" if said else ""
    return WitnessError(
        f"the {kind} {unit.path} alone {what} (WITNESS_IMPORT_MAX_MB; max_zip_mb): it is not split across zips, "
        f"as one importer may read it as a unit: {hint}{studio}",
        code="TOO_LARGE",
        status=413 if said else 0,
        field=str(unit.path),
    )


def _write_zip(root: Path, group: list[_Unit], target: Path) -> None:
    """The group's files into ``target``, named by their paths relative to ``root`` (``/``-separated), streamed from disk."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for unit in group:
            for file in unit.files:
                try:
                    archive.write(file, file.relative_to(root).as_posix())
                except OSError as error:
                    raise WitnessError(f"could not read {file}: {error}", code="BAD_INPUT", status=0, field=str(file)) from error


def _group_label(root: Path, group: list[_Unit]) -> str:
    names = ", ".join(u.path.name for u in group[:3]) + (f" and {len(group) - 3} more" if len(group) > 3 else "")
    return f"{root} (a zip of {names})"


def _local_path(root: Path, inner: str) -> str:
    """A path inside the zip (as the studio names it) as the path on this machine; ``.`` is the directory itself."""
    if inner in ("", "body"):
        return str(root)
    return str(root) if inner == "." else str(root / Path(*inner.split("/")))


def _relabel(report: ImportReport, local: Callable[[str], str]) -> ImportReport:
    errors = []
    for e in report.errors:
        path = local(e.path)
        where = path if e.where == e.path else e.where
        errors.append({**e.raw, "path": path, "where": where})
    return ImportReport.from_json({**report.raw, "errors": errors})


def _read_chunks(path: Path, size: int = 1 << 20) -> Iterator[bytes]:
    with path.open("rb") as f:
        yield from iter(lambda: f.read(size), b"")


def _mib(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MiB"


def _add_reports(reports: list[ImportReport]) -> ImportReport:
    trajectories: list[ImportedTrajectory] = [t for r in reports for t in r.trajectories]
    errors: list[ImportFailure] = [e for r in reports for e in r.errors]
    return ImportReport.from_json(
        {
            "imported": sum(r.imported for r in reports),
            "skipped": sum(r.skipped for r in reports),
            "failed": sum(r.failed for r in reports),
            "unchangedFiles": sum(r.unchanged_files or 0 for r in reports),
            "trajectories": [t.raw for t in trajectories],
            "errors": [e.raw for e in errors],
        }
    )


def _join_where(label: str, inner: str) -> str:
    return label if inner in ("", "body") else f"{label} ({inner})"


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds: a number, or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _backoff(attempt: int) -> float:
    return min(30.0, 0.5 * 2**attempt) * (0.5 + random.random() / 2)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
