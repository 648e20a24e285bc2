"""The season profile against double dummy (issue 32): each lead's cost and each declarer's tricks against
double dummy, on real files, against DDS called directly in the test (one deal, one lead at a time, no
cache); the figures' sample sizes and intervals; nothing shown below the sample that says anything."""
from __future__ import annotations

import math
import statistics

import pandas as pd
import pytest

from bridgeproc.analysis.profile import LEADER, MIN_SAMPLE, clear_cache, contract_rows, figure, t95
from tests.conftest import REALDATA, SAMPLE

EBL = REALDATA / "ebl-2021-online-qual-open-r2-teams.pbn"


def _direct_lead_cost(deal: str, strain: str, leader: str, lead: str) -> int | None:
    """The lead's cost solved here: every card the leader holds, the best less the lead's tricks."""
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    board = Deal(deal)
    board.trump = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}[strain]
    board.first = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}[leader]
    tricks = {"SHDC"[int(card.suit)] + card.rank.name[1:]: t for card, t in solve_board(board)}
    return max(tricks.values()) - tricks[lead] if lead in tricks else None


def _direct_dd(deal: str, declarer: str, strain: str) -> int:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal, Denom, Player

    table = calc_dd_table(Deal(deal))
    denom = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}[strain]
    player = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}[declarer]
    return table[denom, player]


@pytest.mark.dd
def test_the_ebl_files_278_lead_costs_are_those_dds_gives_lead_by_lead():
    from bridgeproc.pipeline.teams import process_teams

    clear_cache()
    session = process_teams([EBL])
    rows = contract_rows(session.results, session.deals)
    led = rows[rows["lead"].notna()]
    assert len(led) == 278 and led["lead_cost"].notna().all()
    deals = session.deals.set_index("board")["deal"]
    direct = [_direct_lead_cost(deals[b], s, who, c) for b, s, who, c in zip(led["board"], led["strain"], led["leader"],
                                                                            led["lead"])]
    assert led["lead_cost"].astype(int).tolist() == direct
    assert (led["leader"] == led["declarer"].map(LEADER)).all()
    # the figures over them: 278 leads, the mean and its interval
    shown = figure(led["lead_cost"])
    mean, sd = statistics.fmean(direct), statistics.stdev(direct)
    assert shown["n"] == 278 and shown["mean"] == pytest.approx(mean)
    # t for 120 degrees of freedom (1.980): a little wider than t(277) = 1.969, never narrower
    assert shown["high"] - shown["mean"] == pytest.approx(1.980 * sd / math.sqrt(278))
    # and the declarers: the tricks taken against the deal's double-dummy tricks, solved here
    played = rows.sample(40, random_state=1)
    assert (played["tricks"] - played["dd"]).tolist() == played["declarer_gain"].astype(int).tolist()
    assert played["dd"].tolist() == [_direct_dd(deals[b], d, s) for b, d, s in
                                     zip(played["board"], played["declarer"], played["strain"])]


