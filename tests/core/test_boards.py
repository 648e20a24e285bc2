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


@pytest.mark.parametrize("text, vul", [
    ("None", "None"), ("love", "None"), ("-", "None"), (" Nil ", "None"), ("O", "None"),
    ("NS", "NS"), ("n-s", "NS"), ("N/S", "NS"), ("North-South", "NS"),
    ("EW", "EW"), ("E-W", "EW"), ("e/w", "EW"), ("East-West", "EW"),
    ("All", "All"), ("both", "All"), ("Game All", "All"),
    ("NSEW", None), ("", None), ("?", None), (None, None), (3, None),
])
def test_vul_from_text_reads_what_pbn_and_usebio_files_write(text, vul):
    from bridgeproc.core.boards import vul_from_text
    assert vul_from_text(text) == vul


def test_the_scalar_board_helpers_agree_with_the_vectorised_ones():
    from bridgeproc.core.boards import board_dealer, board_vul
    boards = list(range(1, 65))
    assert [board_dealer(b) for b in boards] == list(dealer_of(boards).astype(str))
    assert [board_vul(b) for b in boards] == list(vul_of(boards).astype(str))
    # the printed cycle (Law 2): board 1 None, 2 NS, 3 EW, 4 All, 5 NS ... 16 EW, 17 None
    assert [board_vul(b) for b in (1, 2, 3, 4, 5, 8, 13, 16, 17)] == ["None", "NS", "EW", "All", "NS", "None", "All", "EW", "None"]
