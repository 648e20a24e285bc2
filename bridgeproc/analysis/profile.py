"""A player's play against double dummy, from results that carry a contract, the tricks and the lead,
and deals that are known: as declarer, the tricks taken against the double-dummy tricks of the contract;
on opening lead, what the lead cost against the best lead; in defence, where the result carries its play
(``schema.PLAY``), the tricks each defender's cards after the lead gave away.

Each deal is solved once per strain and leader for every card the leader holds (DDS through endplay:
the defenders' tricks after each lead), and kept for the rest of the process, as the double-dummy tables
are (:mod:`bridgeproc.analysis.dd`). The lead's cost is the best lead's tricks less the lead's. A play is
solved card by card (DDS's AnalysePlay: declarer's double-dummy tricks before the lead and after each
card), and a defender's card that raises declarer's tricks gave that many away. Figures
are a mean with its sample size and a 95 % interval (Student's t), and none at all below
:data:`MIN_SAMPLE` results: a handful of boards says nothing of a player.
"""
from __future__ import annotations

import math
from collections.abc import MutableMapping

import numpy as np
import pandas as pd

from bridgeproc.analysis.dd import endplay_module, normalize_deal
from bridgeproc.core.deal import trick_winner
from bridgeproc.schema import PLAY, SEATS, STRAINS

#: Fewer results than this give no figure (the interval would be wider than anything it could show).
MIN_SAMPLE = 8
#: The opening leader: declarer's left-hand opponent.
LEADER = {"N": "E", "E": "S", "S": "W", "W": "N"}
#: Student's t for a two-sided 95 % interval, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
       11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110, 18: 2.101, 19: 2.093,
       20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060, 26: 2.056, 27: 2.052, 28: 2.048,
       29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}

#: (deal, strain, leader) -> {card: the defenders' double-dummy tricks after that lead}.
_LEADS: dict[tuple[str, str, str], dict[str, int]] = {}
#: (deal, strain, leader, play) -> declarer's double-dummy tricks before the lead and after each card.
_PLAYS: dict[tuple[str, str, str, str], list[int]] = {}
#: The partner of each seat.
PARTNER = {"N": "S", "S": "N", "E": "W", "W": "E"}
#: The seats in playing order, each followed by the next clockwise.
_NEXT = {"N": "E", "E": "S", "S": "W", "W": "N"}


def clear_cache() -> None:
    """Forget every lead and play solved so far in this process."""
    _LEADS.clear()
    _PLAYS.clear()


def _batches(keys: list[tuple]):
    """``keys`` (each starting ``deal, strain, leader``) in batches of 100, each with its endplay deals: the
    deal with that trump and that player on lead (DDS solves up to 200 boards a call)."""
    endplay_module()
    from endplay.types import Deal, Denom, Player

    denoms = {"C": Denom.clubs, "D": Denom.diamonds, "H": Denom.hearts, "S": Denom.spades, "NT": Denom.nt}
    players = dict(zip(SEATS, (Player.north, Player.east, Player.south, Player.west)))
    for start in range(0, len(keys), 100):
        batch = keys[start:start + 100]
        deals = []
        for deal, strain, leader, *_ in batch:
            board = Deal(deal)
            board.trump, board.first = denoms[strain], players[leader]
            deals.append(board)
        yield batch, deals


def lead_tricks(keys: list[tuple[str, str, str]], cache: MutableMapping | None = None) -> list[dict[str, int]]:
    """For each ``(deal, strain, leader)`` (a normalized deal, ``C D H S NT``, ``N E S W``): every card the
    leader holds (``SA``, ``H7`` ...) -> the defenders' tricks after it, double dummy; solved in batches,
    each distinct key once."""
    cache = _LEADS if cache is None else cache
    todo = list(dict.fromkeys(k for k in keys if k not in cache))
    if todo:
        from endplay.dds import solve_all_boards
        from endplay.types import Denom

        suits = {Denom.spades: "S", Denom.hearts: "H", Denom.diamonds: "D", Denom.clubs: "C"}
        for batch, deals in _batches(todo):
            for key, solved in zip(batch, solve_all_boards(deals)):
                cache[key] = {suits[card.suit] + card.rank.name.removeprefix("R"): int(tricks) for card, tricks in solved}
    return [cache[k] for k in keys]


def play_tricks(keys: list[tuple[str, str, str, str]], cache: MutableMapping | None = None) -> list[list[int]]:
    """For each ``(deal, strain, leader, play)`` (a normalized deal, ``C D H S NT``, ``N E S W``, the cards
    played in order, space-separated): declarer's double-dummy tricks before the lead and after each card
    up to trick 12 (DDS's AnalysePlay gives no more: the last trick has no choice); solved in batches, each
    distinct key once."""
    cache = _PLAYS if cache is None else cache
    todo = list(dict.fromkeys(k for k in keys if k not in cache))
    if todo:
        from endplay.dds import analyse_all_plays

        for batch, deals in _batches(todo):
            for key, solved in zip(batch, analyse_all_plays(deals, [k[3].split() for k in batch])):
                cache[key] = [int(t) for t in solved]
    return [cache[k] for k in keys]


