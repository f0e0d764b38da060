"""Discord's own description of its HTTP API (vendored: see README.md here) and validation against it.

The offline Discord checks every request body the bot sends, and what it answers, against the schema of the route
Discord lists for it; `expedition-bot sync --dry-run` checks the command tree the same way before a registration.
A model of Discord that we wrote cannot show where we misread Discord; Discord's published description can.

The description is OpenAPI 3.1, whose schemas are JSON Schema Draft 2020-12: nullable fields are type arrays
(``["string", "null"]``), unions are ``oneOf``/``anyOf``, and ``$ref``s point into ``components/schemas`` (resolved
by a ``referencing`` registry holding the whole document). One thing is relaxed, because Discord relaxes it:
discord.py sends some snowflakes as JSON integers (attachment ids, ``allowed_mentions.users``) and Discord reads
them as their decimal strings, so an integer where a snowflake is due is checked as its string. Nothing else is.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

import jsonschema
import jsonschema.exceptions
import referencing
import referencing.jsonschema
from jsonschema import Draft202012Validator

__all__ = [
    "API_BASE",
    "SOURCE",
    "SOURCE_COMMIT",
    "ApiDescription",
    "ContractViolation",
    "RouteSpec",
    "Violation",
    "description",
]

SOURCE = "discord/discord-api-spec, specs/openapi.json"
SOURCE_COMMIT = "74fda0f"
API_BASE = "https://discord.com/api/v10"
_DOCUMENT_URI = "urn:discord-api-spec:openapi.json"
_METHODS = ("get", "put", "post", "patch", "delete")


@dataclass(frozen=True)
class Violation:
    """One place where a JSON document breaks Discord's description: which route, where in the JSON, and why."""

    route: str
    json_path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.route}: at {self.json_path}: {self.reason}"


class ContractViolation(Exception):
    """Raised by the offline Discord when the bot sends (or the model answers) what Discord's description refuses."""

    def __init__(self, violations: list[Violation], what: str = "request") -> None:
        self.violations = violations
        lines = "\n".join(f"  {violation}" for violation in violations)
        super().__init__(f"{what} breaks Discord's API description ({SOURCE} at {SOURCE_COMMIT}):\n{lines}")


@dataclass(frozen=True)
class RouteSpec:
    """A route as the description lists it: template, method, and where its body and answer schemas live."""

    method: str
    template: str
    operation_id: str
    has_request_body: bool
    response_statuses: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"


def _snowflake_as_string(instance: Any, schema: dict[str, Any]) -> Any:
    """An integer where a snowflake is due is read as its decimal string, as Discord reads it."""
    if schema.get("format") == "snowflake" and isinstance(instance, int) and not isinstance(instance, bool):
        return str(instance)
    return instance


