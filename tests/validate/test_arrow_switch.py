"""Arrow-switched rounds of a Mitchell numbered per direction: entry (a Switched column, or the rounds
given), identity by the pair's number, scoring by the seat actually played, two winners."""
import random

import numpy as np
import pandas as pd
import pytest

from bridgeproc.core import pairs
from bridgeproc.core.pairs import (
    arrow_switch_marks,
    arrow_switch_rounds,
    as_numbered,
    mark_arrow_switch,
    switched_mark,
    switched_marks,
)
from bridgeproc.errors import ValidationError
from bridgeproc.io.sheets.travellers import parse_travellers_csv
from bridgeproc.model import CheckOptions, ConventionChoice, Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.rank import Conventions, rank_results, standings
from bridgeproc.validate import arrow, checks
from bridgeproc.validate.results import validate_results

pytestmark = pytest.mark.e2e  # runs whole commands or the pipeline on files: left out of make quick

TABLES = ROUNDS = 7
BOARDS_PER_ROUND = 2
SWITCHED = (6, 7)
#: Vulnerability of boards 1-14 (the 16-board cycle), written out for the oracle.
VUL = ["None", "NS", "EW", "All", "NS", "EW", "All", "None", "EW", "All", "None", "NS", "All", "None"]


def _movement(seed: int = 18):
    """The 7-table Mitchell: NS pair t sits at table t, EW pair e moves up a table and the boards
    down each round. Each result: 1NT by the seat N or E (the seat actually played) with random tricks."""
    rng = random.Random(seed)
    played = []
    for rnd in range(1, ROUNDS + 1):
        for table in range(1, TABLES + 1):
            ew = (table - rnd) % TABLES + 1
            board_set = (table + rnd - 2) % TABLES
            for board in range(board_set * BOARDS_PER_ROUND + 1, board_set * BOARDS_PER_ROUND + BOARDS_PER_ROUND + 1):
                played.append({"round": rnd, "table": table, "ns_pair": table, "ew_pair": ew, "board": board,
                               "declarer": rng.choice("NE"), "tricks": rng.randint(4, 11)})
    return played


def _oracle_score(declarer: str, tricks: int, board: int) -> int:
    """Seat NS's score of 1NT, Law 77 worked out by hand: 40 + 30 per overtrick + 50; 50/100 a trick down."""
    side = "NS" if declarer in "NS" else "EW"
    vulnerable = VUL[board - 1] in (side, "All")
    score = 40 + 30 * (tricks - 7) + 50 if tricks >= 7 else -(100 if vulnerable else 50) * (7 - tricks)
    return score if side == "NS" else -score


def _traveller(played, how: str) -> str:
    """By seat: in the switched rounds the EW-numbered pair is written in the NS column."""
    header = "Round,Table,Board,NS,EW,Contract,Declarer,Tricks" + (",Switched" if how == "column" else "")
    lines = [header]
    for p in played:
        switched = p["round"] in SWITCHED
        ns, ew = (p["ew_pair"], p["ns_pair"]) if switched else (p["ns_pair"], p["ew_pair"])
        row = f"{p['round']},{p['table']},{p['board']},{ns},{ew},1NT,{p['declarer']},{p['tricks']}"
        lines.append(row + ((",Y" if switched else ",") if how == "column" else ""))
    return "\n".join(lines) + "\n"


def _seat_played(played):
    """The oracle's input, by seat: in the switched rounds the EW pair sat NS."""
    out = []
    for p in played:
        if p["round"] in SWITCHED:
            out.append({**p, "ns_seat": ("EW", p["ew_pair"]), "ew_seat": ("NS", p["ns_pair"])})
        else:
            out.append({**p, "ns_seat": ("NS", p["ns_pair"]), "ew_seat": ("EW", p["ew_pair"])})
    return out


def _credit(seats) -> dict[tuple[str, str], float]:
    """(direction of the number, pair) -> percentage: each result's NS seat compared with every other
    NS seat on its board (2 a win, 1 a tie), credited to the pair that sat there, by its number."""
    by_board: dict[int, list] = {}
    for s in seats:
        by_board.setdefault(s["board"], []).append(s)
    points: dict[tuple[str, str], list[float]] = {}
    for results in by_board.values():
        scores = [_oracle_score(s["declarer"], s["tricks"], s["board"]) for s in results]
        top = 2 * (len(scores) - 1)
        for s, mine in zip(results, scores):
            ns_mp = sum(2 if mine > other else 1 if mine == other else 0 for other in scores) - 1
            for (direction, pair), mp in ((s["ns_seat"], ns_mp), (s["ew_seat"], top - ns_mp)):
                got = points.setdefault((direction, str(pair)), [0.0, 0.0])
                got[0] += mp
                got[1] += top
    return {pair: 100.0 * mp / top for pair, (mp, top) in points.items()}


