"""Recipe expressions: a small, safe subset of Python's expression syntax, parsed here (never
`eval`). `hp: max(1, dice_max(class.hit_die) + mods.CON)`.

What it reads: numbers (`3`, `-1`, `0.5`), strings (`'text'` or `"text"`), `true`, `false`,
`none`, names of values, `a.b` and `a[b]`, calls of printshop's functions (`functions.py`),
`+ - * / // %`, comparisons (`== != < <= > >=`, `in`, `not in`, chained like `1 <= x <= 6`),
`and or not`, `a if cond else b`, lists `[a, b]`, records `{name: a, bonus: b}`, and
comprehensions `[r.skill for r in picked if r.stat == 'INT']`,
`{s: lookup('stat-modifiers', stats[s]).mod for s in stats}`.

`parse` gives a tree of `Node`s; a problem is an `ExprError` with the offset where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

MAX_LENGTH = 2000
MAX_DEPTH = 60


class ExprError(Exception):
    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass
class Node:
    kind: str            # const name attr index call unary binary compare and or not if
                         # list record listcomp recordcomp
    offset: int
    # what these hold depends on the kind (so: Any)
    value: Any = None                # const: the value; name/attr: the name; call: function
    args: list = field(default_factory=list)
    extra: Any = None                # ops of compare; keys of record; loop of comprehension

    def names(self) -> set[str]:
        """The value names this expression reads (loop variables excluded)."""
        found: set[str] = set()
        _free_names(self, set(), found)
        return found


@dataclass(frozen=True)
class Loop:
    variables: tuple[str, ...]
    iterable: Node
    condition: Node | None


_TOKEN_RE = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>\d+(?:\.\d+)?)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>//|==|!=|<=|>=|[-+*/%<>()\[\]{}.,:])
""", re.VERBOSE)
KEYWORDS = {"and", "or", "not", "in", "if", "else", "for", "true", "false", "none", "True",
            "False", "None"}
CONSTANTS = {"true": True, "false": False, "none": None, "True": True, "False": False,
             "None": None}
COMPARE = ("==", "!=", "<", "<=", ">", ">=", "in", "not in")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    offset: int


def tokenize(text: str) -> list[Token]:
    tokens, offset = [], 0
    while offset < len(text):
        match = _TOKEN_RE.match(text, offset)
        if match is None:
            raise ExprError(f"'{text[offset]}' is not part of an expression", offset)
        kind = match.lastgroup or ""
        if kind != "space":
            word = match.group()
            if kind == "name" and word in KEYWORDS:
                kind = "keyword"
            tokens.append(Token(kind, word, offset))
        offset = match.end()
    tokens.append(Token("end", "", len(text)))
    return tokens


