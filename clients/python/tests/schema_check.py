"""Checks the client's models (witness.models) against an OpenAPI 3.1 document: every field a model
reads must be a property of the answer schema of the route it parses, with a JSON type the field's
Python type takes, and a field the server may leave out or send as null must be Optional."""

from __future__ import annotations

import types
import typing
from typing import Any

from witness.models import Model, model_fields, model_hints, wire_name

JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object", "null"}


def resolve(doc: dict[str, Any], schema: Any) -> dict[str, Any]:
    seen = 0
    while isinstance(schema, dict) and "$ref" in schema:
        ref = schema["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"external $ref {ref}")
        node: Any = doc
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        schema = node
        seen += 1
        if seen > 50:
            raise ValueError(f"$ref loop at {ref}")
    return schema if isinstance(schema, dict) else {}


def alternatives(doc: dict[str, Any], schema: Any) -> list[dict[str, Any]]:
    """The schema as a list of plain alternatives (anyOf / oneOf flattened, allOf merged)."""
    schema = resolve(doc, schema)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return [alt for sub in schema[key] for alt in alternatives(doc, sub)]
    if "allOf" in schema:
        merged: dict[str, Any] = {"properties": {}, "required": []}
        for sub in schema["allOf"]:
            for alt in alternatives(doc, sub):
                merged["properties"].update(alt.get("properties", {}))
                merged["required"] += alt.get("required", [])
                if "type" in alt:
                    merged["type"] = alt["type"]
        return [merged]
    return [schema]


def json_types(doc: dict[str, Any], schema: Any) -> set[str]:
    """The JSON types a schema allows (all of them for a schema that says nothing, z.unknown())."""
    out: set[str] = set()
    for alt in alternatives(doc, schema):
        t = alt.get("type")
        if isinstance(t, str):
            out.add(t)
        elif isinstance(t, list):
            out.update(t)
        elif "const" in alt or "enum" in alt:
            values = [alt["const"]] if "const" in alt else alt["enum"]
            out.update(_type_of(v) for v in values)
        elif "properties" in alt:
            out.add("object")
        else:
            return set(JSON_TYPES)
        if alt.get("nullable"):
            out.add("null")
    return out


def _type_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _accepts(hint: Any) -> tuple[set[str] | None, bool, Any]:
    """(the JSON types a Python type takes, None: any; whether it takes null; its list item or model type)."""
    if hint is Any:
        return None, True, None
    origin = typing.get_origin(hint)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(hint)
        inner = [a for a in args if a is not type(None)]
        accepted, _, sub = _accepts(inner[0]) if len(inner) == 1 else (None, True, None)
        return accepted, type(None) in args, sub
    if isinstance(hint, type) and issubclass(hint, Model):
        return {"object"}, False, hint
    if origin is list or hint is list:
        (item,) = typing.get_args(hint) or (Any,)
        return {"array"}, False, item
    if origin is dict or hint is dict:
        return {"object"}, False, None
    simple = {str: {"string"}, int: {"integer"}, float: {"number", "integer"}, bool: {"boolean"}}
    if hint in simple:
        return simple[hint], False, None
    raise TypeError(f"no JSON type for {hint!r}")


def check_model(doc: dict[str, Any], model: type[Model], schema: Any, where: str) -> list[str]:
    """What in ``model`` the schema does not back, one line each (empty: all of it)."""
    problems: list[str] = []
    objects = [alt for alt in alternatives(doc, schema) if "properties" in alt]
    if not objects:
        return [f"{where}: the schema is not an object with properties, {model.__name__} cannot read it"]
    properties: dict[str, Any] = {}
    required: set[str] = set(objects[0].get("required", []))
    for alt in objects:
        properties.update(alt["properties"])
        required &= set(alt.get("required", []))
    hints = model_hints(model)
    for f in model_fields(model):
        key = wire_name(f)
        at = f"{where}.{key} ({model.__name__}.{f.name})"
        if key not in properties:
            problems.append(f"{at}: not in the answer (the server has {', '.join(sorted(properties))})")
            continue
        accepted, nullable, sub = _accepts(hints[f.name])
        sent = json_types(doc, properties[key])
        if key not in required:
            sent = sent | {"null"}
        if "null" in sent and not nullable:
            problems.append(f"{at}: the server may leave it out or send null, the field is not Optional")
        if accepted is not None and not (sent - {"null"}) <= accepted:
            problems.append(f"{at}: the server sends {sorted(sent - {'null'})}, the field takes {sorted(accepted)}")
        if isinstance(sub, type) and issubclass(sub, Model):
            inner = properties[key]
            if "array" in sent:
                inner = next((a.get("items") for a in alternatives(doc, inner) if a.get("type") == "array"), {})
            problems += check_model(doc, sub, inner, f"{where}.{key}")
    return problems


def answer_schema(doc: dict[str, Any], method: str, path: str) -> Any:
    """The JSON schema of the route's success answer (its first 2xx with application/json)."""
    operation = doc.get("paths", {}).get(path, {}).get(method)
    if operation is None:
        raise KeyError(f"{method.upper()} {path} is not in the OpenAPI document")
    for status, response in sorted(operation.get("responses", {}).items()):
        if str(status).startswith("2"):
            content = resolve(doc, response).get("content", {})
            for media, body in content.items():
                if "json" in media:
                    return body.get("schema", {})
    raise KeyError(f"{method.upper()} {path} has no 2xx JSON answer in the OpenAPI document")


def descend(doc: dict[str, Any], schema: Any, place: list[str]) -> Any:
    for step in place:
        options = alternatives(doc, schema)
        if step == "[]":
            schema = next((a["items"] for a in options if "items" in a), None)
        else:
            schema = next((a["properties"][step] for a in options if step in a.get("properties", {})), None)
        if schema is None:
            raise KeyError(f"no {step!r} in the answer")
    return schema
