"""DealError belongs to bridgeproc's exception hierarchy (the command line turns it into a message)."""
import pytest

from bridgeproc.core.deal import DealError, parse_deal
from bridgeproc.errors import BridgeprocError


def test_deal_error_is_a_bridgeproc_error_and_a_value_error():
    assert issubclass(DealError, BridgeprocError)
    assert issubclass(DealError, ValueError)
    with pytest.raises(BridgeprocError, match="the North hand has 12 cards"):
        parse_deal("N:AKQ.63.AKQ987.A J8654.KQ5.T.QJT6 T973.JT9842.3.K4 2.A7.J6542.987532")
