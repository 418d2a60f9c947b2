"""YAML text -> plain data plus a source map {path -> Span}, within fixed limits."""
from __future__ import annotations

import copy
import os
import stat
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, Protocol, cast

import yaml
from yaml.error import Mark

from rulekit.core.errors import Collector, RulekitError, Span, error, remember_source

# Limits for untrusted files (documented in docs/reference/limits.md).
MAX_FILE_BYTES = 2_000_000
MAX_NODES = 200_000  # values after alias expansion
MAX_DEPTH = 64
MAX_SCALAR = 100_000  # characters in one scalar
MAX_INT_DIGITS = 30
MAX_ENTRIES = 1_000  # items of one list or mapping (the shipped files have at most 54)
MAX_VARIANT_VALUES = 50_000  # values in one variant or house-rule file (the shipped ones hold at most 1,700):
# every value may be an expression to compile and check, and validation must stay within seconds

Path = tuple[Any, ...]  # a path into the data: keys and list indexes
# libyaml scans and parses in C when PyYAML has it (much faster on big or hostile files); the
# pure-Python parser gives the same events.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass
class Source:
    """A parsed file: its data, where each value and key stands, and its text."""

    file: str
    data: Any
    spans: dict[Path, Span] = field(default_factory=dict)
    key_spans: dict[Path, Span] = field(default_factory=dict)
    styles: dict[Path, str] = field(default_factory=dict)  # scalar style for expression offsets
    values: int = 0  # values in the document after alias expansion

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
_MAP_TAG, _SEQ_TAG = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_MERGE_TAG, _STR_TAG = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:str"

# The tree is built here from the parser's events, iteratively, so nesting, size and alias
# expansion are checked as the events arrive, before any work is wasted.
_HELPER = yaml.SafeLoader("")  # resolves plain scalars' tags and constructs scalar values only
# (PyYAML's resolver is untyped: what it is called with and gives back, a tag)
_resolve: Callable[[type[yaml.Node], str | None, Any], str] = _HELPER.resolve


class _Mark(Protocol):
    """Where an event stands (yaml's Mark, in C or in Python): 0-based line and column."""

    line: int
    column: int


class _Event(Protocol):
    """What the builder reads of a parser event. PyYAML types events loosely (an Event has only
    marks); node events (scalar, alias, mapping and sequence starts) carry these, and the builder
    reads them only once the event's class says it is one."""

    start_mark: Mark  # (libyaml's marks have the same fields)
    end_mark: Mark
    anchor: str | None
    tag: str | None
    implicit: Any  # a scalar's (plain, quoted) pair; a collection's flag
    value: str
    style: str | None


def _mark_span(file: str, start: _Mark, end: _Mark | None = None, scalar: bool = False) -> Span:
    length = 1
    if scalar and end is not None and end.line == start.line:
        length = max(1, end.column - start.column)
    return Span(file, start.line + 1, start.column + 1, length)


def _span(file: str, node: yaml.Node) -> Span:
    return _mark_span(file, node.start_mark, node.end_mark, isinstance(node, yaml.ScalarNode))


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


class _Frame:
    """An open mapping or sequence while its events arrive."""

    __slots__ = ("is_map", "value", "path", "depth", "key", "has_key", "skip", "anchor", "order_start",
                 "count_start", "height", "bad", "span")

    def __init__(self, is_map: bool, path: Path | None, depth: int, anchor: str | None, order_start: int,
                 count_start: int, bad: bool, span: Span):
        self.is_map = is_map
        self.value: Any = {} if is_map else []
        self.path = path  # None: not recorded (inside a rejected key or a rejected tag)
        self.depth = depth
        self.key: Any = None
        self.has_key = False  # a mapping waiting for the value of `key`
        self.skip = False  # ... which is dropped (duplicate or rejected key)
        self.anchor = anchor
        self.order_start = order_start
        self.count_start = count_start
        self.height = 0
        self.bad = bad  # a rejected tag: the value becomes None
        self.span = span


