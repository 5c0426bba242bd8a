"""Typed views of the studio's JSON answers.

Each model is a frozen dataclass whose fields are the JSON keys it reads (snake_case here, the
server's camelCase on the wire; ``json_key`` overrides), with the Python type of the JSON value:
``str`` string, ``int`` integer, ``float`` number, ``bool`` boolean, ``list`` array, ``dict``
object, ``Any`` anything, ``X | None`` a value that may be null or absent. The whole answer
object is kept in ``raw``. ``ROUTES`` below names the route and the place in its answer each
model parses: tests/test_openapi_models.py checks every field, name and JSON type, against the
studio's own ``GET /api/v1/openapi.json``, so a server change that would break the client fails CI.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Generic, Iterable, TypeVar

T = TypeVar("T", bound="Model")


def json_key(name: str) -> Any:
    """A field read from the JSON key ``name`` (when it is not the field's name in camelCase)."""
    return field(default=None, metadata={"json": name})


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


@dataclass(frozen=True)
class Model:
    """Base of the answer models: ``from_json`` reads the keys its fields name and keeps the object in ``raw``."""

    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, metadata={"client_only": True})

    @classmethod
    def from_json(cls: type[T], data: dict[str, Any]) -> T:
        values: dict[str, Any] = {}
        hints = model_hints(cls)
        for f in model_fields(cls):
            value = data.get(wire_name(f))
            values[f.name] = _convert(hints[f.name], value)
        return cls(raw=data, **values)

    def to_dict(self) -> dict[str, Any]:
        """The fields as one flat row (snake_case keys; a nested model's as ``<field>_<its field>``, None when absent):
        one row of ``Rows.to_pandas()``."""
        out: dict[str, Any] = {}
        hints = model_hints(type(self))
        for f in dataclasses.fields(self):
            if f.name == "raw":
                continue
            name = f.name.rstrip("_")  # lambda_ is the column "lambda"
            value = getattr(self, f.name)
            nested = _model_in(hints[f.name])
            if nested is not None:
                inner = value.to_dict() if isinstance(value, Model) else {k: None for k in nested().to_dict()}
                out.update({f"{name}_{k}": v for k, v in inner.items()})
                continue
            if isinstance(value, list):
                value = [v.to_dict() if isinstance(v, Model) else v for v in value]
            out[name] = value
        return out


def model_fields(cls: type[Model]) -> list[dataclasses.Field[Any]]:
    """The fields read from JSON (``raw`` and other client-only fields left out)."""
    return [f for f in dataclasses.fields(cls) if not f.metadata.get("client_only")]


def wire_name(f: dataclasses.Field[Any]) -> str:
    return f.metadata.get("json") or camel(f.name)


def model_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, globalns=vars(sys.modules[cls.__module__]))


def _model_in(hint: Any) -> type[Model] | None:
    """The model a field holds (``M`` or ``M | None``), else None."""
    for candidate in (hint, *typing.get_args(hint)):
        if isinstance(candidate, type) and issubclass(candidate, Model):
            return candidate
    return None


