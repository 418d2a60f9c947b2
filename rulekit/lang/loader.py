"""Resolve `extends:` (child over parent, deep merge keyed by id) keeping provenance."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from rulekit.core.paths import PROJECT_ROOT
from rulekit.core.errors import RulekitError, Span, did_you_mean, error
from rulekit.lang.source import MAX_VARIANT_VALUES, Source, read_file

MAX_EXTENDS_DEPTH = 8


@dataclass
class Node:
    """A value with the span it came from (and the span of its key, for mappings)."""

    value: Any  # dict[str, Node] | list[Node] | scalar
    span: Span
    key_span: Span | None = None
    style: str = ""
    # a list item a child file added without `before:`/`after:`: the id of the inherited item it
    # then follows (validate warns when such a phase shares state with the phases before it)
    appended_after: str = ""
    # on a merged file's root: the names its `remove: true` entries removed, with where (lang.removals)
    removals: tuple[Any, ...] = ()


def annotate(src: Source, data: Any = None, path: tuple[Any, ...] = ()) -> Node:
    """Wrap parsed data in Nodes carrying spans."""
    if path == ():
        data = src.data
    span = src.span(path)
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            child = annotate(src, v, path + (k,))
            child.key_span = src.key_spans.get(path + (k,), child.span)
            out[k] = child
        return Node(out, span, style="")
    if isinstance(data, list):
        return Node([annotate(src, v, path + (i,)) for i, v in enumerate(data)], span)
    return Node(data, span, style=src.styles.get(path, ""))


def _is_removal(node: Node) -> bool:
    v = node.value
    return isinstance(v, dict) and len(v) == 1 and "remove" in v and v["remove"].value is True


def _first_removal(node: Node) -> Node | None:
    """The first `name: {remove: true}` anywhere below `node` (meaningless in a file that extends nothing)."""
    if isinstance(node.value, dict):
        for v in node.value.values():
            found = v if _is_removal(v) else _first_removal(v)
            if found is not None:
                return found
    elif isinstance(node.value, list):
        for v in node.value:
            found = _first_removal(v)
            if found is not None:
                return found
    return None


PLACEMENT = ("before", "after")


def _placement(item: Node) -> tuple[Node, str, Node | None]:
    """An item without its `before:`/`after:` key, the word given ('' if none) and its value node."""
    d = item.value
    given = [w for w in PLACEMENT if w in d]
    if not given:
        return item, "", None
    if len(given) > 1:
        raise RulekitError(error(d["after"].key_span or d["after"].span, "E040",
                                 "give before: or after:, not both", hint="an item goes in one place"))
    word = given[0]
    rest = Node({k: v for k, v in d.items() if k != word}, item.span, item.key_span, item.style)
    return rest, word, d[word]


def _first_placement(node: Node) -> Node | None:
    """The key node of the first `before:`/`after:` of an item of a keyed list below `node`."""
    if isinstance(node.value, list):
        if _keyed(node.value):
            for item in node.value:
                for w in PLACEMENT:
                    if w in item.value:
                        placed: Node = item.value[w]
                        return placed
        for v in node.value:
            found = _first_placement(v)
            if found is not None:
                return found
    elif isinstance(node.value, dict):
        for v in node.value.values():
            found = _first_placement(v)
            if found is not None:
                return found
    return None


def _keyed(items: list[Node]) -> bool:
    # ids must be plain names to merge by (a list or a mapping given as an id is left to the schema)
    return bool(items) and all(isinstance(i.value, dict) and "id" in i.value
                               and isinstance(i.value["id"].value, (str, int, bool)) for i in items)


def merge(parent: Node, child: Node, strict: bool = True) -> Node:
    """Child over parent: maps merge key by key; lists of items with `id` merge by id.

    `strict`: removing an item the parent does not have is an error (house-rule overlays
    check that themselves, with their own messages).
    """
    if isinstance(parent.value, dict) and isinstance(child.value, dict):
        out = dict(parent.value)
        for k, v in child.value.items():
            if _is_removal(v):
                # `name: {remove: true}` drops an inherited entry (an option, zone, preset ...)
                if k not in out:
                    raise RulekitError(error(v.key_span or v.span, "E040",
                                             f"'{k}': remove: true, but nothing of that name is inherited here",
                                             hint=did_you_mean(str(k), [str(x) for x in out])))
                out.pop(k)
                continue
            out[k] = merge(out[k], v, strict) if k in out else v
        return Node(out, child.span, child.key_span)
    if isinstance(parent.value, list) and isinstance(child.value, list) and _keyed(parent.value) \
            and _keyed(child.value):
        order = [i.value["id"].value for i in parent.value]
        by_id = {i.value["id"].value: i for i in parent.value}
        last = str(order[-1]) if order else ""
        for item in child.value:
            iid = item.value["id"].value
            if "remove" in item.value and item.value["remove"].value is True:
                if iid not in by_id and strict:
                    raise RulekitError(error(item.value["id"].span, "E040",
                                             f"'{iid}': remove: true, but no item with this id is inherited",
                                             hint=did_you_mean(str(iid), [str(x) for x in by_id])))
                by_id.pop(iid, None)
                continue
            item, word, target = _placement(item)
            if iid in by_id:
                by_id[iid] = merge(by_id[iid], item, strict)
            else:
                by_id[iid] = item
                if not word and iid not in order:
                    order.append(iid)
                    item.appended_after = last
            if word and target is not None:
                order = [i for i in order if i in by_id and i != iid]
                order.insert(_place_at(order, iid, word, target), iid)
        return Node([by_id[i] for i in order if i in by_id], child.span, child.key_span)
    return child


def _place_at(order: list[Any], iid: Any, word: str, target: Node) -> int:
    """Where `before: X`/`after: X` puts item `iid` in `order` (the ids so far, without it)."""
    want = str(target.value) if isinstance(target.value, (str, int, bool)) else None
    ids = [str(i) for i in order]
    if want == str(iid):
        raise RulekitError(error(target.span, "E040", f"'{iid}': {word}: names the item itself",
                                 hint="name another item of the list"))
    if want is None or want not in ids:
        found = "nothing" if want is None else f"'{want}'"
        raise RulekitError(error(target.span, "E040", f"'{iid}': {word}: expected the id of an item of this "
                                 f"list, found {found}",
                                 hint=did_you_mean(str(want), ids) or f"ids here: {', '.join(ids[:12])}"))
    at_ = ids.index(want)
    return at_ if word == "before" else at_ + 1


def removal_spans(node: Node) -> list[tuple[str, Span]]:
    """Every `name: {remove: true}` and `{id: name, remove: true}` below a file's tree: (name, where)."""
    out: list[tuple[str, Span]] = []
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n.value, dict):
            if "remove" in n.value and "id" in n.value and n.value["remove"].value is True:
                out.append((str(n.value["id"].value), n.value["id"].span))
            for k, v in n.value.items():
                if isinstance(v.value, dict) and set(v.value) == {"remove"} and v.value["remove"].value is True:
                    out.append((str(k), v.key_span or v.span))
                else:
                    todo.append(v)
        elif isinstance(n.value, list):
            todo.extend(n.value)
    return out


