"""JSON Schema (2020-12) validation with every error mapped to file:line:col.

A document that passes is remembered (rulekit.core.passcache) by a digest of the schema file, of
the installed jsonschema and of the document itself, so the same file checked again is not
validated again: jsonschema is then not even imported (about a sixth of the command line's
start-up). A document with errors is validated, and its errors reported, every time.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import itertools
import json
import os
from typing import TYPE_CHECKING, Any, Callable

from rulekit.core import passcache
from rulekit.core.errors import Diagnostic, Span, did_you_mean, error

from rulekit.core.paths import PACKAGE_DIR, PROJECT_ROOT as ROOT

if TYPE_CHECKING:
    import jsonschema

# A hostile file can hold thousands of mistakes: report the first ones, in bounded time.
MAX_SCHEMA_ERRORS = 1_000  # schema errors examined per file
MAX_UNKNOWN_KEYS = 20  # unknown keys reported one by one per mapping (then one summary line)


@functools.cache
def load_schema(name: str) -> dict[Any, Any]:
    """Load `schemas/<name>.schema.json` from the project (or the installed package)."""
    for folder in (os.path.join(ROOT, "schemas"), os.path.join(PACKAGE_DIR, "schemas")):
        path = os.path.join(folder, f"{name}.schema.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            schema: dict[Any, Any] = json.loads(text)
            _DIGESTS[id(schema)] = (schema, passcache.digest(text))
            return schema
    raise FileNotFoundError(f"schema {name} not found")


def _kind(v: Any) -> str:
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return f"{str(v).lower()} (a boolean)"
    if isinstance(v, int):
        return f"{v} (a number)"
    if isinstance(v, float):
        return f"{v} (a decimal number)"
    if isinstance(v, str):
        return f"'{v[:40]}' (a string)"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__


def _message(err: jsonschema.ValidationError) -> tuple[str, str, list[Any]]:
    """A reader's message for one schema error, a hint, and the path to point at."""
    path = list(err.absolute_path)
    v = err.validator
    if "propertyNames" in err.absolute_schema_path:
        # a key that is not a valid name: point at the key, explain with the name rule's description
        key = err.instance
        rule = err.schema.get("description") or err.message
        return f"'{key}' cannot be used as a name here: {rule}", "", path + [("key", key)]
    if v == "additionalProperties":
        return _unknown_key(err, (_extra_keys(err) or ["?"])[0])
    if v == "required":
        return f"missing required key '{_missing_key(err)}'", "", path
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        return f"expected {want}, found {_kind(err.instance)}", "", path
    if v == "enum":
        opts = ", ".join(repr(x) for x in err.validator_value)
        hint = did_you_mean(str(err.instance), [str(x) for x in err.validator_value])
        return f"expected one of {opts}, found {_kind(err.instance)}", hint, path
    if v == "const":
        return f"expected {err.validator_value!r}, found {_kind(err.instance)}", "", path
    if v in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"expected a number {'at least' if 'min' in v.lower() else 'at most'} {err.validator_value}, " \
               f"found {err.instance}", "", path
    if v == "pattern":
        return f"expected text matching {err.validator_value}, found {_kind(err.instance)}", "", path
    if v in ("minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"):
        return f"{err.message}", "", path
    if v == "not":
        rule = err.schema.get("description") or "a value the schema forbids"
        return f"{_kind(err.instance)} is not allowed here: {rule}", "", path
    if v in ("oneOf", "anyOf"):
        # name the alternative that came closest: the one with the fewest errors
        best = None
        for sub in err.context or []:
            if best is None or len(list(sub.absolute_path)) > len(list(best.absolute_path)):
                best = sub
        title = err.schema.get("title") or err.schema.get("description", "").split(".")[0]
        if isinstance(err.instance, dict) and len(err.instance) >= 1 and best is not None:
            m, h, p = _message(best)
            return m, h, p
        return f"expected {title or 'one of the allowed forms'}, found {_kind(err.instance)}", "", path
    return err.message, "", path


def _extra_keys(err: jsonschema.ValidationError) -> list[Any]:
    allowed = err.schema.get("properties") or {}
    return [k for k in err.instance if k not in allowed]


def _unknown_key(err: jsonschema.ValidationError, key: Any) -> tuple[str, str, list[Any]]:
    allowed = list((err.schema.get("properties") or {}).keys())
    pats = err.schema.get("patternProperties")
    want = ", ".join(allowed) if allowed else "keys matching " + ", ".join(pats or [])
    return (f"unknown key '{key}': expected one of {want}", did_you_mean(str(key), allowed),
            list(err.absolute_path) + [("key", key)])


def _missing_key(err: jsonschema.ValidationError) -> str:
    message: str = err.message
    return message.split("'")[1] if "'" in message else message


def _messages(errors: list[Any]) -> list[tuple[str, str, list[Any]]]:
    """Messages for all errors: one per unknown key; a missing key that is only misspelt
    (an unknown key of the same mapping is close to it) is reported once, as the unknown key."""
    unknown: dict[tuple[Any, ...], list[Any]] = {}
    for err in errors:
        if err.validator == "additionalProperties" and "propertyNames" not in err.absolute_schema_path:
            unknown.setdefault(tuple(err.absolute_path), []).extend(_extra_keys(err))
    out = []
    for err in errors:
        if err.validator == "additionalProperties" and "propertyNames" not in err.absolute_schema_path:
            extra = _extra_keys(err) or ["?"]
            out += [_unknown_key(err, k) for k in extra[:MAX_UNKNOWN_KEYS]]
            if len(extra) > MAX_UNKNOWN_KEYS:
                msg, _hint, path = _unknown_key(err, extra[MAX_UNKNOWN_KEYS])
                out.append((f"{msg} (and {len(extra) - MAX_UNKNOWN_KEYS - 1} more unknown keys here)", "", path))
        elif err.validator == "required" and any(
                did_you_mean(str(k), [_missing_key(err)])
                for k in unknown.get(tuple(err.absolute_path), [])[:MAX_UNKNOWN_KEYS]):
            continue
        else:
            out.append(_message(err))
    return out


