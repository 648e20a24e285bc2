"""Play legality: hand-made faulty play records, the real EBL file, random legal plays."""
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeproc.core.deal import parse_deal
from bridgeproc.io.pbn.reader import read_pbn
from bridgeproc.validate.play import read_play
from bridgeproc.validate.rules import check_games
from tests.conftest import REALDATA, examples

DATA = Path(__file__).parents[1] / "data" / "rules"
DEAL = "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"

BAD_PLAYS = [
    ("13", "Play", "trick 1: South plays S9 on a heart lead while holding H8 H7 H4 (revoke)"),
    # board 2 is the same revoke marked ^R: accepted
    ("59", "Play", "trick 1: H9 is in South's column but North holds it"),
    ("80", "Result", "declarer's side won 7 tricks in the play record but the Result tag says 8"),
    ("103", "Result", "the Result tag says 13 tricks but after the claim at trick 8 declarer's side had won 5 of 7, "
                      "so the result must be 5 to 11"),
    ("122", "Play", "the opening lead is by South but declarer North's left-hand opponent is East; [Play] names the "
                    "opening leader"),
    ("138", "Play", "the play stops after trick 5 without * (a claim) or + (continued later)"),
    ("148", "Play", 'the deal was passed out (Contract "Pass") but has a Play section'),
    ("181", "Play", "trick 10: East plays H2, already played in trick 1"),
    # board 10: the same cards with spades as trumps change the trick winners
    ("193", "Result", "declarer's side won 9 tricks in the play record but the Result tag says 7"),
    # board 11: a whole play record from the wrong leader gives one problem, not one per card
    ("217", "Play", "the opening lead is by South but declarer North's left-hand opponent is East; [Play] names the "
                    "opening leader"),
]


def test_each_faulty_play_is_reported_exactly():
    frame = check_games(read_pbn(DATA / "bad_play.pbn"))
    assert [(r.line, r.column, r.message) for r in frame.itertuples()] == BAD_PLAYS


def test_columns_are_fixed_seats_and_order_comes_from_winners():
    game = read_pbn(DATA / "good.pbn").games[0]
    tag = game.tag("Play")
    play, problems = read_play(parse_deal(DEAL), "E", tag.tokens, tag.token_lines, None, "N")
    assert problems == [] and play.complete and play.declarer_tricks == 7
    first, second, third = play.tricks[:3]
    assert (first.leader, first.winner) == ("E", "N")          # H2 led, HA wins
    assert second.leader == "N" and second.order[0] == ("N", "C2")  # North leads C2 from the 4th column
    assert (second.winner, third.leader, third.order[0]) == ("S", "S", ("S", "S2"))


def test_claim_with_partial_trick():
    game = read_pbn(DATA / "good.pbn").games[2]
    tag = game.tag("Play")
    play, problems = read_play(parse_deal(DEAL), "E", tag.tokens, tag.token_lines, None, "N")
    assert problems == [] and play.claimed and len(play.tricks) == 7 and play.partial == [("W", "-"), ("N", "-"),
                                                                                            ("E", "HJ"), ("S", "-")]


