"""Guards for attributes a card kind lacks: which reads of `c.attr` are known to be safe.

A card of a kind without `rank` has no rank. The checker asks :class:`Guards`
at every read of `c.rank`: if some kind lacks `rank`, the read must stand
where a condition already says that `c` has it, such as

    c has rank and c.rank > 5
    if c.kind == wild then 0 else c.rank
    not is_wild(c) and c.rank > 5            # a define whose body is such a test

A *fact* is a pair (key of an expression, attribute name): "this card has this
attribute". Facts come from conditions that hold (``facts``) or fail
(``negfacts``); the checker assumes them in the right operand of `and`/`or`,
the branches of `if`, the body of a move after its `where`, and so on.
"""

from __future__ import annotations

from contextlib import contextmanager

from ..language import ast as A


def key(e):
    """A comparable key for an expression a guard can talk about, or None."""
    if isinstance(e, A.Name):
        return ("n", e.name)
    if isinstance(e, A.IntLit):
        return ("l", e.value)
    if isinstance(e, A.Attr):
        inner = key(e.obj)
        return None if inner is None else ("a", inner, e.name)
    if isinstance(e, (A.Call, A.Index)):
        parts = [key(a) for a in (e.args if isinstance(e, A.Call) else e.indices)]
        head = e.name if isinstance(e, A.Call) else key(e.obj)
        if head is None or None in parts:
            return None
        return ("c" if isinstance(e, A.Call) else "i", head, *parts)
    return None


def _subst(k, mapping: dict):
    if isinstance(k, tuple):
        if len(k) == 2 and k[0] == "n" and k[1] in mapping:
            return mapping[k[1]]
        return tuple(_subst(x, mapping) for x in k)
    return k


