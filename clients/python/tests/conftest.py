"""The studio the tests run against: WITNESS_URL and WITNESS_TOKEN (a token of the demo admin), as
`npm run test:trainers` (scripts/trainers/run.ts) starts one. Without them the studio tests are skipped,
unless WITNESS_REQUIRE_STUDIO=1 (run.ts sets it), where they fail."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from witness import Witness

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def studio_url() -> str:
    url = os.environ.get("WITNESS_URL")
    if not url or not os.environ.get("WITNESS_TOKEN"):
        if os.environ.get("WITNESS_REQUIRE_STUDIO") == "1":
            pytest.fail("WITNESS_URL and WITNESS_TOKEN are not set: no studio to test against")
        pytest.skip("no studio: set WITNESS_URL and WITNESS_TOKEN (npm run test:trainers does)")
    return url


@pytest.fixture(scope="session")
def w(studio_url: str):
    with Witness(studio_url, os.environ["WITNESS_TOKEN"]) as client:
        yield client


@pytest.fixture(scope="session")
def fixtures() -> Path:
    return REPO / "lib" / "formats" / "fixtures"