def plain(node: Node) -> Any:
    """Strip spans: Node tree -> plain data."""
    if isinstance(node.value, dict):
        return {k: plain(v) for k, v in node.value.items()}
    if isinstance(node.value, list):
        return [plain(v) for v in node.value]
    return node.value


def at(node: Node, *path: Any) -> Node | None:
    """The node at a path below `node`, or None."""
    for p in path:
        nxt: Node | None
        if isinstance(node.value, dict) and isinstance(p, str):
            nxt = node.value.get(p)
        elif isinstance(node.value, list) and isinstance(p, int) and 0 <= p < len(node.value):
            nxt = node.value[p]
        else:
            return None
        if nxt is None:
            return None
        node = nxt
    return node


SEARCH_ENV = "RULEKIT_PATH"


def default_search_path() -> list[str]:
    """Folders searched for a variant named by id, in order: those of the RULEKIT_PATH
    environment variable (separated as PATH is), ./variants, and the package's variants."""
    extra = [f for f in os.environ.get(SEARCH_ENV, "").split(os.pathsep) if f.strip()]
    return [os.path.abspath(f) for f in extra] + [os.path.join(os.getcwd(), "variants"),
                                                  os.path.join(PROJECT_ROOT, "variants")]


def command_name(vid: str, path: str) -> str:
    """How a user names this variant on the command line: its id where the search path finds
    this very file by it, else its path (relative to where the user stands)."""
    found = find_variant(vid, None, default_search_path()) if vid else None
    if found is not None and os.path.realpath(found) == os.path.realpath(path):
        return vid
    rel = os.path.relpath(path)
    return os.path.abspath(path) if rel.startswith(os.path.join("..", "..")) else rel


def find_variant(name: str, relative_to: str | None, search: list[str]) -> str | None:
    """Resolve a variant reference: a path (relative to the referring file) or an id."""
    if name.endswith((".yaml", ".yml")):
        base = os.path.dirname(relative_to) if relative_to else os.getcwd()
        cand = os.path.normpath(os.path.join(base, name))
        return cand if os.path.isfile(cand) else None
    for folder in search:
        if not os.path.isdir(folder):
            continue
        for root, _dirs, files in os.walk(folder):
            for f in files:
                if f in (f"{name}.yaml", f"{name}.yml"):
                    return os.path.join(root, f)
    return None


