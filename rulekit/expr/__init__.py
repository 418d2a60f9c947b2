"""The expression language: parse, check and compile once; evaluate many times."""
from .compiler import CompileError, Compiled, Global, Problem, Scope, compile_expr
from .functions import REGISTRY, EvalError
from .parser import ExprSyntaxError, parse

__all__ = ["CompileError", "Compiled", "Global", "Problem", "Scope", "compile_expr", "REGISTRY",
           "EvalError", "ExprSyntaxError", "parse"]
