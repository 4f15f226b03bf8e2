"""Running a parsed expression (`expr.py`) on a character's values: each tree is compiled once
into Python closures, then called for every character.

Reading a value of `none` (`armour.name` without armour) gives none rather than an error, so
`armour.bonus if armour else 0` and `per_class.spellbook.table` need no guards. Any other
mistake (adding a text to a number, a key a record lacks) is an `EvalError` naming the part of
the expression that failed; the step that ran it says where in the recipe it is.
"""

from __future__ import annotations

import operator
from fractions import Fraction
from typing import Any, Callable

from printshop.roll.recipe.expr import Node
from printshop.roll.recipe.values import Record, describe

CTX = "\x00ctx"   # the roll's context (tables, generator) travels in the values


class EvalError(Exception):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


Compiled = Callable[[dict], Any]


def compile_node(node: Node, functions: dict) -> Compiled:
    kind = node.kind
    if kind == "const":
        value = node.value
        return lambda env: value
    if kind == "name":
        name = node.value
        offset = node.offset

        def read(env):
            try:
                return env[name]
            except KeyError:
                raise EvalError(f"'{name}' has no value yet", offset) from None
        return read
    if kind == "attr":
        return _attr(compile_node(node.args[0], functions), node.value, node.offset)
    if kind == "index":
        return _index(compile_node(node.args[0], functions),
                      compile_node(node.args[1], functions), node.offset)
    if kind == "call":
        function = functions[node.value]
        args = [compile_node(a, functions) for a in node.args]
        name, offset = node.value, node.offset

        def call(env):
            try:
                return function(env[CTX], *[a(env) for a in args])
            except EvalError:
                raise
            except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError) as exc:
                raise EvalError(f"{name}(): {exc}", offset) from None
        return call
    if kind == "unary":
        operand = compile_node(node.args[0], functions)
        negate = node.value == "-"
        offset = node.offset

        def unary(env):
            value = operand(env)
            if not _is_number(value):
                raise EvalError(f"'{node.value}' needs a number, not {describe(value)}", offset)
            return -value if negate else +value
        return unary
    if kind == "binary":
        return _binary(node.value, compile_node(node.args[0], functions),
                       compile_node(node.args[1], functions), node.offset)
    if kind == "compare":
        return _compare(node.extra, [compile_node(a, functions) for a in node.args],
                        node.offset)
    if kind == "and":
        left, right = (compile_node(a, functions) for a in node.args)
        return lambda env: left(env) and right(env)
    if kind == "or":
        left, right = (compile_node(a, functions) for a in node.args)
        return lambda env: left(env) or right(env)
    if kind == "not":
        operand = compile_node(node.args[0], functions)
        return lambda env: not operand(env)
    if kind == "if":
        condition, yes, no = (compile_node(a, functions) for a in node.args)
        return lambda env: yes(env) if condition(env) else no(env)
    if kind == "list":
        items = [compile_node(a, functions) for a in node.args]
        return lambda env: [item(env) for item in items]
    if kind == "record":
        keys = node.extra
        values = [compile_node(a, functions) for a in node.args]
        return lambda env: Record(zip(keys, [v(env) for v in values]))
    if kind in ("listcomp", "recordcomp"):
        return _comprehension(node, functions)
    raise AssertionError(kind)


def _is_number(value) -> bool:
    return isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)


def get_attribute(value, name: str, offset: int = 0):
    if value is None:
        return None
    if isinstance(value, dict):
        if name in value:
            return value[name]
        if isinstance(value, Record) and name in ("roll", "rolls") and value.rolls:
            return value.rolls[-1] if name == "roll" else list(value.rolls)
        keys = ", ".join(str(k) for k in list(value)[:12])
        raise EvalError(f"{describe(value)} has no '{name}' (it has {keys})", offset)
    if name in ("total", "faces", "kept", "dice", "hits", "crits") and \
            hasattr(value, name) and isinstance(value, int):
        attr = getattr(value, name)
        return list(attr) if isinstance(attr, tuple) else attr
    raise EvalError(f"'.{name}' of {describe(value)}: only records have named parts", offset)