@pytest.mark.dd
def test_a_club_evenings_declarers_against_dds_called_directly():
    from bridgeproc.model import Options, ReadOptions
    from bridgeproc.pipeline.run import build_session

    session = build_session([str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")],
                            Options(read=ReadOptions()))
    rows = contract_rows(session.results, session.boards)
    assert len(rows) == len(session.results[session.results["level"].fillna(0) > 0])
    deals = session.boards.set_index("board")["deal"]
    direct = {b: {(d, s): _direct_dd(deals[b], d, s) for d in "NESW" for s in ("C", "D", "H", "S", "NT")}
              for b in rows["board"].unique()}
    expected = [t - direct[b][(d, s)] for b, d, s, t in zip(rows["board"], rows["declarer"], rows["strain"], rows["tricks"])]
    assert rows["declarer_gain"].astype(int).tolist() == expected
    shown = figure(rows["declarer_gain"])
    assert shown["n"] == len(expected) and shown["mean"] == pytest.approx(statistics.fmean(expected))
    # the leads the travellers carry, each against DDS directly
    led = rows[rows["lead_cost"].notna()]
    assert len(led) > 100
    sample = led.sample(30, random_state=2)
    assert sample["lead_cost"].astype(int).tolist() == [
        _direct_lead_cost(deals[b], s, who, c) for b, s, who, c in zip(sample["board"], sample["strain"], sample["leader"],
                                                                   sample["lead"])]


@pytest.mark.parametrize(("values", "shown"), [
    ([1.0] * (MIN_SAMPLE - 1), None),  # too few to say anything
    ([1.0] * MIN_SAMPLE, {"n": MIN_SAMPLE, "mean": 1.0, "low": 1.0, "high": 1.0}),
    ([0.0, 1.0] * 4 + [None, None], {"n": 8, "mean": 0.5, "low": 0.5 - 2.365 * math.sqrt(2 / 7) / math.sqrt(8),
                                     "high": 0.5 + 2.365 * math.sqrt(2 / 7) / math.sqrt(8)}),
])
def test_a_figure_has_its_sample_and_interval_or_is_not_shown(values, shown):
    got = figure(pd.Series(values, dtype="Float64"))
    assert got == (shown if shown is None else pytest.approx(shown))


@pytest.mark.parametrize(("n", "t"), [(2, 12.706), (11, 2.228), (31, 2.042), (35, 2.042), (41, 2.021), (100, 2.000),
                                      (500, 1.980)])
def test_students_t_for_the_interval(n, t):
    assert t95(n) == t  # the table's value, or the smaller df's between its rows (a wider, never narrower, interval)


def test_a_lead_the_leader_did_not_hold_has_no_cost_and_an_adjusted_result_no_row():
    results = pd.DataFrame({"board": [1, 1, 1], "level": [3, 3, 0], "strain": ["NT", "NT", None], "doubled": [0, 0, 0],
                            "declarer": ["S", "S", None], "tricks": pd.array([9, 8, pd.NA], dtype="Int64"),
                            "lead": ["SA", "CA", None], "adjusted": [None, None, "A="],
                            "ns": ["1", "2", "3"], "ew": ["4", "5", "6"]})
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    boards = pd.DataFrame({"board": [1], "deal": [deal]}).assign(**{
        f"dd_{s}_{t}": [7] for s in "NESW" for t in ("C", "D", "H", "S", "NT")})
    rows = contract_rows(results, boards)
    assert rows["pos"].tolist() == [0, 1]  # the adjusted score is no play to measure
    assert rows["leader"].tolist() == ["W", "W"]
    assert pd.isna(rows["lead_cost"].iloc[0])  # West holds no spade ace: the lead was mistyped
    assert rows["declarer_gain"].tolist() == [2.0, 1.0]


#: The WBF IMP scale, written out: the least difference for each IMP.
IMP_SCALE = [20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000, 2250,
             2500, 3000, 3500, 4000]


def _imps(points: int) -> int:
    return (1 if points > 0 else -1) * sum(abs(points) >= least for least in IMP_SCALE)


@pytest.mark.dd
def test_the_contracts_against_par_are_the_files_own_par_and_law_77():
    """Each EBL result's contract against par, from the declaring side: its score with the double-dummy
    tricks (the Law 77 oracle of the scoring tests) less the file's own OptimumScore, in IMPs (the scale
    written out above), and the call that names it."""
    from bridgeproc.archive.profile import against_par
    from bridgeproc.pipeline.teams import process_teams
    from tests.scoring.test_scoring import law77

    session = process_teams([EBL])
    rows = against_par(contract_rows(session.results, session.deals), session.results, session.deals)
    deals = session.deals.set_index("board")
    results = session.results.loc[rows["pos"]]
    checked = 0
    for row, result in zip(rows.itertuples(index=False), results.itertuples(index=False)):
        vul = str(deals.loc[row.board, "vul"])
        ns = row.declarer in "NS"
        vulnerable = vul == "All" or (vul == "NS" and ns) or (vul == "EW" and not ns)
        declarer_score = law77(int(result.level), row.strain, int(result.doubled), vulnerable, int(row.dd))
        side, points = deals.loc[row.board, "optimum_score"].split()  # the file's par, e.g. "NS +90"
        par_ns = int(points) if side == "NS" else -int(points)
        gain = declarer_score - (par_ns if ns else -par_ns)
        assert row.par_imps == _imps(gain), (row, gain)
        makes = row.dd >= result.level + 6
        expected = ("par" if gain == 0 else ("underbid" if makes else "overbid") if gain < 0
                    else "missed double" if not makes and result.doubled == 0 else "let play")
        assert row.par_call == expected
        checked += 1
    assert checked == len(rows) > 250


def _direct_defence(deal: str, strain: str, leader: str, cards: str) -> tuple[int, int]:
    """The tricks each defender's cards after the lead gave away, solved here position by position with
    SolveBoard (not the AnalysePlay the code uses): at each defender's turn up to trick 12, the best card's
    tricks for the defence less the played card's; the seats followed by endplay's own play of the cards."""
    from endplay.dds import solve_board
    from endplay.types import Card, Deal, Denom, Player

    board = Deal(deal)
    board.trump = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}[strain]
    seats = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}
    board.first = seats[leader]
    defenders = {seats[leader]: 0, seats[{"N": "S", "S": "N", "E": "W", "W": "E"}[leader]]: 0}
    for position, text in enumerate(cards.split()[:48]):
        card = Card(text)
        if position and board.curplayer in defenders:
            tricks = {str(c): t for c, t in solve_board(board)}
            defenders[board.curplayer] += max(tricks.values()) - tricks[str(card)]
        board.play(card)
    first, second = defenders.values()
    return first, second


@pytest.mark.dd
def test_the_ebl_files_defence_after_the_lead_against_dds_called_card_by_card():
    """The EBL teams file's 278 plays (RealBridge writes every card): each defender's tricks given away
    after the lead, for a sample of them, equal what SolveBoard gives at every defender's turn."""
    from bridgeproc.pipeline.teams import process_teams

    clear_cache()
    session = process_teams([EBL])
    assert session.results["play"].notna().sum() == 278
    rows = contract_rows(session.results, session.deals)
    defended = rows[rows["defence_cost"].notna()]
    assert len(defended) == 278
    assert (defended["defence_cost"] == defended["leader_defence"] + defended["partner_defence"]).all()
    deals = session.deals.set_index("board")["deal"]
    plays = session.results["play"]
    sample = defended.sample(6, random_state=3)
    direct = [_direct_defence(deals[b], s, who, plays[pos]) for b, s, who, pos in
              zip(sample["board"], sample["strain"], sample["leader"], sample["pos"])]
    assert list(zip(sample["leader_defence"].astype(int), sample["partner_defence"].astype(int))) == direct
    # a defence gives nothing away at best; some of these experts' defences did give tricks away
    assert (defended["defence_cost"] >= 0).all() and defended["defence_cost"].sum() > 0
