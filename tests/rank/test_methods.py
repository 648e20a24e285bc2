"""The method registry: one record per method, and every record true to its scorer."""
from __future__ import annotations

import typing

import pytest

from bridgeproc.rank import Conventions, parse_scoring_tag
from bridgeproc.rank.conventions import METHODS as CONVENTION_METHODS
from bridgeproc.rank.conventions import Method, scoring_tag
from bridgeproc.rank.methods import IMP_METHODS, METHODS, methods_in, ranking_method
from tests.rank.test_rank_examples import board


def test_the_registry_names_exactly_the_methods_conventions_accept():
    assert tuple(METHODS) == CONVENTION_METHODS == typing.get_args(Method) == ("mp", "cross-imp", "butler")
    assert IMP_METHODS == ("cross-imp", "butler")


@pytest.mark.parametrize("name", list(METHODS))
def test_the_scorer_adds_exactly_the_declared_columns_with_their_dtypes(name):
    method = METHODS[name]
    results = board([420, 420, 450, -100, 170, 620])
    scored = method.scorer(results, Conventions(method=name))  # type: ignore[arg-type]
    added = {c: str(scored[c].dtype) for c in scored.columns if c not in results.columns}
    assert added == dict(method.columns)
    assert set(method.points) <= set(method.columns)
    assert {c for c, _, _ in method.shown} <= set(method.columns)
    assert {c for c, _, _ in method.board_facts} <= set(method.columns)
    assert methods_in(scored) == [method]


@pytest.mark.parametrize("name", list(METHODS))
def test_the_pbn_scoring_tag_reads_back_as_the_method(name):
    conventions = Conventions(method=name)  # type: ignore[arg-type]
    assert parse_scoring_tag(scoring_tag(conventions)).method == name
    assert METHODS[name].pbn_total == ("TotalScoreMP" if name == "mp" else "TotalScoreIMP")


def test_an_unknown_method_names_the_known_ones():
    with pytest.raises(KeyError, match="known: mp, cross-imp, butler"):
        ranking_method("bam")