class Guards:
    """The facts known at the point the checker has reached, and the check of one attribute read."""

    def __init__(self, model, report):
        self.model = model
        self.report = report  # report(node, message, hint)
        self.known: frozenset = frozenset()

    # ---- which kinds have what

    def _in_play(self) -> set:
        """The kinds a card of the game can be: those some `cards ... in` declaration deals."""
        return set(self.model.kinds_in_play)

    def _attrs_of(self, kinds) -> frozenset:
        """The attributes every kind in ``kinds`` has."""
        sets = [set(self.model.kinds[k].attributes) for k in kinds if k in self.model.kinds]
        return frozenset(set.intersection(*sets)) if sets else frozenset()

    def lacking(self, attr: str) -> list:
        return [k for k in self.model.kinds if k in self.model.kinds_in_play
                and attr not in self.model.kinds[k].attributes]

    # ---- facts

    def _kind_test(self, e):
        """(key of the card, kinds it is one of) for `x.kind == K` or `x.kind in {K, ...}`, else None."""
        if not isinstance(e, A.BinOp) or e.op not in ("==", "!=", "in", "not in"):
            return None
        left, right = e.left, e.right
        if e.op in ("==", "!=") and isinstance(left, A.Name) and isinstance(right, A.Attr):
            left, right = right, left
        if not (isinstance(left, A.Attr) and left.name == "kind"):
            return None
        k = key(left.obj)
        if k is None:
            return None
        items = right.items if isinstance(right, A.SetLit) and e.op in ("in", "not in") else (right,)
        names = [i.name for i in items if isinstance(i, A.Name) and i.name in self.model.kinds]
        if len(names) != len(items):
            return None
        return k, set(names)

    def facts(self, e, seen=frozenset()) -> frozenset:
        """What holds when ``e`` is true."""
        if isinstance(e, A.Has):
            k = key(e.obj)
            return frozenset({(k, e.name)}) if k is not None else frozenset()
        test = self._kind_test(e)
        if test is not None:
            k, kinds = test
            if e.op in ("!=", "not in"):
                kinds = self._in_play() - kinds
            return frozenset((k, a) for a in self._attrs_of(kinds))
        if isinstance(e, A.BinOp) and e.op == "and":
            return self.facts(e.left, seen) | self.facts(e.right, seen)
        if isinstance(e, A.BinOp) and e.op == "or":
            return self.facts(e.left, seen) & self.facts(e.right, seen)
        if isinstance(e, A.Not):
            return self.negfacts(e.operand, seen)
        return self._via_define(e, seen, self.facts)

    def negfacts(self, e, seen=frozenset()) -> frozenset:
        """What holds when ``e`` is false."""
        test = self._kind_test(e)
        if test is not None:
            k, kinds = test
            if e.op in ("==", "in"):
                kinds = self._in_play() - kinds
            return frozenset((k, a) for a in self._attrs_of(kinds))
        if isinstance(e, A.BinOp) and e.op == "or":
            return self.negfacts(e.left, seen) | self.negfacts(e.right, seen)
        if isinstance(e, A.BinOp) and e.op == "and":
            return self.negfacts(e.left, seen) & self.negfacts(e.right, seen)
        if isinstance(e, A.Not):
            return self.facts(e.operand, seen)
        return self._via_define(e, seen, self.negfacts)

    def _via_define(self, e, seen, how) -> frozenset:
        """Facts of a call to a define: its body's facts, with the arguments put for the parameters."""
        name = e.name if isinstance(e, (A.Call, A.Name)) else None
        d = self.model.defines.get(name) if name else None
        if d is None or name in seen or (isinstance(e, A.Name) and d.params):
            return frozenset()
        args = e.args if isinstance(e, A.Call) else ()
        if len(args) != len(d.params):
            return frozenset()
        mapping = {}
        for p, a in zip(d.params, args):
            mapping[p] = key(a)
        # the facts of the body, in terms of its parameters, are worked out once per define: a define
        # that calls another twice would otherwise cost time exponential in the depth of the calls
        memo = self.__dict__.setdefault("_define_facts", {})
        body = memo.get((name, how.__name__))
        if body is None:
            body = memo[(name, how.__name__)] = how(d.body, seen | {name})
        out = set()
        for k, attr in body:
            k2 = _subst(k, mapping)
            if k2 is not None and not _has_none(k2):
                out.add((k2, attr))
        return frozenset(out)

    # ---- use by the checker

    @contextmanager
    def assuming(self, cond, holds: bool = True):
        saved = self.known
        if cond is not None:
            self.known = self.known | (self.facts(cond) if holds else self.negfacts(cond))
        try:
            yield
        finally:
            self.known = saved

    @contextmanager
    def fresh(self):
        saved = self.known
        self.known = frozenset()
        try:
            yield
        finally:
            self.known = saved

    def check_read(self, e: A.Attr) -> None:
        missing = self.lacking(e.name)
        if not missing:
            return
        k = key(e.obj)
        if k is not None and (k, e.name) in self.known:
            return
        what = _text(e.obj)
        kinds = ", ".join(f"`{m}`" for m in missing)
        self.report(e, f"`{what}.{e.name}`: cards of kind {kinds} have no `{e.name}`, and nothing here says "
                       f"`{what}` is not one",
                    f"guard the read: `{what} has {e.name} and ...`, or give kind `{missing[0]}` a value: "
                    f"`{e.name}: ... = VALUE`")


def _has_none(k) -> bool:
    if k is None:
        return True
    return isinstance(k, tuple) and any(_has_none(x) for x in k)


def _text(e) -> str:
    """A short form of an expression, for messages."""
    if isinstance(e, A.Name):
        return e.name
    if isinstance(e, A.Call):
        return f"{e.name}({', '.join(_text(a) for a in e.args)})"
    if isinstance(e, A.Attr):
        return f"{_text(e.obj)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_text(e.obj)}[{', '.join(_text(a) for a in e.indices)}]"
    if isinstance(e, A.IntLit):
        return str(e.value)
    return "the card"