def _ours(table: pd.DataFrame) -> dict[tuple[str, str], float]:
    return {(g, p): round(v, 6) for g, p, v in zip(table["group"], table["pair"], table["pct"])}


def _expected() -> dict[tuple[str, str], float]:
    return {k: round(v, 6) for k, v in _credit(_seat_played(_movement())).items()}


def test_the_oracle_has_fourteen_pairs_in_two_directions():
    expected = _expected()
    assert sorted(expected) == [(d, str(n)) for d in ("EW", "NS") for n in sorted(range(1, 8), key=str)]
    assert len({v for k, v in expected.items()}) > 7  # the scores differ: a real ranking


def test_switched_column_through_the_pipeline(tmp_path):
    path = tmp_path / "travellers.csv"
    path.write_text(_traveller(_movement(), "column"))
    session = build_session([str(path)], Options(ranking=ConventionChoice(changes={"pair_numbering": "per-direction"}), dd=False))
    assert "two winners" in session.movement
    assert set(session.standings["group"]) == {"NS", "EW"}
    assert len(session.standings) == 14  # each pair once, in the direction of its number
    assert _ours(session.standings) == _expected()
    results = session.results
    assert int(results["switched"].sum()) == 2 * TABLES * BOARDS_PER_ROUND


def test_arrow_switch_rounds_option(tmp_path):
    raw = parse_travellers_csv(_traveller(_movement(), "option"), "travellers.csv")
    checked = validate_results(mark_arrow_switch(raw, "6-7"), pair_numbering_option="per-direction")
    conventions = Conventions(pair_numbering="per-direction")
    results = rank_results(checked.results, conventions)
    table = standings(as_numbered(results), conventions)
    assert _ours(table) == _expected()
    # the seat actually played is matchpointed: switched or not, the NS seats of a board share one top
    board_1 = results[results["board"] == 1]
    assert sorted(board_1["mp_ns"] + board_1["mp_ew"]) == [board_1["top"].iat[0]] * TABLES


def test_auto_numbering_finds_the_per_direction_mitchell(tmp_path):
    path = tmp_path / "travellers.csv"
    path.write_text(_traveller(_movement(), "column"))
    session = build_session([str(path)], Options(dd=False))
    assert session.numbering == "per-direction"
    assert _ours(session.standings) == _expected()


def test_without_the_switch_the_repeats_are_refused_with_the_hint():
    raw = parse_travellers_csv(_traveller(_movement(), "option"), "travellers.csv")
    with pytest.raises(ValidationError) as info:
        validate_results(raw, pair_numbering_option="per-direction")
    text = str(info.value)
    assert "has a second result on board" in text
    assert "if the pairs of a round sat the other way (arrow switch), mark it: a Switched column (Y) or " \
           "--arrow-switch ROUNDS" in text


@pytest.mark.parametrize("text, expected", [
    ("Y", True), ("yes", True), ("x", True), ("1", True), ("↔", True), (" YES ", True), ("switched", True),
    ("", False), ("N", False), ("no", False), ("0", False), ("-", False), (None, False),
    ("maybe", None), ("2", None), ("YN", None),
])
def test_switched_marks(text, expected):
    assert switched_mark(text) is expected


@pytest.mark.parametrize("spec, rounds", [
    ("6-7", {6, 7}), ("5,7", {5, 7}), ("3 6-7", {3, 6, 7}), ("7", {7}), ("6–7", {6, 7}), ("1-3;5", {1, 2, 3, 5}),
])
def test_arrow_switch_rounds(spec, rounds):
    assert arrow_switch_rounds(spec) == rounds


@pytest.mark.parametrize("spec, message", [
    ("7-6", "'7-6' is not a round or a range of rounds"),
    ("six", "'six' is not a round"),
    ("0", "'0' is not a round"),
    ("", "no rounds given"),
])
def test_bad_arrow_switch_rounds(spec, message):
    with pytest.raises(ValueError, match=message):
        arrow_switch_rounds(spec)


