"""report.web.render.pair_link, the function every table row calls, writes what the macro it replaced wrote:
Jinja's own rendering of that macro is the oracle, for hostile text and card ids."""
from __future__ import annotations

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.report.web.render import environment, folder_url

MACRO = ("{% macro old(text, card) -%}{% if card %}<a href=\"{{ url('card', card) }}\">{{ text }}</a>"
         "{% else %}{{ text }}{% endif %}{%- endmacro %}")
TEXT = st.one_of(st.none(), st.text(max_size=12), st.sampled_from(['<script>alert("x")</script>', "A & B", "'q'", "7"]))
CARD = st.one_of(st.none(), st.just(""), st.text(max_size=8), st.sampled_from(['x"><b>', "ns-1", "a&b"]))


def _both(text, card) -> tuple[str, str]:
    oracle = jinja2.Environment(autoescape=True).from_string(MACRO + "{{ old(text, card) }}")
    ours = environment().from_string("{{ pair_link(text, card) }}")
    values = dict(text=text, card=card, url=folder_url(1))
    return ours.render(**values), oracle.render(**values)


@settings(max_examples=300, deadline=None)
@given(TEXT, CARD)
def test_the_link_is_the_macros(text, card):
    ours, oracle = _both(text, card)
    assert ours == oracle


@pytest.mark.parametrize(("text", "card", "html"), [
    ("Anna & Bo", "ns-1", '<a href="../cards/ns-1.html">Anna &amp; Bo</a>'),
    ("<b>", None, "&lt;b&gt;"),
    ("7", 'x"><i>', '<a href="../cards/x&#34;&gt;&lt;i&gt;.html">7</a>'),
])
def test_literal_links(text, card, html):
    assert _both(text, card) == (html, html)
