"""Witness's Python client: ``Witness(url, token)`` over the studio's ``/api/v1``.

    from witness import Witness
    w = Witness("http://localhost:3000", "wit_…")
    ds = w.export("trl-dpo", project="demo", split="train")  # a datasets.Dataset when datasets is installed
"""

from .client import Witness
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

__all__ = [
    "AgreementRow",
    "Campaign",
    "EstimateRow",
    "Export",
    "ImportFailure",
    "ImportReport",
    "ImportedTrajectory",
    "Project",
    "Review",
    "Rows",
    "Trajectory",
    "Witness",
    "WitnessError",
]
