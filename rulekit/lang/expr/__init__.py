"""The expression language: parse, check and compile once; evaluate many times."""
from rulekit.lang.expr.compiler import compile_expr
from rulekit.lang.expr.scope import CompileError, Compiled, Global, Problem, Scope
from rulekit.lang.expr.functions import REGISTRY, EvalError
from rulekit.lang.expr.parser import ExprSyntaxError, parse

__all__ = ["CompileError", "Compiled", "Global", "Problem", "Scope", "compile_expr", "REGISTRY",
           "EvalError", "ExprSyntaxError", "parse"]
