"""The client's typed models against the studio's own OpenAPI document (GET /api/v1/openapi.json): a
server change that renames, drops or retypes a field the client reads fails here."""

from __future__ import annotations

import httpx
import pytest
from schema_check import alternatives, answer_schema, check_model, descend, resolve

from witness.models import REQUEST_INPUTS, ROUTES, Project


def test_every_model_matches_the_answer_schema_of_its_route(studio_url: str):
    # public: no token needed for the document
    response = httpx.get(f"{studio_url}/api/v1/openapi.json", timeout=30)
    assert response.status_code == 200, response.text[:500]
    doc = response.json()
    assert str(doc.get("openapi", "")).startswith("3.")
    problems: list[str] = []
    for model, method, path, place in ROUTES:
        where = f"{method.upper()} {path}"
        try:
            schema = descend(doc, answer_schema(doc, method, path), place)
        except KeyError as error:
            problems.append(f"{where}: {error}")
            continue
        problems += check_model(doc, model, schema, where)
    assert not problems, "the client's models and the studio's API disagree:\n" + "\n".join(problems)


def test_every_input_the_client_sends_is_one_the_route_takes(studio_url: str):
    doc = httpx.get(f"{studio_url}/api/v1/openapi.json", timeout=30).json()
    problems: list[str] = []
    for method, path, where, keys in REQUEST_INPUTS:
        operation = doc["paths"].get(path, {}).get(method)
        if operation is None:
            problems.append(f"{method.upper()} {path} is not in the OpenAPI document")
            continue
        if where == "query":
            parameters = [resolve(doc, p) for p in operation.get("parameters", [])]
            taken = {p["name"] for p in parameters if p.get("in") == "query"}
        else:
            schema = resolve(doc, operation["requestBody"])["content"]["application/json"]["schema"]
            taken = {k for alt in alternatives(doc, schema) for k in alt.get("properties", {})}
        if keys - taken:
            problems.append(f"{method.upper()} {path} {where}: the client sends {sorted(keys - taken)}, the route takes {sorted(taken)}")
    assert not problems, "\n".join(problems)


# the checker itself, on a small document shaped as zod-to-openapi writes them (no studio needed)

DOC = {
    "openapi": "3.1.0",
    "components": {
        "schemas": {
            "Counts": {
                "type": "object",
                "properties": {k: {"type": "integer"} for k in ("environments", "tasks", "trajectories", "campaigns", "members")},
                "required": ["environments", "tasks", "trajectories", "campaigns", "members"],
            }
        }
    },
}


def project_schema(**changes: object) -> dict:
    properties: dict = {
        "id": {"type": "string"},
        "slug": {"type": "string"},
        "name": {"type": "string"},
        "description": {"type": ["string", "null"]},
        "createdAt": {"type": "string", "format": "date-time"},
        "counts": {"$ref": "#/components/schemas/Counts"},
        "role": {"anyOf": [{"type": "string", "enum": ["lead", "reviewer"]}, {"type": "null"}]},
    }
    for key, value in changes.items():
        if value is None:
            del properties[key]
        else:
            properties[key] = value
    return {"type": "object", "properties": properties, "required": list(properties)}


def test_the_checker_passes_a_matching_schema():
    assert check_model(DOC, Project, project_schema(), "GET /api/v1/projects") == []


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"slug": None}, "projects.slug (Project.slug): not in the answer"),
        ({"name": {"type": "integer"}}, "the server sends ['integer'], the field takes ['string']"),
        ({"id": {"type": ["string", "null"]}}, "Project.id): the server may leave it out or send null"),
        ({"counts": {"type": "object", "properties": {"tasks": {"type": "number"}}}}, "counts.environments"),
    ],
)
def test_the_checker_catches_a_renamed_retyped_or_nullable_field(change: dict, says: str):
    problems = check_model(DOC, Project, project_schema(**change), "GET /api/v1/projects")
    assert any(says in p for p in problems), problems