def _small(rows: list[str], header: str = "Round,Table,Board,NS,EW,Contract,Declarer,Tricks,Switched") -> pd.DataFrame:
    return parse_travellers_csv(header + "\n" + "\n".join(rows) + "\n", "t.csv")


def test_the_option_needs_a_round_column():
    raw = _small(["1,1,N,3NT,9"], header="Board,NS,EW,Contract,Declarer,Tricks")
    with pytest.raises(ValueError, match="--arrow-switch 6-7 needs a Round column on the travellers"):
        mark_arrow_switch(raw, "6-7")


def test_the_option_contradicting_a_mark_is_refused():
    raw = _small(["6,1,1,1,2,3NT,N,9,N", "6,2,3,3,4,3NT,N,9,"])
    with pytest.raises(ValidationError) as info:
        mark_arrow_switch(raw, "6-7")
    assert str(info.value).splitlines()[1:] == [
        "t.csv:2: switched: round 6 is arrow-switched by --arrow-switch 6-7, but this result is marked not switched; "
        "clear the mark or correct the rounds"]


HOSTILE = [
    ("not a mark", ["1,1,1,1,1,3NT,N,9,maybe"],
     ["t.csv:2: switched: 'maybe' is not an arrow-switch mark; write Y for a result the pairs played the other way "
      "round (EW pair sitting NS), or leave it blank"]),
    ("one table-round marked on one board only", ["6,1,1,1,2,3NT,N,9,Y", "6,1,2,1,2,3NT,N,9,"],
     ["t.csv:3: switched: table 1 round 6 is marked not switched here but switched on board 1 (line 2); "
      "an arrow switch turns the whole table: mark every board of the round alike"]),
    ("the same two pairs twice on a board, once switched", ["6,1,1,3,5,1NT,N,8,Y", "1,1,1,5,3,1NT,N,7,"],
     ["t.csv:3: board: NS 5 v EW 3 on board 1 is entered twice (also line 2); delete one"]),
    ("a pair against two opponents in a round", ["6,1,1,1,2,3NT,N,9,Y", "6,2,3,1,3,3NT,N,9,Y"],
     ["t.csv:3: round: pair EW 1 meets two opponents in round 6 (the other line 2); correct a pair number, the "
      "round or its arrow-switch mark (every table of a switched round is switched)"]),
]