def test_ebl_file_has_plays_and_every_one_is_legal():
    pbn = read_pbn(REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn")
    assert sum(g.tag("Play") is not None for g in pbn.games) == 278
    assert check_games(pbn).empty


# --- random legal plays ------------------------------------------------------------

SEATS = "NESW"
CARDS = [s + r for s in "SHDC" for r in "AKQJT98765432"]
RANK = {r: i for i, r in enumerate("AKQJT98765432")}


def _pbn_hand(cards):
    return ".".join("".join(c[1] for c in sorted((c for c in cards if c[0] == s), key=lambda c: RANK[c[1]]))
                    for s in "SHDC")


@st.composite
def legal_plays(draw):
    """A random deal, contract and legal play; trick winners worked out independently."""
    cards = draw(st.permutations(CARDS))
    hands = {seat: set(cards[13 * i:13 * i + 13]) for i, seat in enumerate(SEATS)}
    pbn_hands = {seat: _pbn_hand(hands[seat]) for seat in SEATS}
    trump = draw(st.sampled_from(["S", "H", "D", "C", None]))
    declarer = draw(st.sampled_from(SEATS))
    leader = SEATS[(SEATS.index(declarer) + 1) % 4]
    opening = leader
    columns = [SEATS[(SEATS.index(opening) + i) % 4] for i in range(4)]
    lines, winners = [], []
    for _ in range(13):
        played = {}
        led = None
        for i in range(4):
            seat = SEATS[(SEATS.index(leader) + i) % 4]
            follow = sorted(c for c in hands[seat] if led and c[0] == led)
            card = draw(st.sampled_from(follow or sorted(hands[seat])))
            hands[seat].remove(card)
            played[seat] = card
            led = led or card[0]

        def strength(seat):
            card = played[seat]
            suit_score = 2 if card[0] == trump else 1 if card[0] == led else 0
            return (suit_score, -RANK[card[1]])

        leader = max(played, key=strength)
        winners.append(leader)
        lines.append([played[seat] for seat in columns])
    return pbn_hands, opening, trump, declarer, lines, winners


@settings(max_examples=examples(150), deadline=None)
@given(legal_plays())
def test_random_legal_play_has_13_tricks_and_consistent_winners(case):
    hands, opening, trump, declarer, lines, winners = case
    tokens = [card for line in lines for card in line]
    play, problems = read_play(hands, opening, tokens, list(range(len(tokens))), trump, declarer)
    assert problems == []
    assert play.complete and len(play.tricks) == 13
    assert [t.winner for t in play.tricks] == winners
    assert [t.leader for t in play.tricks[1:]] == winners[:-1]
    side = SEATS.index(declarer) % 2
    assert play.declarer_tricks == sum(SEATS.index(w) % 2 == side for w in winners)


@settings(max_examples=examples(40), deadline=None)
@given(legal_plays(), st.integers(0, 13))
def test_random_legal_play_through_a_pbn_file(case, claim_at):
    """The same play written as a PBN game (fixed columns, optional claim) passes check_games."""
    from bridgeproc.core.deal import format_deal
    from bridgeproc.io.pbn.reader import parse_pbn

    hands, opening, trump, declarer, lines, winners = case
    side = SEATS.index(declarer) % 2
    won = sum(SEATS.index(w) % 2 == side for w in winners)
    shown = lines[:claim_at] + [["*"]] if claim_at < 13 else lines
    text = "\n".join([
        '[Board "1"]', '[Dealer "N"]', '[Vulnerable "None"]', f'[Deal "{format_deal(hands)}"]',
        f'[Declarer "{declarer}"]', f'[Contract "1{trump or "NT"}"]', f'[Result "{won}"]',
        f'[Play "{opening}"]', *(" ".join(line) for line in shown), ""])
    assert check_games(parse_pbn(text, "random.pbn")).empty


def _good_tokens():
    tag = read_pbn(DATA / "good.pbn").games[0].tag("Play")
    return list(tag.tokens), list(tag.token_lines)


def test_continued_play_is_not_compared_with_the_result():
    tokens, lines = _good_tokens()
    play, problems = read_play(parse_deal(DEAL), "E", tokens[:20] + ["+"], lines[:20] + [lines[19]], None, "N")
    assert problems == [] and play.continued and len(play.tricks) == 5


def test_lead_out_of_turn_marked_l_names_the_leader():
    tokens, lines = _good_tokens()
    tokens.insert(4, "^L")  # East's CT in trick 2 was led out of turn (the mark stands before the card)
    play, problems = read_play(parse_deal(DEAL), "E", tokens, list(range(len(tokens))), None, "N")
    assert problems == []
    assert play.tricks[1].leader == "E" and play.tricks[1].order[0] == ("E", "CT") and play.tricks[1].winner == "S"


def test_trick_winner_by_trump_and_led_suit():
    from bridgeproc.validate.play import trick_winner

    order = [("N", "H5"), ("E", "HA"), ("S", "C2"), ("W", "D3")]
    assert trick_winner(order, None) == "E"
    assert trick_winner(order, "C") == "S"
    assert trick_winner(order, "D") == "W"
    assert trick_winner(order, "S") == "E"
