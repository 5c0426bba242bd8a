"""The client against a real studio (`witness start` with the demo seed; scripts/trainers/run.ts starts it)."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

import pytest

from witness import Campaign, Witness, WitnessError


def test_done_when_five_lines_pull_the_demo_dpo_export_into_a_dataset(studio_url):
    # the "done when": these five lines, as the README shows them
    import os
    from witness import Witness
    w = Witness(os.environ["WITNESS_URL"], os.environ["WITNESS_TOKEN"])
    ds = w.export("trl-dpo", project="demo", split="train")
    assert ds.num_rows > 0

    import datasets

    assert isinstance(ds, datasets.Dataset)
    assert {"prompt", "chosen", "rejected"} <= set(ds.column_names)
    assert ds[0]["chosen"][-1]["role"] == "assistant"


def test_export_without_datasets_returns_the_jsonl_path_content_addressed(w: Witness, tmp_path: Path):
    path = w.export("trl-sft", project="demo", split="train", as_dataset=False, path=tmp_path / "sft.jsonl")
    assert path == tmp_path / "sft.jsonl"
    lines = path.read_text().splitlines()
    assert lines and all(line.startswith('{"messages":') for line in lines)


def test_import_a_fixture_file_then_again_creates_nothing(w: Witness, fixtures: Path, tmp_path: Path):
    project = f"pyclient-{uuid.uuid4().hex[:8]}"
    # lib/formats/fixtures/openai/weather-conversation.json: one OpenAI chat conversation with tool calls
    file = fixtures / "openai" / "weather-conversation.json"
    first = w.import_trajectories(file, project=project)
    assert (first.imported, first.failed) == (1, 0), first.errors
    (t,) = first.trajectories
    assert t.format == "openai" and t.created and t.steps > 0
    again = w.import_trajectories(file, project=project)
    assert again.imported == 0 and again.skipped == 1 and not again.trajectories[0].created
    assert again.trajectories[0].id == t.id
    # the new project is the importer's, with the trajectory in it
    assert any(p.slug == project and p.counts.trajectories == 1 for p in w.projects())


def test_import_a_directory_walks_it_like_the_cli_and_reports_bad_files_with_where(w: Witness, fixtures: Path, tmp_path: Path):
    project = f"pyclient-{uuid.uuid4().hex[:8]}"
    runs = tmp_path / "runs"
    (runs / "nested").mkdir(parents=True)
    shutil.copy(fixtures / "openai" / "batch.jsonl", runs / "batch.jsonl")  # several conversations, one a line
    shutil.copy(fixtures / "anthropic" / "fix-test-conversation.json", runs / "nested" / "anthropic.json")
    (runs / ".hidden.json").write_text("{not json")  # left out, as `witness import` leaves hidden files
    (runs / "broken.json").write_text('{"messages": []}')  # no steps: refused with where and what
    report = w.import_trajectories(runs, project=project, concurrency=2)
    formats = {t.format for t in report.trajectories}
    assert formats == {"openai", "anthropic"}
    assert report.imported == len(report.trajectories) >= 3
    # broken.json, and the fixture's two bad lines (one truncated, one with a role that is a number)
    assert report.failed == 3 and len(report.errors) == 3 and all(e.message for e in report.errors)
    broken = [e for e in report.errors if e.path.startswith(str(runs / "broken.json"))]
    lines = [e for e in report.errors if e.path.startswith(str(runs / "batch.jsonl"))]
    assert len(broken) == 1 and len(lines) == 2, [e.raw for e in report.errors]
    assert not any(".hidden" in e.path for e in report.errors)


def test_import_a_directory_with_a_harbor_trial_folder_keeps_the_trial_whole(studio_url: str, fixtures: Path, tmp_path: Path):
    zips: list[int] = []

    def seen(request) -> None:
        if request.headers.get("Content-Type") == "application/zip":
            zips.append(int(request.headers["Content-Length"]))

    w = Witness(studio_url, os.environ["WITNESS_TOKEN"])
    w._http.event_hooks["request"] = [seen]
    project = f"pyclient-{uuid.uuid4().hex[:8]}"
    runs = tmp_path / "runs"
    # lib/formats/fixtures/harbor/trial-basic: a Harbor trial folder (config.json, result.json, agent/trajectory.json
    # with 4 ATIF steps, agent/recording.cast, verifier/): one trajectory, read whole by the harbor importer
    shutil.copytree(fixtures / "harbor" / "trial-basic", runs / "trial-basic")
    shutil.copy(fixtures / "openai" / "weather-conversation.json", runs / "weather.json")  # loose files beside it
    shutil.copy(fixtures / "openai" / "batch.jsonl", runs / "batch.jsonl")
    # 3.2 KiB: the folder zips to about 4.1 KiB, the trial alone to about 3 KiB: sent as several zips, the trial in one
    first = w.import_trajectories(runs, project=project, max_zip_mb=3.2 / 1024)
    assert len(zips) >= 2 and max(zips) <= 3.2 * 1024, zips
    harbor = [t for t in first.trajectories if t.format == "harbor"]
    assert len(harbor) == 1, [t.raw for t in first.trajectories]  # one trajectory, not one per file of the folder
    (trial,) = harbor
    assert trial.steps == 4 and trial.created and trial.task == "fix-permissions"
    assert {t.format for t in first.trajectories} == {"harbor", "openai"}
    assert not any(e.path.startswith(str(runs / "trial-basic")) for e in first.errors), [e.raw for e in first.errors]
    # the loose files still go: weather.json and batch.jsonl's good lines, its 2 bad lines named by their local path
    assert first.imported == len(first.trajectories) >= 3 and first.failed == 2
    assert all(e.path == str(runs / "batch.jsonl") for e in first.errors), [e.raw for e in first.errors]
    # again, as one zip: nothing new, the trial skipped as unchanged
    zips.clear()
    again = w.import_trajectories(runs, project=project)
    assert len(zips) == 1
    assert again.imported == 0 and again.unchanged_files >= 1, again.raw
    (same,) = [t for t in again.trajectories if t.format == "harbor"]
    assert same.id == trial.id and not same.created and same.steps == 4
    assert again.skipped == len(again.trajectories) == len(first.trajectories)
    w.close()


def test_import_documents_as_ndjson_batches(w: Witness):
    project = f"pyclient-{uuid.uuid4().hex[:8]}"
    docs = [
        {"messages": [{"role": "user", "content": f"What is {i} + {i}?"}, {"role": "assistant", "content": str(2 * i)}]}
        for i in range(5)
    ]
    report = w.import_documents(docs, project=project, batch_size=2)
    assert report.imported == 5 and report.failed == 0
    assert {t.task for t in report.trajectories} >= {"What is 0 + 0?"} or len({t.id for t in report.trajectories}) == 5


def test_trajectories_page_by_page_until_the_last(w: Witness):
    demo = next(p for p in w.projects() if p.slug == "demo")
    seen = [t.id for t in w.trajectories(project="demo", page_size=7)]
    assert len(seen) == demo.counts.trajectories > 7  # more than one page
    assert len(set(seen)) == len(seen)  # no row twice across pages
    first = next(w.trajectories(project="demo", page_size=3))
    assert first.project_slug == "demo" and first.steps > 0 and first.split in ("train", "eval")


def single_campaign(w: Witness) -> Campaign:
    return next(c for c in w.campaigns(project="demo") if c.mode == "single" and c.overlap == 3)


def test_campaigns_and_reviews_as_rows(w: Witness):
    campaigns = w.campaigns(project="demo")
    assert len(campaigns) >= 4 and all(c.project and c.project.slug == "demo" for c in campaigns)
    campaign = single_campaign(w)
    assert campaign.reviews_done > 0
    reviews = w.reviews(campaign.id, page_size=5)
    assert len(reviews) >= campaign.reviews_done  # every current review, over several pages
    assert len({r.id for r in reviews}) == len(reviews)
    frame = reviews.to_pandas()
    assert len(frame) == len(reviews) and {"id", "reviewer_id", "answers", "submitted_at"} <= set(frame.columns)
    detail = w.campaign(campaign.id)
    assert detail["id"] == campaign.id


def test_agreement_of_a_campaign_as_rows(w: Witness):
    campaign = single_campaign(w)
    rows = w.agreement(campaign.id)  # polls while the studio computes the figures
    assert rows.meta["state"] in ("current", "stale") and rows.meta["campaign"]["id"] == campaign.id
    assert len(rows) > 0 and len({r.key for r in rows}) == len(rows)
    rated = [r for r in rows if r.coefficient is not None]
    assert rated, [r.to_dict() for r in rows]
    for r in rated:
        assert -1.0 <= r.coefficient <= 1.0 and r.items > 0 and r.reviewers >= 2
        assert r.interval is None or r.interval.low <= r.interval.high
    frame = rows.to_pandas()
    assert len(frame) == len(rows) and {"key", "coefficient", "interval_low", "interval_high", "reviewers"} <= set(frame.columns)


def test_estimates_of_a_campaign_with_intervals(w: Witness):
    rows = w.estimates(single_campaign(w).id)
    overall = [r for r in rows if r.scope == "overall"]
    assert overall and {r.scope for r in rows} <= {"overall", "policy"}
    with_humans = [r for r in rows if r.human is not None]
    assert with_humans, rows.meta
    for r in with_humans:
        assert r.labeled > 0 and r.population >= r.labeled
        # (a Wilson bound at a rate of 0 comes back as 1e-17, not 0: compared with a tolerance)
        assert r.human.low - 1e-9 <= r.human.estimate <= r.human.high + 1e-9
        if r.ppi is not None:
            assert r.ppi.low - 1e-9 <= r.ppi.estimate <= r.ppi.high + 1e-9 and 0 <= r.ppi.lambda_ <= 1
    frame = rows.to_pandas()
    assert {"scope", "group", "figure", "human_estimate", "human_low", "ppi_lambda"} <= set(frame.columns)


def test_a_refusal_says_where_and_what(w: Witness):
    with pytest.raises(WitnessError) as raised:
        w.export("trl-nope", project="demo")
    error = raised.value
    assert error.status == 422 and error.code == "BAD_INPUT"
    assert error.field == "format" and "format" in error.message
    with pytest.raises(WitnessError) as missing:
        w.campaign("no-such-campaign")
    assert missing.value.status == 404 and missing.value.code == "NOT_FOUND"


def test_a_bad_token_is_unauthenticated(studio_url: str):
    with pytest.raises(WitnessError) as raised:
        Witness(studio_url, "wit_" + "x" * 43).projects()
    assert raised.value.status == 401 and raised.value.code == "UNAUTHENTICATED"
