"""Syntax nodes are built by ``ast.node``, not by attrs, yet behave as the frozen attrs classes they
replace: attrs' functions read them, they are frozen, compare by identity, pickle and copy, and
their constructor and repr are those attrs would make."""

from __future__ import annotations

import copy
import pickle

import attrs
import pytest

from ruledsl.language import ast as A
from ruledsl.language.errors import Span

AT = Span("x.rules", 3, 4, 3, 9)


@A.node
class Pair(A.Expr):
    left: A.Expr
    right: A.Expr | None = None
    note: str = A.field(default="", kw_only=True)


@attrs.frozen(eq=False)
class PairByAttrs:  # the same fields as an attrs class, for comparison
    span: Span = attrs.field(default=A.NOWHERE, kw_only=True)
    left: object = None
    right: object = None
    note: str = attrs.field(default="", kw_only=True)


def test_fields_come_from_the_bases_first_and_attrs_reads_them():
    assert [f.name for f in attrs.fields(Pair)] == ["span", "left", "right", "note"]
    assert [f.kw_only for f in attrs.fields(Pair)] == [True, False, False, True]
    assert [f.inherited for f in attrs.fields(Pair)] == [True, False, False, False]
    assert attrs.has(Pair) and attrs.has(A.IntLit) and not attrs.has(A.field)
    one = Pair(A.IntLit(1, span=AT), span=AT)
    other = attrs.evolve(one, right=A.Name("b"))
    assert type(other) is Pair and other.left is one.left and other.right.name == "b" and other.span == AT
    assert one.right is None and one.note == ""
    assert attrs.asdict(one)["left"] == {"span": attrs.asdict(AT), "value": 1}


def test_the_constructor_and_repr_are_the_ones_attrs_makes():
    ours = Pair(A.IntLit(1), A.Name("b"), note="n", span=AT)
    theirs = PairByAttrs(A.IntLit(1), A.Name("b"), note="n", span=AT)
    assert repr(ours) == repr(theirs).replace("PairByAttrs(", "Pair(")
    for make in (Pair, PairByAttrs):
        with pytest.raises(TypeError):
            make(A.IntLit(1), None, "n")  # note is a keyword only
        with pytest.raises(TypeError):
            make(A.IntLit(1), colour="red")
    with pytest.raises(TypeError, match="left"):
        Pair()
    assert Pair(right=A.Name("r"), left=A.Name("l")).left.name == "l"


def test_nodes_are_frozen_and_compare_by_identity():
    one = A.Name("a", span=AT)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        one.name = "b"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        del one.name
    assert one.name == "a"
    twin = A.Name("a", span=AT)
    assert one != twin and len({one, twin, one}) == 2


def test_nodes_pickle_and_copy_whole():
    tree = Pair(A.Call("f", (A.IntLit(2),)), note="k", span=AT)
    for again in (pickle.loads(pickle.dumps(tree)), copy.copy(tree), copy.deepcopy(tree)):
        assert type(again) is Pair and again is not tree and repr(again) == repr(tree)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            again.note = "changed"


def test_an_attrs_field_in_a_node_class_is_refused_with_the_way_to_write_it():
    with pytest.raises(TypeError, match=r"Bad\.size: write ast\.field"):
        @A.node
        class Bad(A.Node):
            size: int = attrs.field(default=0)