def _attr(target: Compiled, name: str, offset: int) -> Compiled:
    def attr(env):
        return get_attribute(target(env), name, offset)
    return attr


def _index(target: Compiled, key: Compiled, offset: int) -> Compiled:
    def index(env):
        value, k = target(env), key(env)
        if value is None:
            return None
        if isinstance(value, dict):
            if k in value:
                return value[k]
            raise EvalError(f"{describe(value)} has no '{k}'", offset)
        if isinstance(value, (list, tuple, str)):
            if not isinstance(k, int) or isinstance(k, bool):
                raise EvalError(f"a list's place is a whole number, not {describe(k)}", offset)
            if -len(value) <= k < len(value):
                return value[k]
            return None   # past the end: nothing there
        raise EvalError(f"cannot look inside {describe(value)} with [ ]", offset)
    return index


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul,
               "//": operator.floordiv, "%": operator.mod}


def _binary(op: str, left: Compiled, right: Compiled, offset: int) -> Compiled:
    def binary(env):
        a, b = left(env), right(env)
        if op == "+" and isinstance(a, str) and isinstance(b, str):
            return a + b
        if op == "+" and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return list(a) + list(b)
        if not (_is_number(a) and _is_number(b)):
            also = " (or two texts, two lists)" if op == "+" else ""
            raise EvalError(f"'{op}' needs two numbers{also}, "
                            f"not {describe(a)} and {describe(b)}", offset)
        if op in ("/", "//", "%") and b == 0:
            raise EvalError(f"'{op}' by zero", offset)
        if op == "/":
            result = Fraction(a) / Fraction(b)
        else:
            result = _ARITHMETIC[op](a, b)
        if isinstance(result, Fraction) and result.denominator == 1:
            return int(result)
        if isinstance(result, int):
            return int(result)   # a roll's total, not the roll
        return result
    return binary


def _contains(container, item, offset: int) -> bool:
    if container is None:
        return False
    if isinstance(container, str):
        if not isinstance(item, str):
            return False
        return item in container
    if isinstance(container, (list, tuple, dict)):
        return item in container
    raise EvalError(f"'in' needs a list, a record or a text, not {describe(container)}", offset)


def _compare(ops, operands: list[Compiled], offset: int) -> Compiled:
    def compare(env):
        left = operands[0](env)
        for op, operand in zip(ops, operands[1:]):
            right = operand(env)
            if op == "==":
                ok = left == right
            elif op == "!=":
                ok = left != right
            elif op == "in":
                ok = _contains(right, left, offset)
            elif op == "not in":
                ok = not _contains(right, left, offset)
            else:
                if not ((_is_number(left) and _is_number(right)) or
                        (isinstance(left, str) and isinstance(right, str))):
                    raise EvalError(f"'{op}' compares two numbers or two texts, not "
                                    f"{describe(left)} and {describe(right)}", offset)
                ok = {"<": left < right, "<=": left <= right, ">": left > right,
                      ">=": left >= right}[op]
            if not ok:
                return False
            left = right
        return True
    return compare


def _comprehension(node: Node, functions: dict) -> Compiled:
    loop = node.extra
    iterable = compile_node(loop.iterable, functions)
    condition = compile_node(loop.condition, functions) if loop.condition else None
    parts = [compile_node(a, functions) for a in node.args]
    variables = loop.variables
    offset = node.offset
    is_record = node.kind == "recordcomp"

    def run(env):
        source = iterable(env)
        if source is None:
            source = []
        if isinstance(source, dict):
            items = list(source.items()) if len(variables) == 2 else list(source)
        elif isinstance(source, (list, tuple)):
            items = list(source)
            if len(variables) == 2:
                items = list(enumerate(items))
        else:
            raise EvalError(f"'for … in' needs a list or a record, not {describe(source)}",
                            offset)
        local = dict(env)
        out: Any = Record() if is_record else []
        for item in items:
            if len(variables) == 2:
                local[variables[0]], local[variables[1]] = item
            else:
                local[variables[0]] = item
            if condition is not None and not condition(local):
                continue
            if is_record:
                out[parts[0](local)] = parts[1](local)
            else:
                out.append(parts[0](local))
        return out
    return run
