"""``archive profile`` finds the right players for every result however the standings name them: two
sections (pairs numbered 1.. in each), a per-direction Mitchell ranked as one field (``NS 5``), an
individual (the declarer and the leader known exactly); each player's counts against a slow count of the
results from the names list."""
from __future__ import annotations

import csv
import dataclasses
import io

import openpyxl
import pandas as pd
import pytest

from bridgeproc.analysis.dd import normalize_deal
from bridgeproc.archive import archive_session
from bridgeproc.archive.profile import profile
from bridgeproc.cli import cli
from bridgeproc.core.deal import RANKS, trick_winner
from bridgeproc.model import Options
from bridgeproc.pipeline.run import build_session
from bridgeproc.schema import PROFILE_COLUMNS
from tests.analysis.test_profile import _direct_defence
from tests.conftest import SAMPLE

pytestmark = [pytest.mark.e2e, pytest.mark.dd]  # scores, archives and solves double dummy

LEADER = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _sample(tmp_path, sections):
    """The sample evening's travellers and names, copied into each of ``sections`` (same pair numbers),
    the players of each section named apart."""
    travellers = (SAMPLE / "club-evening-travellers.csv").read_text(encoding="utf-8").splitlines()
    names = (SAMPLE / "club-evening-names.csv").read_text(encoding="utf-8").splitlines()
    if not sections:
        return SAMPLE / "club-evening-travellers.csv", SAMPLE / "club-evening-names.csv"
    t = ["Section," + travellers[0]] + [f"{s},{line}" for s in sections for line in travellers[1:]]
    n = ["Section," + names[0]]
    for s in sections:
        for line in names[1:]:
            pair, direction, pair_names = next(csv.reader([line]))
            renamed = " & ".join(f"{name} {s}" for name in pair_names.split(" & "))
            n.append(f"{s},{pair},{direction},{renamed}")
    (tmp_path / "t.csv").write_text("\n".join(t) + "\n", encoding="utf-8")
    (tmp_path / "n.csv").write_text("\n".join(n) + "\n", encoding="utf-8")
    return tmp_path / "t.csv", tmp_path / "n.csv"


def _slow_counts(travellers, names_file):
    """Per player: contracts declared and leads made by their pair (by section, direction and number)."""
    listed = {}
    with open(names_file, encoding="utf-8") as handle:
        names_rows = list(csv.DictReader(handle))
    with open(travellers, encoding="utf-8") as handle:
        traveller_rows = list(csv.DictReader(handle))
    for row in names_rows:
        for name in row["Names"].split(" & "):
            listed.setdefault((row.get("Section", ""), row["Direction"], row["Pair"]), []).append(name)
    declared, led = {}, {}
    for row in traveller_rows:
        if row["Contract"].upper() in ("PASS", "") or not row["Declarer"]:
            continue
        ns_declared = row["Declarer"] in "NS"
        section = row.get("Section", "")
        declaring = (section, "NS", row["NS"]) if ns_declared else (section, "EW", row["EW"])
        defending = (section, "EW", row["EW"]) if ns_declared else (section, "NS", row["NS"])
        for name in listed[declaring]:
            declared[name] = declared.get(name, 0) + 1
        if row["Lead"]:
            for name in listed[defending]:
                led[name] = led.get(name, 0) + 1
    return declared, led


@pytest.mark.parametrize(("sections", "more"), [(["A", "B"], []), ([], ["--winners", "one"])],
                         ids=["two sections", "one winner per-direction"])