@pytest.mark.parametrize("rows, messages", [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_hostile_marks(rows, messages):
    with pytest.raises(ValidationError) as info:
        validate_results(_small(rows), pair_numbering_option="per-direction")
    assert str(info.value).splitlines()[1:] == messages


def test_switched_row_keys_and_credit():
    raw = _small(["6,1,1,3,5,1NT,N,8,Y", "1,1,2,5,3,1NT,N,7,"])
    results = validate_results(raw, pair_numbering_option="per-direction").results
    assert list(results["switched"]) == [True, False]
    numbered = as_numbered(results.assign(mp_ns=[2.0, 0.0], mp_ew=[0.0, 2.0]))
    # row 1: EW pair 3 sat NS and scored the NS seat's 2 MPs; NS pair 5 sat EW
    assert numbered[["ns", "ew", "mp_ns", "mp_ew"]].to_numpy().tolist() == [["5", "3", 0.0, 2.0],
                                                                          ["5", "3", 0.0, 2.0]]
    assert list(results["score_ns"]) == [120, 90]  # by seat (board 2 NS vulnerable): scoring is not swapped
    assert not np.any(numbered["switched"])


# --------------------------------------------------------------------------- --arrow-switch ROUNDS, cards, writers


def _write(tmp_path, how: str, name: str = "travellers.csv"):
    path = tmp_path / name
    path.write_text(_traveller(_movement(), how))
    return path


def test_options_arrow_switch_through_the_pipeline(tmp_path):
    session = build_session([str(_write(tmp_path, "option"))], Options(check=CheckOptions(arrow_switch="6-7"), dd=False))
    assert session.numbering == "per-direction"
    assert "two winners" in session.movement
    assert _ours(session.standings) == _expected()
    assert int(session.results["switched"].sum()) == 2 * TABLES * BOARDS_PER_ROUND
    assert (session.standings["boards"] == ROUNDS * BOARDS_PER_ROUND).all()


def test_cli_arrow_switch_gives_what_the_switched_column_gives(runner, tmp_path):
    from bridgeproc.cli.main import cli

    by_column, by_rounds = tmp_path / "by_column.csv", tmp_path / "by_rounds.csv"
    result = runner.invoke(cli, ["score", str(_write(tmp_path, "column", "column.csv")), "-o", str(by_column),
                                 "--no-archive"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["score", str(_write(tmp_path, "option", "rounds.csv")), "--arrow-switch", "6-7",
                                 "-o", str(by_rounds), "--no-archive"])
    assert result.exit_code == 0, result.output
    assert by_rounds.read_bytes() == by_column.read_bytes()
    scored = pd.read_csv(by_rounds, dtype=str, keep_default_na=False)
    assert list(scored.columns[9:11]) == ["switched", "mp_ns"]
    assert (scored["switched"] == "Y").sum() == 2 * TABLES * BOARDS_PER_ROUND
    assert set(scored["switched"]) == {"Y", ""}
    # the scored CSV read back (a Switched column, no Round) ranks the same
    again = build_session([str(by_rounds)], Options(dd=False))
    assert _ours(again.standings) == _expected()


@pytest.mark.parametrize("command", ["score", "check"])
@pytest.mark.parametrize("spec, header, message", [
    ("6-7", "Board,NS,EW,Contract,Declarer,Tricks",
     "--arrow-switch 6-7 needs a Round column on the travellers, to know which results were played in those "
     "rounds; add the column, or mark the switched results in a Switched column (Y) instead"),
    ("six", "Round,Board,NS,EW,Contract,Declarer,Tricks",
     "'six' is not a round or a range of rounds; write e.g. 6-7 or 5,7"),
    ("7-6", "Round,Board,NS,EW,Contract,Declarer,Tricks",
     "'7-6' is not a round or a range of rounds; write e.g. 6-7 or 5,7"),
])
def test_cli_arrow_switch_that_cannot_apply_exits_2(runner, tmp_path, command, spec, header, message):
    from bridgeproc.cli.main import cli

    path = tmp_path / "t.csv"
    row = "1,1,1,2,3NT,N,9" if header.startswith("Round") else "1,1,2,3NT,N,9"
    path.write_text(f"{header}\n{row}\n")
    out = ["-o", str(tmp_path / "x.csv"), "--no-archive"] if command == "score" else []
    result = runner.invoke(cli, [command, str(path), "--arrow-switch", spec, *out])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.csv").exists()


def test_cli_check_with_arrow_switch(runner, tmp_path):
    from bridgeproc.cli.main import cli

    path = _write(tmp_path, "option")
    refused = runner.invoke(cli, ["check", str(path), "--pair-numbering", "per-direction"])
    assert refused.exit_code == 1
    assert "--arrow-switch ROUNDS" in refused.output
    result = runner.invoke(cli, ["check", str(path), "--arrow-switch", "6-7"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"OK: {TABLES * ROUNDS * BOARDS_PER_ROUND} results on 14 boards, 7 pair numbers")


def test_the_option_and_a_contradicting_mark_are_listed_with_the_other_problems(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("Round,Table,Board,NS,EW,Contract,Declarer,Tricks,Switched\n"
                    "6,1,1,1,2,3NT,N,9,N\n1,2,3,3,4,3NT,N,9,maybe\n")
    with pytest.raises(ValidationError) as info:
        build_session([str(path)], Options(check=CheckOptions(arrow_switch="6-7"), ranking=ConventionChoice(changes={"pair_numbering": "per-direction"}), dd=False))
    assert str(info.value).splitlines()[1:] == [
        "t.csv:3: switched: 'maybe' is not an arrow-switch mark; write Y for a result the pairs played the other "
        "way round (EW pair sitting NS), or leave it blank",
        "t.csv:2: switched: round 6 is arrow-switched by --arrow-switch 6-7, but this result is marked not "
        "switched; clear the mark or correct the rounds"]


def test_a_result_without_a_round_is_left_with_a_note(tmp_path):
    lines = _traveller(_movement(), "option").splitlines()
    assert lines[1].startswith("1,1,1,")  # round 1, table 1, board 1: not switched
    lines[1] = lines[1][1:]
    path = tmp_path / "t.csv"
    path.write_text("\n".join(lines) + "\n")
    session = build_session([str(path)], Options(check=CheckOptions(arrow_switch="6-7"), dd=False))
    assert _ours(session.standings) == _expected()
    notes = session.notes[session.notes["column"] == "round"]
    assert notes[["line", "message"]].values.tolist() == [
        ["2", "no round number, so --arrow-switch 6-7 leaves this result as written (not switched); fill in the "
              "round if it was played in a switched round"]]


def _session(tmp_path):
    session = build_session([str(_write(tmp_path, "option"))], Options(check=CheckOptions(arrow_switch="6-7"), dd=False))
    names = pd.DataFrame({"section": [""] * 14, "pair": [str(n) for n in range(1, 8)] * 2,
                          "direction": ["NS"] * 7 + ["EW"] * 7,
                          "names": [f"{d} {n} players" for d in ("NS", "EW") for n in range(1, 8)]})
    from dataclasses import replace

    return replace(session, names=names)


def _standing_totals(session) -> dict[tuple[str, str], float]:
    return {(g, p): t for g, p, t in zip(session.standings["group"], session.standings["pair"],
                                         session.standings["total"])}


def test_workbook_score_cards_per_pair(tmp_path):
    from bridgeproc.report.scorecards import scorecard_table

    session = _session(tmp_path)
    cards, _ = scorecard_table(session.results, session.numbering)
    boards = ROUNDS * BOARDS_PER_ROUND
    assert cards.groupby("key").size().to_dict() == {f":{n}:{d}": boards for d in ("NS", "EW") for n in range(1, 8)}
    # each card is one block, NS cards first, and lists the switched boards with the seat played
    assert cards["key"].tolist() == [f":{n}:{d}" for d in ("NS", "EW") for n in range(1, 8) for _ in range(boards)]
    last = cards.groupby("key", sort=False).tail(1)
    totals = _standing_totals(session)
    assert {(d, p): round(r, 9) for d, p, r in zip(last["direction"], last["pair"], last["running"])} == \
        {k: round(v, 9) for k, v in totals.items()}
    switched = cards[cards["seat"] != cards["direction"]]
    assert len(switched) == 2 * 2 * TABLES * BOARDS_PER_ROUND
    assert set(zip(switched["direction"], switched["seat"])) == {("NS", "EW"), ("EW", "NS")}
    # EW 1 sits NS at table 7 in round 7 (boards of set 5: 11, 12), against NS pair 7, and scores as NS
    ew_1 = cards[(cards["key"] == ":1:EW") & cards["board"].isin([11, 12])]
    assert ew_1[["seat", "opponents"]].values.tolist() == [["NS", "7"], ["NS", "7"]]
    row = session.results[(session.results["board"] == 11) & (session.results["ns"] == "1")
                          & session.results["switched"].to_numpy(dtype=bool)]
    assert ew_1["score"].iat[0] == row["score_ns"].iat[0]
    assert ew_1["points"].iat[0] == row["mp_ns"].iat[0]
    assert session.pair_names[":1:EW"] == "EW 1 players"


def test_workbook_writes_one_card_per_pair(tmp_path):
    from openpyxl import load_workbook

    from bridgeproc.report.workbook import write_workbook

    session = _session(tmp_path)
    path = tmp_path / "results.xlsx"
    write_workbook(session, path)
    book = load_workbook(path, read_only=True)
    rows = [r or (None,) for r in book["Score cards"].iter_rows(values_only=True)]  # a blank row before each card
    book.close()
    labels = [r[0] for r in rows if isinstance(r[0], str) and r[0].startswith("Pair ")]
    assert labels == [f"Pair {n} ({d})  {d} {n} players" for d in ("NS", "EW") for n in range(1, 8)]
    at = labels.index("Pair 1 (EW)  EW 1 players")
    start = [i for i, r in enumerate(rows) if r[0] == labels[at]][0]
    card = rows[start + 1:start + 1 + ROUNDS * BOARDS_PER_ROUND]
    assert [r[1] for r in card].count("NS") == 2 * BOARDS_PER_ROUND  # rounds 6 and 7 sat NS
    assert round(card[-1][8], 9) == round(_standing_totals(session)[("EW", "1")], 9)


def test_website_cards_per_pair(tmp_path):
    from bridgeproc.report.web import build_site

    session = _session(tmp_path)
    site = build_site(session)
    boards = ROUNDS * BOARDS_PER_ROUND
    assert [c.title for c in site.cards] == [f"Pair {n} {title}" for title in ("North-South", "East-West")
                                             for n in range(1, 8)]
    assert all(len(c.rows) == boards for c in site.cards)
    assert all(c.has_direction for c in site.cards)  # every pair sat the other way in rounds 6-7
    switched_boards: dict[tuple[str, str], set[int]] = {}
    for p in _movement():
        if p["round"] in SWITCHED:
            switched_boards.setdefault(("NS", str(p["ns_pair"])), set()).add(p["board"])
            switched_boards.setdefault(("EW", str(p["ew_pair"])), set()).add(p["board"])
    totals = _standing_totals(session)
    by_id = {c.id: c for c in site.cards}
    assert sum(len(r.rows) for r in site.rankings) == 14
    for ranking in site.rankings:
        group = "NS" if "North" in ranking.title else "EW"
        for row in ranking.rows:
            card = by_id[row.card]
            assert card.names == f"{group} {row.pair} players"
            assert float(card.rows[-1].running) == pytest.approx(totals[(group, row.pair)], abs=0.005)
            other = "EW" if group == "NS" else "NS"
            assert {r.board for r in card.rows if r.direction == other} == switched_boards[(group, row.pair)]
            assert len(switched_boards[(group, row.pair)]) == 2 * BOARDS_PER_ROUND


def test_scored_pbn_and_csv_carry_the_switch_and_read_back_the_same(tmp_path):
    """The scored PBN (a Switched ScoreTable column) and the scored CSV, read back alone, rank as the session."""
    from bridgeproc.pipeline.write import writer

    session = build_session([str(_write(tmp_path, "option"))], Options(check=CheckOptions(arrow_switch="6-7"), dd=False))
    for name in ("scored.pbn", "scored.csv"):
        writer(name)(session, tmp_path / name)
        again = build_session([str(tmp_path / name)], Options(dd=False))
        assert _ours(again.standings) == _expected(), name
        assert int(again.results["switched"].sum()) == 2 * TABLES * BOARDS_PER_ROUND


# ----------------------------------------------------------------------------- marks read once per spelling

SPELLINGS = [
    # (cells, switched, not a mark)
    (["Y", "y", " YES ", "N", "", None, "maybe", "Y", "maybe", "↔"],
     [True, True, True, False, False, False, False, True, False, True],
     [False, False, False, False, False, False, True, False, True, False]),
    ([None, None], [False, False], [False, False]),
    ([], [], []),
    (["0", "1", "-", "2", "x"], [False, True, False, False, True], [False, False, False, True, False]),
]


@pytest.mark.parametrize("cells, switched, unreadable", SPELLINGS)
def test_switched_marks_columns(cells, switched, unreadable):
    got_switched, got_unreadable = switched_marks(pd.Series(cells, dtype="string"))
    assert got_switched.tolist() == switched and got_unreadable.tolist() == unreadable
    assert got_switched.dtype == bool and got_unreadable.dtype == bool


def test_switched_marks_reads_each_spelling_once(monkeypatch):
    seen = []

    def counting(text):
        seen.append(text)
        return switched_mark(text)

    monkeypatch.setattr(pairs, "switched_mark", counting)
    cells = pd.Series(["Y", "N", None, "maybe"] * 2500, dtype="string")
    got, bad = switched_marks(cells)
    assert sorted(seen) == ["N", "Y", "maybe"]  # 10 000 cells, three readings
    assert int(got.sum()) == 2500 and int(bad.sum()) == 2500


MARKS_IN_SWITCHED_ROUNDS = [
    # (Switched cells on round-6 rows, rows (line numbers) refused as marked not switched)
    (["Y", "", None, "yes"], []),
    (["N", "0", "no", "-"], ["2", "3", "4", "5"]),
    (["Y", " n ", "", "maybe"], ["3"]),  # 'maybe' is the Switched check's problem, not this one's
]


@pytest.mark.parametrize("cells, refused", MARKS_IN_SWITCHED_ROUNDS)
def test_option_against_the_marks_on_the_traveller(cells, refused):
    raw = _small([f"6,{t},1,{t},{t},3NT,N,9," for t in range(1, len(cells) + 1)])
    raw["switched"] = pd.array(cells, dtype="string")
    marked, problems, notes = arrow_switch_marks(raw, "6")
    assert list(problems["line"]) == refused and notes.empty
    assert marked["switched"].tolist() == ["Y"] * len(cells)  # marked as the rounds say


def test_the_checks_module_keeps_the_arrow_names():
    assert checks.arrow_switches is arrow.arrow_switches and checks.check_pair_rounds is arrow.check_pair_rounds
    assert arrow.row_or_line("Sheet1!A3", 3) == "row 3" and arrow.row_or_line("t.csv", 3) == "line 3"