def defence_costs(leader: str, strain: str, cards: str, tricks: list[int]) -> tuple[int, int]:
    """The tricks the leader's and the leader's partner's cards after the lead gave away: each defender's card
    that raised declarer's double-dummy tricks (``tricks``, as :func:`play_tricks` gives them), summed; the
    seat of each card found by who won each trick."""
    played = cards.split()
    trump = None if strain == "NT" else strain
    seats: list[str] = []
    on_lead = leader
    for start in range(0, len(played), 4):
        order = []
        seat = on_lead
        for card in played[start:start + 4]:
            order.append((seat, card))
            seat = _NEXT[seat]
        seats += [s for s, _ in order]
        if len(order) == 4:
            on_lead = trick_winner(order, trump)
    partner = PARTNER[leader]
    given = {leader: 0, partner: 0}
    # the lead (position 0) has its own figure; DDS stops after trick 12: the last trick's cards are forced
    for position in range(1, min(len(played), len(tricks) - 1)):
        seat = seats[position]
        if seat in given:
            given[seat] += max(0, tricks[position + 1] - tricks[position])
    return given[leader], given[partner]


def contract_rows(results: pd.DataFrame, deals: pd.DataFrame, cache: MutableMapping | None = None,
                  plays: MutableMapping | None = None) -> pd.DataFrame:
    """One row per result with a contract played, its tricks and a known deal: ``pos`` (its row in
    ``results``), ``board``, ``declarer``, ``strain``, ``kind`` (``suit`` or ``notrump``), ``tricks``,
    ``dd`` (the deal's double-dummy tricks for that declarer and strain), ``declarer_gain`` (tricks - dd),
    ``leader``, ``lead``, ``lead_cost`` (the best lead's defensive tricks less the lead's; NA without a lead,
    or a lead the leader did not hold), ``partner`` (the leader's partner), and from a result's play
    (``schema.PLAY``) of more than the lead: ``leader_defence`` and ``partner_defence``, the tricks each
    defender's cards after the lead gave away, and their sum ``defence_cost`` (NA without such a play).
    ``deals`` is the boards frame (``board``, ``deal``, ``dd_*``); ``cache`` the leads solved before
    (:func:`lead_tricks`), ``plays`` the plays (:func:`play_tricks`)."""
    played = results[(results["level"].fillna(0).astype("int64") > 0) & results["tricks"].notna()
                     & results["declarer"].notna() & results["strain"].notna()]
    if "adjusted" in played:
        played = played[played["adjusted"].isna()]
    by_board = deals.drop_duplicates("board").set_index("board")
    at = by_board.index.get_indexer(played["board"])
    known = at >= 0
    played, at = played[known], at[known]
    normalized = np.array([normalize_deal(d) for d in by_board["deal"].to_numpy()], dtype=object)  # once a board
    deal = pd.Series(normalized[at], index=played.index, dtype="object")
    declarer, strain = played["declarer"].astype("string"), played["strain"].astype("string")
    columns = [f"dd_{s}_{t}" for s in SEATS for t in STRAINS]
    table = by_board.reindex(columns=columns).to_numpy(dtype="float64", na_value=np.nan)[at]
    which = pd.Index(columns).get_indexer(("dd_" + declarer + "_" + strain).to_numpy(dtype=object))
    dd = np.where(which >= 0, table[np.arange(len(at)), np.maximum(which, 0)], np.nan)
    out = pd.DataFrame({
        "pos": played.index.to_numpy(), "board": played["board"].to_numpy(), "declarer": declarer.to_numpy(),
        "strain": strain.to_numpy(), "kind": np.where(strain.to_numpy(dtype=object) == "NT", "notrump", "suit"),
        "tricks": played["tricks"].astype("Int64").to_numpy(),
        "dd": pd.Series(dd).astype("Float64").round().astype("Int64").to_numpy(),
        "leader": declarer.map(LEADER).to_numpy(),
        "lead": played["lead"].astype("string").str.strip().str.upper().to_numpy() if "lead" in played
        else pd.array([pd.NA] * len(played), dtype="string"),
        "play": played[PLAY].astype("string").to_numpy() if PLAY in played
        else pd.array([pd.NA] * len(played), dtype="string"),
    })
    out = out[deal.notna().to_numpy()].reset_index(drop=True)
    deal = deal[deal.notna()].reset_index(drop=True)
    out["declarer_gain"] = (out["tricks"] - out["dd"]).astype("Float64")
    out["lead"] = out["lead"].astype("string").str.replace("10", "T", regex=False)
    led = out["lead"].notna().to_numpy() & (out["lead"].str.len() == 2).fillna(False).to_numpy(dtype=bool)
    cost = pd.Series(pd.NA, index=out.index, dtype="Int64")
    if led.any():
        keys = list(zip(deal[led], out.loc[led, "strain"], out.loc[led, "leader"]))
        distinct = list(dict.fromkeys(keys))
        long = pd.DataFrame([(i, card, tricks, max(t.values())) for i, t in enumerate(lead_tricks(distinct, cache))
                             for card, tricks in t.items()], columns=["key", "lead", "after", "best"])
        asked = pd.DataFrame({"key": pd.Index(distinct).get_indexer(keys), "lead": out.loc[led, "lead"].to_numpy()})
        found = asked.merge(long.astype({"lead": "string"}), on=["key", "lead"], how="left")
        cost[led] = (found["best"] - found["after"]).astype("Int64").to_numpy()
    out["lead_cost"] = cost
    out["partner"] = out["leader"].map(PARTNER)
    return _with_defence(out, deal, plays).drop(columns="play")


