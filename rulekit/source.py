"""YAML text -> plain data plus a source map {path -> Span}, within fixed limits."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import Collector, RulekitError, Span, error, remember_source

# Limits for untrusted files (documented in docs/reference/limits.md).
MAX_FILE_BYTES = 2_000_000
MAX_NODES = 200_000  # values after alias expansion
MAX_DEPTH = 64
MAX_SCALAR = 100_000  # characters in one scalar
MAX_INT_DIGITS = 30

Path = tuple  # a path into the data: keys and list indexes
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Source:
    """A parsed file: its data, where each value and key stands, and its text."""

    file: str
    data: Any
    spans: dict[Path, Span] = field(default_factory=dict)
    key_spans: dict[Path, Span] = field(default_factory=dict)
    styles: dict[Path, str] = field(default_factory=dict)  # scalar style for expression offsets

    def span(self, path: Path) -> Span:
        """Span of the value at `path`, or of its nearest ancestor."""
        p = tuple(path)
        while p:
            if p in self.spans:
                return self.spans[p]
            p = p[:-1]
        return self.spans.get((), Span(self.file, 1, 1))


_STD_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


def _span(file: str, node: yaml.Node) -> Span:
    m = node.start_mark
    length = 1
    if isinstance(node, yaml.ScalarNode) and node.end_mark.line == m.line:
        length = max(1, node.end_mark.column - m.column)
    return Span(file, m.line + 1, m.column + 1, length)


class _Builder:
    """Turns a composed YAML node graph into data, counting expansion and depth."""

    def __init__(self, file: str, out: Source, errs: Collector):
        self.file = file
        self.out = out
        self.errs = errs
        self.count = 0
        self.constructor = yaml.SafeLoader("")  # only used for scalar resolution

    def build(self, node: yaml.Node, path: Path, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise RulekitError(error(_span(self.file, node), "E004",
                                     f"document expands to more than {MAX_NODES} values (alias bomb?)"))
        if depth > MAX_DEPTH:
            raise RulekitError(error(_span(self.file, node), "E004",
                                     f"nesting deeper than {MAX_DEPTH} levels"))
        self.out.spans[path] = _span(self.file, node)
        if node.tag not in _STD_TAGS:
            self.errs.add(error(_span(self.file, node), "E004",
                                f"YAML tag '{node.tag}' is not allowed; expected plain data (maps, lists, scalars)"))
            return None
        if isinstance(node, yaml.MappingNode):
            result: dict = {}
            for knode, vnode in node.value:
                if knode.tag == "tag:yaml.org,2002:merge":
                    self.errs.add(error(_span(self.file, knode), "E004", "YAML merge keys ('<<') are not allowed"))
                    continue
                if not isinstance(knode, yaml.ScalarNode):
                    self.errs.add(error(_span(self.file, knode), "E004", "mapping keys must be plain scalars"))
                    continue
                key = self.scalar(knode)
                if isinstance(key, (list, dict)) or key is None:
                    self.errs.add(error(_span(self.file, knode), "E004", "mapping keys must be plain scalars"))
                    continue
                if key in result:
                    first = self.out.key_spans.get(path + (key,))
                    where = f" (first defined at line {first.line})" if first else ""
                    self.errs.add(error(_span(self.file, knode), "E003", f"duplicate key '{key}'{where}"))
                    continue
                self.out.key_spans[path + (key,)] = _span(self.file, knode)
                result[key] = self.build(vnode, path + (key,), depth + 1)
            return result
        if isinstance(node, yaml.SequenceNode):
            return [self.build(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
        self.out.styles[path] = node.style or ""
        return self.scalar(node)

    def scalar(self, node: yaml.ScalarNode) -> Any:
        if len(node.value) > MAX_SCALAR:
            raise RulekitError(error(_span(self.file, node), "E004",
                                     f"scalar longer than {MAX_SCALAR} characters"))
        if node.tag == "tag:yaml.org,2002:int":
            digits = node.value.lstrip("+-").replace("_", "")
            if len(digits) > MAX_INT_DIGITS:
                self.errs.add(error(_span(self.file, node), "E004",
                                    f"integer with more than {MAX_INT_DIGITS} digits"))
                return 0
        return self.constructor.construct_object(node, deep=True)


def parse_text(text: str, file: str) -> Source:
    """Parse YAML text; raise RulekitError with every located problem."""
    remember_source(file, text)
    out = Source(file, None)
    errs = Collector()
    try:
        # libyaml's parser when present: the same node graph, several times faster
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        problem = exc.problem or "invalid YAML"
        ctx = f" ({exc.context})" if exc.context else ""
        cm = exc.context_mark
        if exc.context and cm is not None and mark is not None and (cm.line, cm.column) != (mark.line, mark.column):
            # the construct left open is often the real mistake: say where it started
            ctx = f" ({exc.context} that starts at line {cm.line + 1}, column {cm.column + 1})"
        raise RulekitError(error(span, "E002", f"YAML syntax error: {problem}{ctx}")) from None
    except yaml.YAMLError as exc:  # reader errors: control characters etc.
        raise RulekitError(error(Span(file, 1, 1), "E002", f"YAML error: {exc}")) from None
    except RecursionError:
        raise RulekitError(error(Span(file, 1, 1), "E004", f"nesting deeper than {MAX_DEPTH} levels")) from None
    if node is None:
        out.data = None
        return out
    try:
        out.data = _Builder(file, out, errs).build(node, (), 0)
    except RecursionError:
        raise RulekitError(error(Span(file, 1, 1), "E004", f"nesting deeper than {MAX_DEPTH} levels")) from None
    errs.raise_if_any()
    return out


def read_file(path: str) -> Source:
    """Read and parse a YAML file within the size limit."""
    display = os.path.relpath(path) if not path.startswith("<") else path
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise RulekitError(error(Span(display, 1, 1), "E004",
                                     f"file is {size} bytes; the limit is {MAX_FILE_BYTES}"))
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise RulekitError(error(Span(display, 0, 0), "E001", f"cannot read file: {exc.strerror}")) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RulekitError(error(Span(display, line, col), "E001",
                                 "file is not UTF-8 text: expected UTF-8, found byte "
                                 f"0x{raw[exc.start]:02x}")) from None
    if "\x00" in text:
        raise RulekitError(error(Span(display, 1, 1), "E001", "file contains NUL bytes; expected text"))
    return parse_text(text, display)


def expr_span(span: Span, style: str, offset: int, length: int = 1) -> Span:
    """Where character `offset` of a scalar's text stands in the file (exact for one-line scalars)."""
    if style in ("'", '"'):
        return Span(span.file, span.line, span.col + 1 + offset, length)
    if style in ("|", ">"):
        from .errors import _LINE_CACHE
        lines = _LINE_CACHE.get(span.file, [])
        # the block's text starts on the next line, at the block's indentation
        line = span.line + 1
        while line <= len(lines) and not lines[line - 1].strip():
            line += 1
        indent = len(lines[line - 1]) - len(lines[line - 1].lstrip()) if line <= len(lines) else 0
        # walk the text: offsets count characters of the folded value, lines map 1:1 for '|'
        text_lines = lines[line - 1:]
        remaining = offset
        for i, raw in enumerate(text_lines):
            body = raw[indent:]
            if remaining <= len(body):
                return Span(span.file, line + i, indent + 1 + remaining, length)
            remaining -= len(body) + 1
        return Span(span.file, line, indent + 1, length)
    return Span(span.file, span.line, span.col + offset, length)