class _Builder:
    """Builds data and the source map from parser events, within the limits."""

    def __init__(self, file: str, out: Source, errs: Collector):
        self.file = file
        self.out = out
        self.errs = errs
        self.count = 0
        self.order: list[Path] = []  # recorded paths in document order (to copy aliased subtrees)
        # name -> (value, paths, size, height, root path, span)
        self.anchors: dict[str, tuple[Any, list[Path], int, int, Path | None, Span]] = {}
        self.open_anchors: set[str] = set()
        self.root: Any = None

    def fatal(self, span: Span, message: str, code: str = "E004") -> NoReturn:
        raise RulekitError(error(span, code, message))

    def tick(self, n: int, span: Span) -> None:
        self.count += n
        if self.count > MAX_NODES:
            if self.anchors:
                self.fatal(span, f"document expands to more than {MAX_NODES} values (alias bomb?)")
            self.fatal(span, f"document has more than {MAX_NODES} values")

    def record(self, path: Path | None, span: Span) -> None:
        if path is not None:
            self.out.spans[path] = span
            self.order.append(path)

    # -- where the next value goes ----------------------------------------------
    @staticmethod
    def child_path(parent: _Frame | None) -> Path | None:
        if parent is None:
            return ()
        if parent.path is None:
            return None
        if parent.is_map:
            if not parent.has_key or parent.skip:
                return None  # a key (recorded as a key span) or a dropped value
            return parent.path + (parent.key,)
        return parent.path + (len(parent.value),)

    def place(self, stack: list[_Frame], value: Any, height: int, span: Span, is_scalar_key: bool,
              merge: bool = False) -> None:
        """Put a finished value into the open collection (or make it the document)."""
        if not stack:
            self.root = value
            return
        parent = stack[-1]
        parent.height = max(parent.height, height + 1)
        if len(parent.value) >= MAX_ENTRIES and (not parent.is_map or not parent.has_key):
            # checked as items arrive: 20,000 presets would otherwise cost minutes of schema checks
            self.fatal(span, f"more than {MAX_ENTRIES} entries in one {'mapping' if parent.is_map else 'list'}")
        if not parent.is_map:
            parent.value.append(value)
            return
        if not parent.has_key:
            parent.has_key = True
            parent.skip = False
            if merge:
                self.errs.add(error(span, "E004", "YAML merge keys ('<<') are not allowed"))
                parent.skip = True
            elif not is_scalar_key or value is None or isinstance(value, (list, dict)):
                self.errs.add(error(span, "E004", "mapping keys must be plain scalars"))
                parent.skip = True
            elif not isinstance(value, str):
                # every key of the formats is a name; a number or yes/no key would reach code
                # that expects text (found by the hostile corpus of issue 12, class J)
                kind = "yes/no value" if isinstance(value, bool) else "number" if isinstance(
                    value, (int, float)) else type(value).__name__
                shown = str(value).lower() if isinstance(value, bool) else str(value)[:40]
                self.errs.add(error(span, "E010", f"a key must be text, found the {kind} {shown}",
                                    hint=f"put it in quotes ('{shown}') if you mean the text"))
                parent.skip = True
            elif value in parent.value:
                first = self.out.key_spans.get(parent.path + (value,)) if parent.path is not None else None
                where = f" (first defined at line {first.line})" if first else ""
                self.errs.add(error(span, "E003", f"duplicate key '{value}'{where}"))
                parent.skip = True
            else:
                parent.key = value
                if parent.path is not None:
                    self.out.key_spans[parent.path + (value,)] = span
            return
        if not parent.skip:
            parent.value[parent.key] = value
        parent.has_key = False
        parent.skip = False

    # -- scalars -----------------------------------------------------------------
    def scalar(self, ev: _Event, span: Span, path: Path | None) -> tuple[Any, bool]:
        """The value of a scalar event, and whether it is a merge key ('<<')."""
        value = ev.value
        tag = ev.tag
        if path is not None:
            self.out.styles[path] = ev.style or ""
        if tag is None or tag == "!":
            if ev.style and len(value) <= MAX_SCALAR:
                return value, False  # quoted or block text: a string, nothing to resolve
            tag = _resolve(yaml.ScalarNode, value, ev.implicit)
        if tag == _MERGE_TAG:
            return value, True
        if tag not in _STD_TAGS:
            self.errs.add(error(span, "E004", f"YAML tag '{tag}' is not allowed; expected plain data "
                                "(maps, lists, scalars)"))
            return None, False
        if len(value) > MAX_SCALAR:
            self.fatal(span, f"scalar longer than {MAX_SCALAR} characters")
        if tag in (_MAP_TAG, _SEQ_TAG):
            self.errs.add(error(span, "E004", f"YAML tag '{_short_tag(tag)}' cannot be used on a scalar"))
            return None, False
        if tag == _STR_TAG:
            return value, False
        if tag == "tag:yaml.org,2002:int":
            digits = value.strip().lstrip("+-").replace("_", "")
            if len(digits) > MAX_INT_DIGITS:
                self.errs.add(error(span, "E004", f"integer with more than {MAX_INT_DIGITS} digits"))
                return 0, False
        node = yaml.ScalarNode(tag, value, ev.start_mark, ev.end_mark, ev.style)
        try:
            return _HELPER.yaml_constructors[tag](_HELPER, node), False
        except (ValueError, KeyError, IndexError, TypeError, ArithmeticError, yaml.YAMLError):
            self.errs.add(error(span, "E004", f"'{value[:40]}' cannot be read as {_short_tag(tag)}"))
            return None, False

    # -- the event loop ----------------------------------------------------------------
    def build(self, text: str) -> Any:
        self.root = None
        stack: list[_Frame] = []
        file = self.file
        docs = 0
        first_doc: _Mark | None = None
        skip = (yaml.StreamStartEvent, yaml.StreamEndEvent, yaml.DocumentEndEvent)
        ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
        ScalarEvent, AliasEvent = yaml.ScalarEvent, yaml.AliasEvent
        for event in yaml.parse(text, Loader=_Loader):
            cls = event.__class__
            ev = cast(_Event, event)  # its fields are read below only as its class allows
            if cls is not ScalarEvent:
                if cls in skip:
                    continue
                if cls is yaml.DocumentStartEvent:
                    docs += 1
                    if docs == 1:
                        first_doc = ev.start_mark
                        continue
                    cm = first_doc
                    assert cm is not None  # set by the first document start
                    raise RulekitError(error(_mark_span(file, ev.start_mark), "E002",
                                             "YAML syntax error: but found another document (expected a single "
                                             f"document in the stream that starts at line {cm.line + 1}, column "
                                             f"{cm.column + 1})"))
                if cls in ends:
                    fr = stack.pop()
                    if fr.anchor is not None:
                        self.open_anchors.discard(fr.anchor)
                        self.anchors[fr.anchor] = (fr.value, self.order[fr.order_start:],
                                                   self.count - fr.count_start, fr.height, fr.path, fr.span)
                    self.place(stack, None if fr.bad else fr.value, fr.height, fr.span, False)
                    continue
            parent = stack[-1] if stack else None
            depth = parent.depth + 1 if parent is not None else 0
            is_key = parent is not None and parent.is_map and not parent.has_key
            path = None if is_key else self.child_path(parent)
            if cls is AliasEvent:
                span = _mark_span(file, ev.start_mark)
                name = ev.anchor
                if name in self.open_anchors:
                    self.fatal(span, f"alias '*{name}' refers to a node that contains it (a recursive alias)")
                if name not in self.anchors:
                    raise RulekitError(error(span, "E002", f"YAML syntax error: found undefined alias '{name}'"))
                value, paths, size, height, root, aspan = self.anchors[name]
                self.tick(size, span)
                if depth + height > MAX_DEPTH:
                    self.fatal(span, f"nesting deeper than {MAX_DEPTH} levels")
                if isinstance(value, (list, dict)):
                    value = copy.deepcopy(value)
                if path is not None:
                    if root is not None and paths:
                        out = self.out
                        cut = len(root)
                        for p in paths:
                            new = path + p[cut:]
                            out.spans[new] = out.spans[p]
                            if p in out.styles:
                                out.styles[new] = out.styles[p]
                            if p is not root and p != root and p in out.key_spans:
                                out.key_spans[new] = out.key_spans[p]
                            self.order.append(new)
                    else:
                        self.record(path, aspan)
                self.place(stack, value, height, aspan, not isinstance(value, (list, dict)))
                continue
            scalar = cls is ScalarEvent
            span = _mark_span(file, ev.start_mark, ev.end_mark, scalar)
            count_start = self.count
            self.tick(1, span)
            if depth > MAX_DEPTH:
                self.fatal(span, f"nesting deeper than {MAX_DEPTH} levels")
            anchor = ev.anchor
            if anchor is not None and (anchor in self.anchors or anchor in self.open_anchors):
                first = self.anchors[anchor][5] if anchor in self.anchors else None
                where = f" (first defined at line {first.line}, column {first.col})" if first else ""
                raise RulekitError(error(span, "E002", f"YAML syntax error: found duplicate anchor '{anchor}'{where}"))
            order_start = len(self.order)
            self.record(path, span)
            if scalar:
                value, merge = self.scalar(ev, span, path)
                if anchor is not None:
                    self.anchors[anchor] = (value, self.order[order_start:], 1, 0, path, span)
                self.place(stack, value, 0, span, True, merge)
                continue
            # the start of a mapping or a sequence
            is_map = cls is yaml.MappingStartEvent
            tag = ev.tag
            if tag is None or tag == "!":
                tag = _resolve(yaml.MappingNode if is_map else yaml.SequenceNode, None, ev.implicit)
            bad = False
            if tag not in _STD_TAGS:
                self.errs.add(error(span, "E004", f"YAML tag '{tag}' is not allowed; expected plain data "
                                    "(maps, lists, scalars)"))
                bad = True
            elif tag != (_MAP_TAG if is_map else _SEQ_TAG):
                self.errs.add(error(span, "E004", f"YAML tag '{_short_tag(tag)}' cannot be used on a "
                                    f"{'mapping' if is_map else 'list'}"))
                bad = True
            if anchor is not None:
                self.open_anchors.add(anchor)
            stack.append(_Frame(is_map, None if bad else path, depth, anchor, order_start, count_start, bad,
                                span))
            if is_key:
                stack[-1].path = None
        return self.root