def _relaxed(keyword: str) -> Any:
    draft = Draft202012Validator.VALIDATORS[keyword]

    def check(validator: Any, value: Any, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
        yield from draft(validator, value, _snowflake_as_string(instance, schema), schema)

    return check


_Validator = jsonschema.validators.extend(
    Draft202012Validator, {"type": _relaxed("type"), "pattern": _relaxed("pattern")}
)


def _union_tag(branch: Any, schemas: dict[str, Any]) -> Any:
    """The one ``type`` value a union branch (a ``$ref`` to an object schema) admits, or None."""
    if not isinstance(branch, dict) or set(branch) != {"$ref"} or not branch["$ref"].startswith("#/components/"):
        return None
    tag = schemas.get(branch["$ref"].rsplit("/", 1)[-1], {}).get("properties", {}).get("type")
    if not isinstance(tag, dict):
        return None
    if "const" in tag:
        return tag["const"]
    values = tag.get("enum")
    return values[0] if isinstance(values, list) and len(values) == 1 else None


def _dispatch_tagged_unions(node: Any, schemas: dict[str, Any]) -> None:
    """Rewrite each union whose branches are told apart by their ``type`` (components, command options, callback
    bodies) as "the branch its tag names": the same verdict on every instance, but only that branch is checked.

    ``oneOf`` checks every branch of a union to prove exactly one matches; with dozens of nested component unions
    that made each message check take tens of milliseconds. An instance is refused as before when its tag names
    no branch (``type`` not among the tags) or when the branch it names refuses it.
    """
    if isinstance(node, list):
        for item in node:
            _dispatch_tagged_unions(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _dispatch_tagged_unions(value, schemas)
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if not isinstance(branches, list) or len(branches) < 2:
            continue
        tags = [_union_tag(branch, schemas) for branch in branches]
        if any(tag is None for tag in tags) or len({json.dumps(tag) for tag in tags}) != len(tags):
            continue
        del node[keyword]
        node.setdefault("allOf", []).extend(
            [{"type": "object", "required": ["type"], "properties": {"type": {"enum": tags}}}]
            + [{"if": {"properties": {"type": {"const": tag}}}, "then": branch} for tag, branch in zip(tags, branches,
                                                                                                     strict=True)])


def _pointer(*parts: str) -> str:
    return "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)


class ApiDescription:
    """The loaded description: find a route for a request, validate bodies and answers against its schemas."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        _dispatch_tagged_unions(document, document["components"]["schemas"])
        resource = referencing.Resource.from_contents(document,
                                                      default_specification=referencing.jsonschema.DRAFT202012)
        self._registry: referencing.Registry[Any] = referencing.Registry().with_resource(_DOCUMENT_URI, resource)
        self._validators: dict[str, Any] = {}
        self._routes: list[tuple[re.Pattern[str], int, RouteSpec]] = []
        for template, item in document["paths"].items():
            literal = len(re.sub(r"\{\w+\}", "", template))
            pattern = re.compile(re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(template)))
            for method in _METHODS:
                operation = item.get(method)
                if operation is None:
                    continue
                spec = RouteSpec(method.upper(), template, operation.get("operationId", ""),
                                 "requestBody" in operation, tuple(operation.get("responses", {})))
                self._routes.append((pattern, literal, spec))

    # -- routes ----------------------------------------------------------------------------------------------------

    def route(self, method: str, url: str) -> RouteSpec | None:
        """The route Discord lists for this method and URL (or path); a literal segment wins over a parameter."""
        path = url.removeprefix(API_BASE).split("?", 1)[0]
        found = [(literal, spec) for pattern, literal, spec in self._routes
                 if spec.method == method.upper() and pattern.fullmatch(path)]
        return max(found, key=lambda pair: pair[0])[1] if found else None

    def _require(self, method: str, url: str) -> RouteSpec | Violation:
        spec = self.route(method, url)
        if spec is None:
            path = url.removeprefix(API_BASE).split("?", 1)[0]
            return Violation(f"{method.upper()} {path}", "$", "Discord's API description lists no such route")
        return spec

    # -- validation ------------------------------------------------------------------------------------------------

    def check_request(self, method: str, url: str, body: Any) -> list[Violation]:
        """What is wrong with sending ``body`` (the JSON part; None for no body) to this route; [] when nothing is."""
        spec = self._require(method, url)
        if isinstance(spec, Violation):
            return [spec]
        if not spec.has_request_body:
            if body in (None, {}, []):
                return []
            return [Violation(spec.key, "$", "this route takes no request body")]
        operation_pointer = _pointer("paths", spec.template, spec.method.lower())
        request = self.document["paths"][spec.template][spec.method.lower()]["requestBody"]
        if body is None:
            return [Violation(spec.key, "$", "a request body is required")] if request.get("required") else []
        pointer = f"{operation_pointer}/requestBody/content/application~1json/schema"
        return self._check(f"#/{pointer}", body, spec.key)

    def check_response(self, method: str, url: str, body: Any, status: int | None = None) -> list[Violation]:
        """What is wrong with answering this route with ``body``; [] when nothing is (or it answers no JSON).

        Without a ``status``, the route's own success status: 204 for no body, else the 200, 201 or 202 it lists.
        """
        spec = self._require(method, url)
        if isinstance(spec, Violation):
            return [spec]
        responses = self.document["paths"][spec.template][spec.method.lower()].get("responses", {})
        if status is None:
            wanted = ("204",) if body is None else ("200", "201", "202")
            status = int(next((code for code in wanted if code in responses), wanted[0]))
        answer = responses.get(str(status))
        if answer is None:
            return [Violation(spec.key, "$", f"Discord never answers this route with status {status}")]
        if "content" not in answer:
            return [] if body is None else [Violation(spec.key, "$", f"a {status} answer of this route has no body")]
        pointer = _pointer("paths", spec.template, spec.method.lower(), "responses", str(status), "content",
                           "application/json", "schema")
        return self._check(f"#/{pointer}", body, f"{spec.key} → {status}")

    def check_schema(self, name: str, instance: Any, where: str = "") -> list[Violation]:
        """What is wrong with ``instance`` as a ``components/schemas/<name>`` (e.g. a gateway event's object)."""
        if name not in self.document["components"]["schemas"]:
            raise KeyError(f"Discord's description has no schema {name!r}")
        return self._check(f"#/components/schemas/{name}", instance, where or name)

    def _check(self, ref: str, instance: Any, route: str) -> list[Violation]:
        validator = self._validator(ref)
        out: list[Violation] = []
        for error in validator.iter_errors(instance):
            out.extend(Violation(route, deepest.json_path, _reason(deepest)) for deepest in _explain(error))
        return out

    def _validator(self, ref: str) -> Any:
        """One validator per schema, kept: its resolved ``$ref``s are reused by every later check."""
        if ref not in self._validators:
            self._validators[ref] = _Validator({"$ref": f"{_DOCUMENT_URI}{ref}"}, registry=self._registry)
        return self._validators[ref]


def _is_tag_mismatch(error: jsonschema.exceptions.ValidationError) -> bool:
    """A union branch that does not apply: its tag (a component's or option's ``type``) names another kind.

    (A branch of another JSON type, such as the ``null`` of a nullable field, does not apply either.)"""
    return error.validator in ("enum", "const") and bool(error.path) and error.path[-1] in ("type", "component_type")


def _explain(error: jsonschema.exceptions.ValidationError) -> list[jsonschema.exceptions.ValidationError]:
    """The errors that say what is wrong: inside a union, those of the branch the instance's ``type`` tag chose.

    ``best_match`` alone often blames a branch of another kind ("2 is not one of [10]" for a too-long button label),
    so tagged unions are followed by their tag first.
    """
    if error.validator not in ("anyOf", "oneOf") or not error.context:
        return [error]
    branches: dict[int, list[jsonschema.exceptions.ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    fitting = [errors for errors in branches.values()
               if not any(_is_tag_mismatch(sub) or (sub.validator == "type" and not sub.relative_path)
                          for sub in errors)]
    if not fitting:
        return [jsonschema.exceptions.best_match([error])]
    # Untagged unions (a new message or an edit, say): the branch whose complaint reaches deepest into the instance.
    explained = [[deeper for sub in errors for deeper in _explain(sub)] for errors in fitting]
    return max(explained, key=lambda errors: (max(len(e.absolute_path) for e in errors), -len(errors)))


def _reason(error: jsonschema.exceptions.ValidationError) -> str:
    message = error.message
    if len(message) > 300:
        message = message[:300] + "…"
    schema_path = "/".join(str(part) for part in error.schema_path)
    return f"{message} (schema: {schema_path})" if schema_path else message


@functools.cache
def description() -> ApiDescription:
    """The vendored description, loaded once per process (about 1 MB of JSON)."""
    text = resources.files(__package__).joinpath("openapi.json").read_text(encoding="utf-8")
    return ApiDescription(json.loads(text))