def all_variant_ids(search: list[str]) -> list[str]:
    out = []
    for folder in search:
        if os.path.isdir(folder):
            for _root, _dirs, files in os.walk(folder):
                out += [os.path.splitext(f)[0] for f in files if f.endswith((".yaml", ".yml"))]
    return out


def _nearby_files(name: str, relative_to: str) -> list[str]:
    """Variant files next to where a relative `extends` path points, spelt as that path would be."""
    sub = os.path.dirname(name)
    folder = os.path.join(os.path.dirname(relative_to), sub) or "."
    try:
        files = sorted(os.listdir(folder))
    except OSError:
        return []
    return [os.path.join(sub, f) if sub else f for f in files if f.endswith((".yaml", ".yml"))]


def _allowed(path: str, roots: list[str]) -> bool:
    real = os.path.realpath(path)
    return any(real == os.path.realpath(r) or real.startswith(os.path.realpath(r) + os.sep) for r in roots)


def check_values(src: Source) -> None:
    """A variant or house-rule file holds at most MAX_VARIANT_VALUES values (validation time is bounded)."""
    if src.values > MAX_VARIANT_VALUES:
        raise RulekitError(error(Span(src.file, 1, 1), "E004", f"the file holds {src.values} values: a variant or "
                                 f"house-rule file may hold at most {MAX_VARIANT_VALUES}"))


def load_tree(path: str, search: list[str] | None = None, _chain: tuple[str, ...] = ()) -> tuple[Node, list[str]]:
    """Load a variant file with its `extends` chain merged; returns the tree and the files used."""
    search = search if search is not None else default_search_path()
    src = read_file(path)
    check_values(src)
    tree = annotate(src)
    if not isinstance(tree.value, dict):
        raise RulekitError(error(tree.span, "E010", "a variant file must be a mapping of keys "
                                 "(id, meta, players, ...), found " + type(src.data).__name__))
    files = [path]
    ext = tree.value.get("extends")
    if ext is None:
        gone = _first_removal(tree)
        if gone is not None:
            raise RulekitError(error(gone.key_span or gone.span, "E040", "remove: true deletes an inherited entry, "
                                     "but this variant extends no other"))
        placed = _first_placement(tree)
        if placed is not None:
            raise RulekitError(error(placed.key_span or placed.span, "E040", "before:/after: place an item among "
                                     "inherited ones, but this variant extends no other",
                                     hint="write the items in the order they go"))
        return tree, files
    if not isinstance(ext.value, str) or not ext.value.strip() or not ext.value.isprintable():
        raise RulekitError(error(ext.span, "E010", "extends: expected a variant id or a relative .yaml path"))
    real = os.path.realpath(path)
    chain = _chain + (real,)
    if len(chain) > MAX_EXTENDS_DEPTH:
        raise RulekitError(error(ext.span, "E022", f"extends chain deeper than {MAX_EXTENDS_DEPTH} files"))
    roots = search + [os.path.dirname(os.path.abspath(path))]
    if ext.value.endswith((".yaml", ".yml")) and not _allowed(
            os.path.join(os.path.dirname(os.path.abspath(path)), ext.value), roots):
        # checked before looking: whether a file exists out there (and its neighbours' names) is no one's business
        raise RulekitError(error(ext.span, "E022", f"extends: '{ext.value}' is outside the allowed folders"))
    parent_path = find_variant(ext.value, path, search)
    if parent_path is None:
        raise RulekitError(error(ext.span, "E020", f"extends: no variant '{ext.value}' found",
                                 hint=did_you_mean(ext.value, _nearby_files(ext.value, path)
                                                   if ext.value.endswith((".yaml", ".yml"))
                                                   else all_variant_ids(search))))
    if not _allowed(parent_path, roots):
        raise RulekitError(error(ext.span, "E022", f"extends: '{ext.value}' is outside the allowed folders"))
    if os.path.realpath(parent_path) in chain:
        names = " -> ".join(os.path.basename(c) for c in chain + (os.path.realpath(parent_path),))
        raise RulekitError(error(ext.span, "E021", f"extends: cycle {names}"))
    parent, pfiles = load_tree(parent_path, search, chain)
    merged = merge(parent, tree)
    # a child is never abstract because its parent is
    if "abstract" not in tree.value and "abstract" in merged.value:
        merged.value.pop("abstract")
    merged.value.pop("extends", None)
    merged.removals = tuple(removal_spans(tree)) + parent.removals
    return merged, files + pfiles