def parse_text(text: str, file: str) -> Source:
    """Parse YAML text; raise RulekitError with every located problem."""
    remember_source(file, text)
    out = Source(file, None)
    errs = Collector()
    builder = _Builder(file, out, errs)
    try:
        out.data = builder.build(text)
        out.values = builder.count
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        problem = exc.problem or "invalid YAML"
        if "maximum nesting depth" in problem:
            # libyaml (PyYAML >= 6.0.2) has a nesting limit of its own that may fire before ours:
            # the reader gets the same error whichever check came first
            raise RulekitError(error(span, "E004", f"nesting deeper than {MAX_DEPTH} levels")) from None
        ctx = f" ({exc.context})" if exc.context else ""
        cm = exc.context_mark
        if exc.context and cm is not None and mark is not None and (cm.line, cm.column) != (mark.line, mark.column):
            # the construct left open is often the real mistake: say where it started
            ctx = f" ({exc.context} that starts at line {cm.line + 1}, column {cm.column + 1})"
        raise RulekitError(error(span, "E002", f"YAML syntax error: {problem}{ctx}")) from None
    except yaml.YAMLError as exc:  # reader errors: control characters etc.
        span = Span(file, 1, 1)
        pos = getattr(exc, "position", None)
        if isinstance(pos, int) and 0 <= pos <= len(text):
            line = text.count("\n", 0, pos) + 1
            span = Span(file, line, pos - (text.rfind("\n", 0, pos) + 1) + 1)
        reason = getattr(exc, "reason", None)
        char = getattr(exc, "character", None)
        what = f"{reason}: character {ord(char) if isinstance(char, str) else char:#06x}" \
            if reason and char is not None else str(exc).split("\n")[0]
        raise RulekitError(error(span, "E002", f"YAML error: {what}")) from None
    except RecursionError:  # pragma: no cover - the builder is iterative
        raise RulekitError(error(Span(file, 1, 1), "E004", f"nesting deeper than {MAX_DEPTH} levels")) from None
    errs.raise_if_any()
    return out