_VALIDATORS: dict[int, Any] = {}
# id of a schema read by load_schema -> (that schema, digest of its file's text): only such a
# schema's passes are remembered (a schema made in memory is validated every time)
_DIGESTS: dict[int, tuple[dict[Any, Any], str]] = {}


@functools.cache
def _checker_stamp() -> str:
    """Which checker runs: the installed jsonschema (its file's place, size and time, found without
    importing it) and this module's own text (how it calls jsonschema); '' when either is unknown."""
    spec = importlib.util.find_spec("jsonschema")
    origin = spec.origin if spec is not None else None
    try:
        st = os.stat(origin) if origin else None
        with open(__file__, encoding="utf-8") as fh:
            own = passcache.digest(fh.read())
    except OSError:
        return ""
    return f"{origin}:{st.st_size}:{st.st_mtime_ns}:{own}" if st is not None else ""


# characters of a document's scalars a digest reads at most: aliases can make a 2 MB file hold
# gigabytes of text (one long string named 200,000 times); such a document is simply not remembered
MAX_DIGEST_CHARS = 8_000_000
_END = object()  # closes a mapping or a list in the walk below


def _document_digest(data: Any) -> str | None:
    """A SHA-256 digest of plain data (maps, lists, scalars) that tells 1 from '1' and True from 1
    (json.dumps would not), read without recursion; None past MAX_DIGEST_CHARS characters."""
    h = hashlib.sha256()
    budget = MAX_DIGEST_CHARS
    stack: list[Any] = [data]
    while stack:
        x = stack.pop()
        if x is _END:
            h.update(b")")
            continue
        t = type(x)
        if t is dict:
            h.update(b"{%d(" % len(x))
            stack.append(_END)
            for k, v in reversed(list(x.items())):
                stack += (v, k)
            continue
        if t is list:
            h.update(b"[%d(" % len(x))
            stack.append(_END)
            stack += reversed(x)
            continue
        text = f"{t.__name__}:{x!r}"  # a scalar: str, int, float, bool, None
        budget -= len(text)
        if budget < 0:
            return None
        b = text.encode("utf-8", "backslashreplace")
        h.update(b"%d:" % len(b))
        h.update(b)
    return h.hexdigest()


def _pass_key(data: Any, schema: dict[Any, Any]) -> str | None:
    """The digest a pass of `data` against `schema` is remembered by; None: not remembered."""
    entry = _DIGESTS.get(id(schema))
    if entry is None or entry[0] is not schema or not _checker_stamp():
        return None
    doc = _document_digest(data)
    return passcache.digest("schema-pass 2", entry[1], _checker_stamp(), doc) if doc is not None else None


def _validator(schema: dict[Any, Any]) -> Any:
    """One validator per schema object: it keeps its resolved references between files."""
    import jsonschema  # only when a document is validated (see the module's docstring)

    v = _VALIDATORS.get(id(schema))
    if v is None or v.schema is not schema:
        v = _VALIDATORS[id(schema)] = jsonschema.Draft202012Validator(schema)
    return v


def validate(data: Any, schema: dict[Any, Any], src: Any, path_prefix: tuple[Any, ...] = (),
             span_of: Callable[[tuple[Any, ...], bool], Span] | None = None) -> list[Diagnostic]:
    """All schema errors of `data`, located via the source map (`src.span`/`key_spans`)."""
    pass_key = _pass_key(data, schema)
    if pass_key is not None and passcache.passed("schema", pass_key):
        return []
    validator = _validator(schema)
    out = []
    errors = sorted(itertools.islice(validator.iter_errors(data), MAX_SCHEMA_ERRORS),
                    key=lambda e: list(map(str, e.absolute_path)))
    if not errors and pass_key is not None:
        passcache.remember("schema", pass_key)
    for msg, hint, path in _messages(errors):
        key = None
        if path and isinstance(path[-1], tuple):
            key = path[-1][1]
            path = path[:-1]
        full = tuple(path_prefix) + tuple(path)
        if span_of is not None:
            span = span_of(full + ((key,) if key is not None else ()), key is not None)
        elif key is not None:
            span = src.key_spans.get(full + (key,)) or src.span(full)
        else:
            span = src.span(full)
        crumbs = _crumbs(data, path)
        out.append(error(span, "E010", msg, hint=hint, crumbs=crumbs))
    return out


def _crumbs(data: Any, path: list[Any]) -> list[str]:
    """Breadcrumbs naming items by their id, pre-commit style."""
    crumbs = []
    cur = data
    for i, p in enumerate(path):
        try:
            cur = cur[p]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(p, int) and isinstance(cur, dict) and "id" in cur:
            kind = path[i - 1] if i else "item"
            crumbs.append(f"At {'phase' if kind == 'round' else kind} '{cur['id']}'")
    return crumbs
