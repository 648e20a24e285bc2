import pytest

from bridgeproc.core.boards import dealer_of, vul_of

# Reference section 3 table.
CYCLE = {
    1: ("N", "None"), 2: ("E", "NS"), 3: ("S", "EW"), 4: ("W", "All"),
    5: ("N", "NS"), 6: ("E", "EW"), 7: ("S", "All"), 8: ("W", "None"),
    9: ("N", "EW"), 10: ("E", "All"), 11: ("S", "None"), 12: ("W", "NS"),
    13: ("N", "All"), 14: ("E", "None"), 15: ("S", "NS"), 16: ("W", "EW"),
}


@pytest.mark.parametrize("board", range(1, 49))
def test_board_cycle(board):
    dealer, vul = CYCLE[(board - 1) % 16 + 1]
    assert list(dealer_of([board])) == [dealer]
    assert list(vul_of([board])) == [vul]


def test_vectorised_over_many_boards():
    boards = list(range(1, 33))
    assert list(vul_of(boards)) == [CYCLE[(b - 1) % 16 + 1][1] for b in boards]
    assert list(dealer_of(boards)) == [CYCLE[(b - 1) % 16 + 1][0] for b in boards]