def read_file(path: str) -> Source:
    """Read and parse a YAML file within the size limit."""
    display = os.path.relpath(path) if not path.startswith("<") else path
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            what = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
            raise RulekitError(error(Span(display, 0, 0), "E001", f"cannot read file: {what}; expected a "
                                     "YAML text file"))
        if st.st_size > MAX_FILE_BYTES:
            raise RulekitError(error(Span(display, 1, 1), "E004",
                                     f"file is {st.st_size} bytes; the limit is {MAX_FILE_BYTES}"))
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)  # never more, whatever the file claims to be
    except OSError as exc:
        raise RulekitError(error(Span(display, 0, 0), "E001", f"cannot read file: {exc.strerror}")) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulekitError(error(Span(display, 1, 1), "E004", f"file is more than {MAX_FILE_BYTES} bytes; the "
                                 f"limit is {MAX_FILE_BYTES}"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RulekitError(error(Span(display, line, col), "E001",
                                 "file is not UTF-8 text: expected UTF-8, found byte "
                                 f"0x{raw[exc.start]:02x}")) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise RulekitError(error(Span(display, line, 1), "E001", "file contains NUL bytes; expected text"))
    return parse_text(text, display)


def expr_span(span: Span, style: str, offset: int, length: int = 1) -> Span:
    """Where character `offset` of a scalar's text stands in the file (exact for one-line scalars)."""
    if style in ("'", '"'):
        return Span(span.file, span.line, span.col + 1 + offset, length)
    if style in ("|", ">"):
        from rulekit.core.errors import LINE_CACHE
        lines = LINE_CACHE.get(span.file, [])
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