def _convert(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return _convert(inner[0], value) if len(inner) == 1 else value
    if isinstance(hint, type) and issubclass(hint, Model) and isinstance(value, dict):
        return hint.from_json(value)
    if origin is list and isinstance(value, list):
        (item,) = typing.get_args(hint) or (Any,)
        return [_convert(item, v) for v in value]
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


class Rows(list, Generic[T]):  # type: ignore[type-arg]
    """A list of models; ``to_pandas()`` makes a DataFrame of their fields (one flat row each) when pandas is installed.
    ``meta`` keeps the rest of the answer the rows came from (e.g. the agreement's ``state`` and ``computedAt``)."""

    def __init__(self, items: Iterable[T] = (), meta: dict[str, Any] | None = None) -> None:
        super().__init__(items)
        self.meta: dict[str, Any] = meta or {}

    def to_pandas(self) -> Any:
        try:
            import pandas  # type: ignore[import-untyped]
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("to_pandas() needs pandas: pip install pandas (or the rows as dicts: [r.to_dict() for r in rows])") from error
        return pandas.DataFrame([row.to_dict() for row in self])


# ---- projects, campaigns, trajectories -------------------------------------------------------


@dataclass(frozen=True)
class ProjectCounts(Model):
    environments: int | None = None
    tasks: int | None = None
    trajectories: int | None = None
    campaigns: int | None = None
    members: int | None = None


@dataclass(frozen=True)
class Project(Model):
    """A project the caller reaches (GET /api/v1/projects)."""

    id: str = ""
    slug: str = ""
    name: str = ""
    description: str | None = None
    created_at: str | None = None
    counts: ProjectCounts | None = None
    role: str | None = None


@dataclass(frozen=True)
class ProjectRef(Model):
    slug: str = ""
    name: str = ""


@dataclass(frozen=True)
class RubricRef(Model):
    name: str = ""
    version: int = 0


@dataclass(frozen=True)
class Campaign(Model):
    """A campaign with its progress (GET /api/v1/campaigns)."""

    id: str = ""
    name: str = ""
    mode: str = ""
    status: str = ""
    overlap: int = 0
    required_expertise: list[str] = field(default_factory=list)
    project: ProjectRef | None = None
    rubric: RubricRef | None = None
    items: int = 0
    population: int = 0
    reviews_done: int = 0
    reviews_target: int = 0
    items_complete: int = 0
    created_at: str = ""
    closed_at: str | None = None


@dataclass(frozen=True)
class JudgeSummary(Model):
    count: int = 0
    mean: float | None = None
    judges: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Trajectory(Model):
    """A trajectory as the list pages it (GET /api/v1/trajectories), newest first."""

    id: str = ""
    project_slug: str = ""
    task_name: str = ""
    environment: str | None = None
    policy: str = ""
    split: str = ""
    steps: int = 0
    verifier_reward: float | None = None
    judge: JudgeSummary | None = None
    reviews: int = 0
    format: str = ""
    created_at: str = ""


# ---- import --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportedTrajectory(Model):
    id: str = ""
    format: str = ""
    steps: int = 0
    task: str = ""
    policy: str | None = None
    created: bool = False


@dataclass(frozen=True)
class ImportFailure(Model):
    """One document that failed: where in it and what (``path`` is the file, or ``line N`` of an NDJSON body)."""

    path: str = ""
    where: str | None = None
    message: str = ""


@dataclass(frozen=True)
class ImportReport(Model):
    """The answer of POST /api/v1/trajectories; the client adds up one per request (a file, a zip of a directory, a batch)."""

    imported: int = 0
    skipped: int = 0
    failed: int = 0
    unchanged_files: int = 0
    trajectories: list[ImportedTrajectory] = field(default_factory=list)
    errors: list[ImportFailure] = field(default_factory=list)


# ---- reviews, agreement, estimates ---------------------------------------------------------------


@dataclass(frozen=True)
class Review(Model):
    """A current review of a campaign (GET /api/v1/reviews?campaignId=…)."""

    id: str = ""
    assignment_id: str = ""
    campaign_item_id: str = ""
    reviewer_id: str = ""
    rubric_version_id: str = ""
    revision: int = 0
    answers: Any = None
    evidence: Any = None
    coverage: Any = None
    duration_sec: float | None = None
    submitted_at: str = ""


@dataclass(frozen=True)
class AgreementInterval(Model):
    low: float = 0.0
    high: float = 0.0


@dataclass(frozen=True)
class AgreementRow(Model):
    """One rubric criterion's Krippendorff's alpha with its bootstrap 95% interval (GET /api/v1/campaigns/:id/agreement)."""

    key: str = ""
    label: str = ""
    kind: str = ""
    level: str = ""
    coefficient: float | None = None
    interval: AgreementInterval | None = None
    band: str = ""
    items: int = 0
    reviewers: int = 0
    ratings: int = 0


@dataclass(frozen=True)
class Interval(Model):
    estimate: float = 0.0
    low: float = 0.0
    high: float = 0.0


@dataclass(frozen=True)
class PpiInterval(Model):
    estimate: float = 0.0
    low: float = 0.0
    high: float = 0.0
    lambda_: float | None = json_key("lambda")


@dataclass(frozen=True)
class EstimateRow(Model):
    """One figure of a group, human-only and prediction-powered with 95% intervals (GET /api/v1/campaigns/:id/estimates).

    ``scope`` (the client's): ``overall`` (the campaign's items) or ``policy`` (one policy's)."""

    scope: str = field(default="", metadata={"client_only": True})
    group: str = ""
    figure: str = ""
    population: int = 0
    labeled: int = 0
    unlabeled: int = 0
    random_sample: bool = False
    design: str = ""
    human: Interval | None = None
    ppi: PpiInterval | None = None
    effective_labels: float | None = json_key("effective_labels")
    predictor: str = ""
    predictor_description: str = ""


# ---- exports -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Export(Model):
    """A dataset export and its progress (POST /api/v1/exports, GET /api/v1/exports/:id)."""

    id: str = ""
    format: str = ""
    status: str = ""
    progress: float = 0.0
    rows: int | None = None
    sha256: str | None = None
    error: str | None = None
    params: dict[str, Any] | None = None
    purpose: str = ""
    created_at: str = ""
    finished_at: str | None = None


# ---- which route each model parses: (method, path, place in the answer) -------------------------
# the place is a list of keys; "[]" steps into an array's items. tests/test_openapi_models.py reads this.

ROUTES: list[tuple[type[Model], str, str, list[str]]] = [
    (Project, "get", "/api/v1/projects", ["projects", "[]"]),
    (Campaign, "get", "/api/v1/campaigns", ["campaigns", "[]"]),
    (Trajectory, "get", "/api/v1/trajectories", ["trajectories", "[]"]),
    (ImportReport, "post", "/api/v1/trajectories", []),
    (Review, "get", "/api/v1/reviews", ["reviews", "[]"]),
    (Export, "post", "/api/v1/exports", ["export"]),
    (Export, "get", "/api/v1/exports/{id}", ["export"]),
    (AgreementRow, "get", "/api/v1/campaigns/{id}/agreement", ["criteria", "[]"]),
    (EstimateRow, "get", "/api/v1/campaigns/{id}/estimates", ["overall", "[]"]),
    (EstimateRow, "get", "/api/v1/campaigns/{id}/estimates", ["byPolicy", "[]"]),
]

# ---- what the client sends: (method, path, "query" | "body", the keys) -----------------------------
# tests/test_openapi_models.py checks each key is a parameter (or body property) the route takes.

REQUEST_INPUTS: list[tuple[str, str, str, set[str]]] = [
    ("get", "/api/v1/projects", "query", {"role"}),
    ("get", "/api/v1/campaigns", "query", {"project"}),
    ("get", "/api/v1/trajectories", "query", {"project", "cursor", "limit"}),
    ("post", "/api/v1/trajectories", "query", {"project", "format", "environment", "policy", "split"}),
    ("get", "/api/v1/reviews", "query", {"campaignId", "cursor", "limit"}),
    ("get", "/api/v1/campaigns/{id}/agreement", "query", {"includeAgents"}),
    ("post", "/api/v1/exports", "body", {"project", "format", "split", "campaign", "minAgreement", "minReviews", "scoreGap"}),
]