def test_each_player_gets_their_own_partnerships_results(runner, tmp_path, sections, more):
    travellers, names = _sample(tmp_path, sections)
    archive = tmp_path / "a.sqlite"
    scored = runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(travellers), "--names", str(names),
                                 "--archive", str(archive), "-o", str(tmp_path / "x.csv"), "-q", *more])
    assert scored.exit_code == 0, scored.output
    result = runner.invoke(cli, ["archive", "profile", "--archive", str(archive), "--csv"])
    assert result.exit_code == 0, result.output
    table = {row["name"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    declared, led = _slow_counts(travellers, names)
    assert len(table) == len(declared) == 52 * max(1, len(sections))  # 26 pairs a section
    assert {name: int(row["declared"]) for name, row in table.items()} == declared
    assert {name: int(row["suit_leads"]) + int(row["nt_leads"]) for name, row in table.items()} == \
        {name: led.get(name, 0) for name in table}


def _individual_evening(runner, tmp_path, leads: bool = True):
    """An individual of 3 tables and 22 boards typed into bridgeproc's own entry workbook: a contract, its
    declarer, made exactly (and a lead, ``leads``) on every row, the players named ``Player 01`` ..."""
    path = tmp_path / "entry.xlsx"
    assert runner.invoke(cli, ["movement", "individual", "--tables", "3", "--boards", "22", "-o", str(path)]).exit_code == 0
    wb = openpyxl.load_workbook(path)
    ws = wb["Travellers"]
    contracts = ["3NT", "4S", "2H", "3C", "1NT", "4H", "5D", "2S"]
    for r in range(2, ws.max_row + 1):
        pick = (ws.cell(r, 1).value * 5 + r) % 8
        typed = [contracts[pick], "NESW"[r % 4], "="] + (["SA" if r % 3 else "HK"] if leads else [])
        for column, value in zip(range(6, 10), typed):
            ws.cell(r, column).value = value
    for r in range(2, wb["Names"].max_row + 1):
        wb["Names"].cell(r, 2).value = f"Player {r - 1:02d}"
    wb.save(path)
    return path


def test_an_individuals_declarer_and_leader_are_known_seat_by_seat(runner, tmp_path):
    path = _individual_evening(runner, tmp_path)
    archive = tmp_path / "a.sqlite"
    deal = SAMPLE / "club-evening.pbn"  # boards 1-22 of the sample's hand record
    scored = runner.invoke(cli, ["score", str(deal), str(path), "--archive", str(archive), "-o", str(tmp_path / "s.csv"),
                                 "-q", "--date", "2026-12-05"])
    assert scored.exit_code == 0, scored.output
    result = runner.invoke(cli, ["archive", "profile", "--archive", str(archive), "--csv"])
    assert result.exit_code == 0, result.output
    table = {row["name"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    declared: dict[str, int] = {}
    with open(tmp_path / "s.csv", encoding="utf-8") as handle:
        scored_rows = list(csv.DictReader(handle))
    for row in scored_rows:
        side = row["ns"] if row["declarer"] in "NS" else row["ew"]
        who = side.split("+")[0 if row["declarer"] in "NE" else 1]
        declared[f"Player {int(who):02d}"] = declared.get(f"Player {int(who):02d}", 0) + 1
    assert {name: int(row["declared"]) for name, row in table.items()} == declared
    assert sum(declared.values()) == 66 and all(int(row["boards_bid"]) == 22 for row in table.values())


def test_profile_csv_reads_back_as_the_table_printed(runner, tmp_path):
    travellers, names = _sample(tmp_path, [])
    archive = tmp_path / "a.sqlite"
    assert runner.invoke(cli, ["score", str(SAMPLE / "club-evening.pbn"), str(travellers), "--names", str(names),
                               "--archive", str(archive), "-o", str(tmp_path / "x.csv"), "-q"]).exit_code == 0
    out = tmp_path / "profile.csv"
    result = runner.invoke(cli, ["archive", "profile", "--archive", str(archive), "--csv", "-o", str(out)])
    assert result.exit_code == 0, result.output


    written = pd.read_csv(out, dtype=str, keep_default_na=False)
    printed = pd.read_csv(io.StringIO(result.stdout), dtype=str, keep_default_na=False)
    assert list(written.columns) == list(PROFILE_COLUMNS) and len(written) == 52
    assert written[["key", "name", "declared", "suit_leads", "nt_leads", "boards_bid"]].equals(
        printed[["key", "name", "declared", "suit_leads", "nt_leads", "boards_bid"]])
    shown = written[written["declarer_gain"] != ""]
    assert len(shown) and all(float(row.declarer_low) <= float(row.declarer_gain) <= float(row.declarer_high)
                              for row in shown.itertuples())


def _bot_play(deal: str, strain: str, leader: str) -> str:
    """A legal play of ``deal`` (each player follows suit with their lowest card, else throws their lowest):
    the cards in the order played."""
    first, hands = deal[0], deal[2:].split(" ")
    order = "NESW"
    seats = [order[(order.index(first) + i) % 4] for i in range(4)]
    held = {seat: [s + r for s, ranks in zip("SHDC", hand.split(".")) for r in ranks] for seat, hand in zip(seats, hands)}
    low = lambda cards: max(cards, key=lambda c: RANKS.index(c[1]))  # noqa: E731
    played, on_lead = [], leader
    for _ in range(13):
        trick, seat = [], on_lead
        for _ in range(4):
            suit = [c for c in held[seat] if trick and c[0] == trick[0][1][0]]
            card = low(suit or held[seat])
            held[seat].remove(card)
            trick.append((seat, card))
            seat = order[(order.index(seat) + 1) % 4]
        played += [c for _, c in trick]
        on_lead = trick_winner(trick, None if strain == "NT" else strain)
    return " ".join(played)


def test_the_defence_after_the_lead_of_an_archived_pair_against_dds_card_by_card(tmp_path):
    """A session whose results carry their play (here a legal play made up for each): ``archive profile``
    gives each player the tricks their pair's cards after the lead gave away, its mean equal to SolveBoard's
    position by position (tests/analysis/test_profile.py's oracle) over that pair's defended hands."""



    options = Options()
    options = dataclasses.replace(options, read=dataclasses.replace(
        options.read, names=[str(SAMPLE / "club-evening-names.csv")]))
    session = build_session([str(SAMPLE / "club-evening.pbn"), str(SAMPLE / "club-evening-travellers.csv")], options)
    deals = session.boards.set_index("board")["deal"].map(normalize_deal)
    results = session.results
    played = results["level"].fillna(0).astype(int).gt(0) & results["adjusted"].isna()
    plays = [_bot_play(deals[b], s, LEADER[d]) if ok else None for b, s, d, ok in
             zip(results["board"], results["strain"].astype(str), results["declarer"].astype(str), played)]
    url = tmp_path / "a.sqlite"
    archive_session(dataclasses.replace(session, results=results.assign(play=pd.array(plays, dtype="string"))),
                    url, event="Club", date="2026-12-01")
    measured = profile(url)
    assert any(n.startswith("defence after the lead from the ") for n in measured.notes)
    defended = results[played & results["declarer"].isin(["E", "W"]) & (results["ns"] == "1")]
    direct = [sum(_direct_defence(deals[b], s, LEADER[d], p)) for b, s, d, p in
              zip(defended["board"], defended["strain"].astype(str), defended["declarer"].astype(str),
                  [plays[i] for i in defended.index])]
    names = session.names
    pair = names[(names["pair"].astype(str) == "1") & (names["direction"].astype(str) == "NS")]["names"].iloc[0]
    table = measured.table.set_index("name")
    for player in pair.split(" & "):
        assert table.at[player, "defended"] == len(direct) >= 8
        assert table.at[player, "defence_cost"] == pytest.approx(sum(direct) / len(direct))
    assert sum(direct) > 0  # the bot gives tricks away: the figure is not a row of zeros


def test_an_individuals_defence_after_the_lead_is_each_defenders_own_cards(runner, tmp_path):
    """In an individual each defender is measured by their own cards (the leader's and the partner's apart):
    one player's ``defence_cost`` equals SolveBoard's figure for that player's seat, position by position, over
    every hand the player defended."""



    path = _individual_evening(runner, tmp_path, leads=False)
    session = build_session([str(SAMPLE / "club-evening.pbn"), str(path)], Options())
    deals = session.boards.set_index("board")["deal"].map(normalize_deal)
    results = session.results
    plays = [_bot_play(deals[b], s, LEADER[d]) for b, s, d in
             zip(results["board"], results["strain"].astype(str), results["declarer"].astype(str))]
    url = tmp_path / "a.sqlite"
    archive_session(dataclasses.replace(session, results=results.assign(play=pd.array(plays, dtype="string"))),
                    url, event="Club", date="2026-12-05")
    table = profile(url).table.set_index("name")
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}
    pairs_way = []  # what counting both defenders' cards, as for a pair, would have given
    for player in ("1", "7"):
        own, both = [], []
        for i, (b, s, d, ns, ew) in enumerate(zip(results["board"], results["strain"].astype(str),
                                                  results["declarer"].astype(str), results["ns"], results["ew"])):
            seats = dict(zip("NSEW", [*ns.split("+"), *ew.split("+")]))
            mine = next(seat for seat, number in seats.items() if number == player) if player in seats.values() else None
            if mine is None or mine not in (LEADER[d], opposite[LEADER[d]]):
                continue  # not at this table, or declaring or dummy
            leader_cost, partner_cost = _direct_defence(deals[b], s, LEADER[d], plays[i])
            own.append(leader_cost if mine == LEADER[d] else partner_cost)
            both.append(leader_cost + partner_cost)
        name = f"Player {int(player):02d}"
        pairs_way.append(sum(both) / len(both))
        assert table.at[name, "defended"] == len(own) >= 8
        assert table.at[name, "defence_cost"] == pytest.approx(sum(own) / len(own))
    assert [table.at[f"Player {p:02d}", "defence_cost"] for p in (1, 7)] != pytest.approx(pairs_way)