def parse(text) -> Node:
    """The expression `text` as a tree. Raises ExprError (message, offset)."""
    text = str(text)
    if len(text) > MAX_LENGTH:
        raise ExprError(f"longer than {MAX_LENGTH} characters: split it into steps")
    if not text.strip():
        raise ExprError("empty expression")
    return _Parser(text).whole()


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.tokens = tokenize(text)
        self.at = 0
        self.depth = 0

    # --- tokens --------------------------------------------------------------------------
    @property
    def token(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def is_(self, text: str) -> bool:
        return self.token.text == text and self.token.kind in ("op", "keyword")

    def expect(self, text: str, what: str) -> Token:
        if not self.is_(text):
            found = f"'{self.token.text}'" if self.token.kind != "end" else "the end"
            raise ExprError(f"expected '{text}' {what}, found {found}", self.token.offset)
        return self.take()

    def whole(self) -> Node:
        node = self.expression()
        if self.token.kind != "end":
            raise ExprError(f"unexpected '{self.token.text}' (an operator or a comma "
                            "missing?)", self.token.offset)
        return node

    # --- grammar, loosest first --------------------------------------------------------------
    def expression(self) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError("nested too deeply", self.token.offset)
        try:
            node = self.disjunction()
            if self.is_("if"):
                offset = self.take().offset
                condition = self.disjunction()
                self.expect("else", "(a if condition else b)")
                otherwise = self.expression()
                node = Node("if", offset, args=[condition, node, otherwise])
            return node
        finally:
            self.depth -= 1

    def disjunction(self) -> Node:
        node = self.conjunction()
        while self.is_("or"):
            offset = self.take().offset
            node = Node("or", offset, args=[node, self.conjunction()])
        return node

    def conjunction(self) -> Node:
        node = self.negation()
        while self.is_("and"):
            offset = self.take().offset
            node = Node("and", offset, args=[node, self.negation()])
        return node

    def negation(self) -> Node:
        if self.is_("not"):
            offset = self.take().offset
            return Node("not", offset, args=[self.negation()])
        return self.comparison()

    def comparison(self) -> Node:
        first = self.sum()
        ops, operands = [], [first]
        while True:
            token = self.token
            if token.kind == "op" and token.text in ("==", "!=", "<", "<=", ">", ">="):
                ops.append(self.take().text)
            elif self.is_("in"):
                self.take()
                ops.append("in")
            elif self.is_("not") and self.tokens[self.at + 1].text == "in":
                self.take()
                self.take()
                ops.append("not in")
            else:
                break
            operands.append(self.sum())
        if not ops:
            return first
        return Node("compare", first.offset, args=operands, extra=tuple(ops))

    def sum(self) -> Node:
        node = self.term()
        while self.token.kind == "op" and self.token.text in ("+", "-"):
            token = self.take()
            node = Node("binary", token.offset, value=token.text, args=[node, self.term()])
        return node

    def term(self) -> Node:
        node = self.unary()
        while self.token.kind == "op" and self.token.text in ("*", "/", "//", "%"):
            token = self.take()
            node = Node("binary", token.offset, value=token.text, args=[node, self.unary()])
        return node

    def unary(self) -> Node:
        if self.token.kind == "op" and self.token.text in ("-", "+"):
            token = self.take()
            operand = self.unary()
            if operand.kind == "const" and isinstance(operand.value, (int, float)) and \
                    not isinstance(operand.value, bool):
                return Node("const", token.offset,
                            value=-operand.value if token.text == "-" else operand.value)
            return Node("unary", token.offset, value=token.text, args=[operand])
        return self.postfix()

    def postfix(self) -> Node:
        node = self.atom()
        while True:
            if self.is_("."):
                self.take()
                token = self.take()
                if token.kind not in ("name", "keyword"):
                    raise ExprError("expected a name after '.'", token.offset)
                if self.is_("("):
                    raise ExprError(f"'.{token.text}(…)': there are no methods; call a "
                                    f"function instead, like {token.text}(x)", token.offset)
                node = Node("attr", token.offset, value=token.text, args=[node])
            elif self.is_("["):
                offset = self.take().offset
                key = self.expression()
                self.expect("]", "to close the '['")
                node = Node("index", offset, args=[node, key])
            elif self.is_("("):
                raise ExprError("only a function's name can be called", self.token.offset)
            else:
                return node

    def atom(self) -> Node:
        token = self.token
        if token.kind == "number":
            self.take()
            value = float(token.text) if "." in token.text else int(token.text)
            return Node("const", token.offset, value=value)
        if token.kind == "string":
            self.take()
            return Node("const", token.offset, value=_unquote(token.text))
        if token.kind == "keyword" and token.text in CONSTANTS:
            self.take()
            return Node("const", token.offset, value=CONSTANTS[token.text])
        if token.kind == "name":
            self.take()
            if self.is_("("):
                return self.call(token)
            return Node("name", token.offset, value=token.text)
        if self.is_("("):
            self.take()
            node = self.expression()
            self.expect(")", "to close the '('")
            return node
        if self.is_("["):
            return self.list_()
        if self.is_("{"):
            return self.record()
        found = f"'{token.text}'" if token.kind != "end" else "the end"
        raise ExprError(f"expected a value, found {found}", token.offset)

    def call(self, name: Token) -> Node:
        self.take()   # (
        args = []
        while not self.is_(")"):
            if self.token.kind == "end":
                raise ExprError(f"expected ')' to close {name.text}(", self.token.offset)
            args.append(self.expression())
            if not self.is_(")") and self.token.kind != "end":
                self.expect(",", "between a function's arguments")
        self.take()
        return Node("call", name.offset, value=name.text, args=args)

    def loop(self) -> Loop:
        self.expect("for", "")
        variables = [self.variable()]
        if self.is_(","):
            self.take()
            variables.append(self.variable())
        self.expect("in", "(for x in list)")
        iterable = self.disjunction()
        condition = None
        if self.is_("if"):
            self.take()
            condition = self.disjunction()
        return Loop(tuple(variables), iterable, condition)

    def variable(self) -> str:
        token = self.take()
        if token.kind != "name":
            raise ExprError("expected a name for the loop's variable", token.offset)
        return token.text

    def list_(self) -> Node:
        offset = self.take().offset
        items = []
        if not self.is_("]"):
            items.append(self.expression())
            if self.is_("for"):
                loop = self.loop()
                self.expect("]", "to close the '['")
                return Node("listcomp", offset, args=[items[0]], extra=loop)
            while self.is_(","):
                self.take()
                if self.is_("]"):
                    break
                items.append(self.expression())
        self.expect("]", "to close the '['")
        return Node("list", offset, args=items)

    def record(self) -> Node:
        offset = self.take().offset
        keys, values = [], []
        if not self.is_("}"):
            key_token = self.token
            key_node = self.expression()
            self.expect(":", "between a key and its value")
            value = self.expression()
            if self.is_("for"):
                loop = self.loop()
                self.expect("}", "to close the '{'")
                return Node("recordcomp", offset, args=[key_node, value], extra=loop)
            keys.append(self._key(key_node, key_token))
            values.append(value)
            while self.is_(","):
                self.take()
                if self.is_("}"):
                    break
                key_token = self.token
                key_node = self.expression()
                self.expect(":", "between a key and its value")
                keys.append(self._key(key_node, key_token))
                values.append(self.expression())
        self.expect("}", "to close the '{'")
        doubled = sorted({k for k in keys if keys.count(k) > 1})
        if doubled:
            raise ExprError(f"key '{doubled[0]}' given twice", offset)
        return Node("record", offset, args=values, extra=tuple(keys))

    @staticmethod
    def _key(node: Node, token: Token) -> str:
        """`{name: x}`: a bare word is the key itself, as in YAML; `{'two words': x}` too."""
        if node.kind == "name":
            return node.value
        if node.kind == "const" and isinstance(node.value, str):
            return node.value
        raise ExprError("a record's key is a word or a quoted text", token.offset)


def _unquote(text: str) -> str:
    body = text[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), body)


def _free_names(node: Node, bound: set[str], found: set[str]) -> None:
    if node.kind == "name":
        if node.value not in bound:
            found.add(node.value)
        return
    if node.kind in ("listcomp", "recordcomp"):
        loop: Loop = node.extra
        _free_names(loop.iterable, bound, found)
        inner = bound | set(loop.variables)
        if loop.condition is not None:
            _free_names(loop.condition, inner, found)
        for arg in node.args:
            _free_names(arg, inner, found)
        return
    for arg in node.args:
        _free_names(arg, bound, found)


def dotted(node: Node) -> tuple[str, ...] | None:
    """`per_class.spellbook.table` → ("per_class", "spellbook", "table"); None if not a path."""
    parts = []
    while node.kind == "attr":
        parts.append(node.value)
        node = node.args[0]
    if node.kind != "name":
        return None
    return (node.value,) + tuple(reversed(parts))