def _with_defence(out: pd.DataFrame, deal: pd.Series, plays: MutableMapping | None) -> pd.DataFrame:
    """``out`` (:func:`contract_rows`) with ``leader_defence``, ``partner_defence`` and ``defence_cost``."""
    given = {c: pd.Series(pd.NA, index=out.index, dtype="Int64") for c in ("leader_defence", "partner_defence")}
    defended = (out["play"].str.count(" ") >= 1).fillna(False).to_numpy(dtype=bool)  # a card after the lead
    if defended.any():
        keys = list(zip(deal[defended], out.loc[defended, "strain"], out.loc[defended, "leader"],
                        out.loc[defended, "play"]))
        costs = [defence_costs(leader, strain, cards, tricks)
                 for (_, strain, leader, cards), tricks in zip(keys, play_tricks(keys, plays))]
        for column, values in zip(given, zip(*costs)):
            given[column][defended] = list(values)
    return out.assign(**given, defence_cost=given["leader_defence"] + given["partner_defence"])


def t95(n: int) -> float:
    """Student's t for a 95 % interval of a mean of ``n`` values (the table's, or for a df between its rows
    the smaller df's, which is larger: the interval is never narrower than it should be)."""
    df = n - 1
    smaller = [k for k in T95 if k <= df]  # between the table's rows, the smaller df's: never a narrower interval
    return T95[max(smaller)] if smaller else math.inf


def figure(values: pd.Series, floor: float = -math.inf) -> dict | None:
    """``n``, ``mean`` and the 95 % interval ``low`` - ``high`` of ``values`` (NA left out; ``low`` no less than
    ``floor``, the least a value can be); None below :data:`MIN_SAMPLE` values."""
    shown = values.dropna().astype("float64")
    n = len(shown)
    if n < MIN_SAMPLE:
        return None
    mean, sd = float(shown.mean()), float(shown.std(ddof=1))
    half = t95(n) * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "low": max(mean - half, floor), "high": mean + half}


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def profile_words(row) -> list[str]:
    """A player's profile row (``schema.PROFILE_COLUMNS``) in sentences, a figure only where its sample
    says something, else how many results there were."""
    lines = []
    if pd.notna(row["declarer_gain"]):
        field = (f"; {_signed(row['field_gain'])} a contract against the others who declared that strain from that "
                 "seat on the same boards" if pd.notna(row["field_gain"]) else "")
        lines.append(f"As declarer: {row['declared']} contracts, {_signed(row['declarer_gain'])} tricks against "
                     f"double dummy (95 %: {_signed(row['declarer_low'])} to {_signed(row['declarer_high'])}){field}.")
    else:
        lines.append(f"As declarer: {row['declared']} contracts, too few to say (a figure needs {MIN_SAMPLE}).")
    for prefix, what in (("suit", "suit"), ("nt", "notrump")):
        count = row[f"{prefix}_leads"]
        if pd.notna(row[f"{prefix}_lead_cost"]):
            lines.append(f"Opening leads against {what} contracts: {count}, costing {row[f'{prefix}_lead_cost']:.2f} "
                         f"tricks against the best lead (95 %: {row[f'{prefix}_lead_low']:.2f} to "
                         f"{row[f'{prefix}_lead_high']:.2f}); the club's {row[f'club_{prefix}_lead_cost']:.2f}.")
        else:
            lines.append(f"Opening leads against {what} contracts: {count}, too few to say.")
    if row.get("defended", 0) and pd.notna(row["defence_cost"]):
        lines.append(f"In defence after the lead: {row['defended']} hands whose play is known, {row['defence_cost']:.2f} "
                     f"tricks given away a hand against double dummy (95 %: {row['defence_low']:.2f} to "
                     f"{row['defence_high']:.2f}); the club's {row['club_defence_cost']:.2f}.")
    elif row.get("defended", 0):
        lines.append(f"In defence after the lead: {row['defended']} hands whose play is known, too few to say.")
    if pd.notna(row.get("par_imps", pd.NA)):
        lines.append(f"The contracts reached against par, double dummy: {row['boards_bid']} boards, "
                     f"{_signed(row['par_imps'])} IMPs a board (95 %: {_signed(row['par_low'])} to "
                     f"{_signed(row['par_high'])}); {row['underbid']} underbid and {row['overbid']} overbid as the "
                     f"declaring side, {row['missed_double']} double(s) missed as the defenders.")
    return lines
