"""Make the Python function of a checked expression from the code rulekit.lang.expr.codegen writes.

Each distinct source is compiled once (`compile_cached`) and run once to get its maker, which binds
an expression's constants; the fast code falls back to the located code, generated only when first
needed (`Located`), so every failure is an EvalError placed in the rule's text.
"""
from __future__ import annotations

from typing import Any, Callable, cast

from rulekit.lang.expr import ast
from rulekit.lang.expr.codegen import MAX_SOURCE, CodeGen, Info, Unsupported
from rulekit.lang.expr.fastcode import FastCode
from rulekit.lang.expr.helpers import FAST_ERRORS, HELPERS, SAFE_BUILTINS
from rulekit.lang.expr.scope import Fn, Root, Scope
from rulekit.lang.expr.treefacts import fresh_list

__all__ = ["Fast", "Located", "Plain", "compile_cached", "generate", "regenerate"]


def regenerate(code: FastCode, memo: dict[str, int]) -> tuple[str, tuple[Any, ...]] | None:
    """The body and constants of a generated expression again, with the calls named in `memo`
    computed once per evaluation of the function it is put in (yaku tables repeat them)."""
    if code.node is None or code.scope is None:
        return None  # made without its tree (nothing to write again)
    gen = CodeGen(code.info or {}, code.names or {}, code.scope)
    gen.memo = memo
    try:
        return gen.g(code.node), tuple(gen.consts)
    except (Unsupported, RecursionError):
        return None


def _source(gen: CodeGen, body: str, kind: str) -> str:
    """The module text making one function of an expression from its constants: `fast` (which
    runs `SLOW`, its located code, when it fails), `plain` (the fast code alone, for tests) or
    `located`."""
    kparams = "".join(f"K{i}, " for i in range(len(gen.consts)))
    subs = "".join(f"    def {name}({params}):\n        return {code}\n" for name, params, code in gen.subs)
    if kind != "fast":
        return (f"def _make({kparams}):\n{subs}"
                f"    def {kind}(ctx):\n"
                f"        L = ctx.loc\n"
                f"        return {body}\n"
                f"    return {kind}\n")
    return (f"def _make({kparams}SLOW, ERRS):\n{subs}"
            f"    def fast(ctx):\n"
            f"        L = ctx.loc\n"
            f"        try:\n"
            f"            return {body}\n"
            f"        except ERRS:\n"
            f"            return SLOW(ctx)\n"
            f"    return fast\n")


_MAKERS: dict[str, Callable[..., Fn]] = {}  # source -> its _make(): expressions of one shape share it


def _build(src: str, consts: list[Any], *extra: Any) -> Fn:
    """The function `src` makes from these constants (compiled and run once per distinct source)."""
    make = _MAKERS.get(src)
    if make is None:
        code = compile_cached(src, "<rulekit expression>")
        if code is None:  # pragma: no cover - the generator nests no deeper than Python allows
            raise RecursionError("generated code refused")
        namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **HELPERS}
        exec(code, namespace)  # noqa: S102 - source made only of this module's tokens (see docstring)
        make = namespace["_make"]
        if len(_MAKERS) >= _CODE_CACHE_SIZE:
            _MAKERS.clear()
        _MAKERS[src] = make
    fn: Fn = make(*consts, *extra)
    fn.source = src  # type: ignore[attr-defined]  # for tests, debugging and `show --compiled`
    return fn


class Located:
    """The located code of an expression, generated the first time it is needed (after the
    fast code failed): it raises the failure as an EvalError placed in the expression text."""

    def __init__(self, node: ast.Node, info: Info, names: dict[int, str], scope: Scope, root: Root | None):
        self.args = (node, info, names, scope, root)
        self.fn: Fn | None = None

    def __call__(self, ctx: Any) -> Any:
        if self.fn is None:
            node, info, names, scope, root = self.args
            gen = CodeGen(info, names, scope, root, located=True)
            body = gen.g(node)
            self.fn = _build(_source(gen, body, "located"), gen.consts)
        return self.fn(ctx)


class Fast:
    """The fast code of an expression (falling back to its located code `slow`), compiled from
    its source the first time it is called; `__code__` and `__closure__` are those of the
    function it makes (`rulekit show --compiled` lists its constants)."""

    def __init__(self, src: str, consts: list[Any], slow: Located):
        self.source, self.consts, self.slow = src, consts, slow
        self.fn: Fn | None = None
        self.__qualname__ = "_make.<locals>.fast"  # as the function it makes is named (listings say it)

    def made(self) -> Fn:
        """The compiled function (compiled now if it is not yet)."""
        if self.fn is None:
            try:
                self.fn = _build(self.source, self.consts, self.slow, FAST_ERRORS)
            except RecursionError:  # pragma: no cover - not written so (no helpers, MAX_SOURCE at most)
                self.fn = self.slow  # a source Python refuses runs as its located code, which is cut up
        return self.fn

    def __call__(self, ctx: Any) -> Any:
        fn = self.fn
        if fn is None:
            fn = self.made()
        return fn(ctx)

    @property
    def __code__(self) -> Any:
        return self.made().__code__

    @property
    def __closure__(self) -> Any:
        return self.made().__closure__


class Plain:
    """The fast code of an expression without its fall-back to the located code (tests run it to
    see that the fast code alone gives the value); compiled the first time it is called."""

    def __init__(self, gen: CodeGen, body: str):
        self.src, self.consts = _source(gen, body, "plain"), gen.consts
        self.fn: Fn | None = None

    def __call__(self, ctx: Any) -> Any:
        if self.fn is None:
            self.fn = _build(self.src, self.consts)
        return self.fn(ctx)


def generate(node: ast.Node, info: Info, names: dict[int, str], scope: Scope, root: Root | None,
             lazy: bool = False) -> Fn:
    """The function evaluating `node`: fast code that, when it fails, runs the located code (its
    `.slow`), so every error is an EvalError placed in the text. It carries `.fastcode` (what a
    phase's generated code needs to write it inline) unless it is too big or cut into helpers.
    `lazy` (for an expression a phase's code writes inline, so seldom called on its own): the
    function is a `Fast`, compiled the first time it is called."""
    gen = CodeGen(info, names, scope)
    body = gen.g(node)
    if gen.subs and gen.hoists:  # helper functions cannot see the expression's temporaries
        gen = CodeGen(info, names, scope)
        gen.hoists = None
        body = gen.g(node)
    body = gen.with_hoists(body)
    slow = Located(node, info, names, scope, root)
    inline = not gen.subs and len(body) <= MAX_SOURCE
    src = _source(gen, body, "fast")
    # (a source compiled before costs no compile: its function is made now)
    fn: Any = Fast(src, gen.consts, slow) if lazy and inline and scope.codegen and src not in _MAKERS \
        else _build(src, gen.consts, slow, FAST_ERRORS)
    fn.slow = slow
    fn.plain = Plain(gen, body)
    if inline:
        fn.fastcode = FastCode(body, tuple(gen.consts), slow, node, info, names, scope, fresh_list(node, info))
    return cast(Fn, fn)


_CODE_CACHE: dict[str, Any] = {}
_CODE_CACHE_SIZE = 4096


def compile_cached(src: str, filename: str) -> Any:
    """Python's compile() of generated source, remembered by its text (which holds no constants,
    so one entry serves every expression of the same shape); None if Python refuses it."""
    code = _CODE_CACHE.get(src)
    if code is None:
        try:
            code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None
        if len(_CODE_CACHE) >= _CODE_CACHE_SIZE:
            _CODE_CACHE.clear()
        _CODE_CACHE[src] = code
    return code
