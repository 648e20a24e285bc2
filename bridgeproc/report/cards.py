"""The table cards of a movement (``cards.html``): one printed page per table, each round's pairs and
boards and where the EW pair and the boards go next; for a Howell, where every pair moves, also one page
per pair; for an individual, the four players of each round and one page per player. Escaped text, no script, a page per card when printed."""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from bridgeproc._version import __version__
from bridgeproc.movements.model import PHANTOM, Movement
from bridgeproc.report.movement import movement_table
from bridgeproc.report.web.render import environment


def _next(seating: pd.DataFrame, rounds: int, resting: str = "the bye stand") -> pd.DataFrame:
    """For each round and table: the table the EW pair goes to, and the table(s) the boards go to
    (``resting`` when they rest a round, ``done`` when no one plays them again, ``end`` after the last round)."""
    later = seating.assign(round=seating["round"] - 1)
    ew_to = seating.merge(later[["section", "round", "ew", "table"]].rename(columns={"table": "ew_to"}),
                          on=["section", "round", "ew"], how="left")["ew_to"]
    # a Howell's EW pair may sit NS next: that table, said so
    as_ns = seating.merge(later[["section", "round", "ns", "table"]].rename(columns={"ns": "ew", "table": "ns_to"}),
                          on=["section", "round", "ew"], how="left")["ns_to"]
    boards_to = later.groupby(["section", "round", "board_set"])["table"].agg(
        lambda t: ", ".join(map(str, sorted(t))))
    at = pd.MultiIndex.from_frame(seating[["section", "round", "board_set"]])
    to = pd.Series(boards_to.reindex(at).to_numpy(), index=seating.index).fillna("")
    last = seating["round"] == rounds
    ew_text = ew_to.astype("Int64").astype("string").fillna(as_ns.astype("Int64").astype("string") + " (NS)")
    ew_text = ew_text.fillna("").where(~last, "end")
    ew_text = ew_text.where(seating["ew"] != PHANTOM, "")  # where the missing pair would go: no one goes
    finished = seating["round"] == seating.groupby(["section", "board_set"])["round"].transform("max")
    to = to.where(to != "", resting)  # a set that rests a round: a relay Mitchell's bye stand, a Howell's relays
    to = to.where(~finished.to_numpy(), "done")  # a set no one plays again (a short Howell's, an individual's)
    return seating.assign(ew_to=ew_text.to_numpy(), boards_to=to.where(~last, "end").to_numpy())


def _shown(seating: pd.DataFrame) -> pd.DataFrame:
    """The pairs as a card shows them: the pair that meets the missing one ``7 sits out``, the missing one
    ``-``, and those boards ``not played``."""
    out = seating.copy()
    missing = {side: seating[side] == PHANTOM for side in ("ns", "ew")}
    alone = missing["ns"] | missing["ew"]
    for side, other in (("ns", "ew"), ("ew", "ns")):
        text = seating[side].astype("string")
        text = text.where(~missing[side], "-").where(~missing[other], text + " sits out")
        out[side] = text.to_numpy()
    out["boards"] = seating["boards"].where(~alone, seating["boards"] + " not played").to_numpy()
    return out


def card_models(movement: Movement) -> list[dict]:
    """The cards as the template shows them: a table's (round, NS, EW, boards, EW to, boards to), and for a
    Howell each pair's (round, table, direction, against, boards); an individual's, :func:`individual_cards`."""
    resting = "a relay stand" if movement.kind == "howell" else "the bye stand"
    seating = _next(movement.seating, movement.rounds, resting).assign(
        boards=movement_table(movement)["boards"].to_numpy())
    if movement.players is not None:
        return individual_cards(movement, seating)
    shown = _shown(seating)
    cards = []
    for (section, table), rows in shown.groupby(["section", "table"], sort=True):
        where = f"{section} " if section else ""
        cards.append({"id": f"table-{where.strip() + '-' if section else ''}{table}",
                      "title": f"{where}Table {table}",
                      "heads": ["Round", "NS", "EW", "Boards", "EW go to table", "Boards go to table"],
                      "rows": rows[["round", "ns", "ew", "boards", "ew_to", "boards_to"]].to_numpy().tolist()})
    if movement.numbering == "shared":  # a Howell: every pair moves, a card each
        alone = (seating["ns"] == PHANTOM) | (seating["ew"] == PHANTOM)
        long = pd.concat([seating.assign(pair=seating["ns"], direction="NS", against=seating["ew"].astype("string")
                                         .where(~alone, "sits out")),
                          seating.assign(pair=seating["ew"], direction="EW", against=seating["ns"].astype("string")
                                         .where(~alone, "sits out"))])
        long = long.assign(boards=long["boards"].where(~pd.concat([alone, alone]), ""),
                           table=long["table"].astype("string").where(~pd.concat([alone, alone]), "-"),
                           direction=long["direction"].where(~pd.concat([alone, alone]), ""))
        long = long[long["pair"] != PHANTOM]
        for pair, rows in long.sort_values(["pair", "round"]).groupby("pair", sort=True):
            cards.append({"id": f"pair-{pair}", "title": f"Pair {pair}",
                          "heads": ["Round", "Table", "Sit", "Against", "Boards"],
                          "rows": rows[["round", "table", "direction", "against", "boards"]].to_numpy().tolist()})
    return cards


def individual_cards(movement: Movement, seating: pd.DataFrame) -> list[dict]:
    """An individual's cards: a table's (round, the four players, boards, boards to), and each player's
    (round, table, seat, partner, opponents, boards): every player moves, so each has a card."""
    players = movement.players
    assert players is not None
    at = seating[["section", "round", "table", "boards", "boards_to"]].reset_index(drop=True)
    seats = players[["north", "south", "east", "west"]].reset_index(drop=True)
    cards = [{"id": f"table-{table}", "title": f"Table {table}",
              "heads": ["Round", "North", "South", "East", "West", "Boards", "Boards go to table"],
              "rows": rows[["round", "north", "south", "east", "west", "boards", "boards_to"]].to_numpy().tolist()}
             for table, rows in pd.concat([at, seats], axis=1).groupby("table", sort=True)]
    partner_of = {"north": "south", "south": "north", "east": "west", "west": "east"}
    against_of = {"north": ("east", "west"), "south": ("east", "west"), "east": ("north", "south"),
                  "west": ("north", "south")}
    long = pd.concat([at.assign(player=seats[seat], seat=seat.capitalize(), partner=seats[partner_of[seat]],
                                against=seats[against_of[seat][0]].astype("string") + " & "
                                + seats[against_of[seat][1]].astype("string"))
                      for seat in partner_of], ignore_index=True)
    for player, rows in long.sort_values(["player", "round"]).groupby("player", sort=True):
        cards.append({"id": f"player-{player}", "title": f"Player {player}",
                      "heads": ["Round", "Table", "Seat", "Partner", "Against", "Boards"],
                      "rows": rows[["round", "table", "seat", "partner", "against", "boards"]].to_numpy().tolist()})
    return cards


def write_table_cards(movement: Movement, path: str | os.PathLike) -> None:
    """``cards.html`` (see the module's text)."""
    _write(path, movement.name, card_models(movement))


def write_table_cards_folder(movement: Movement, folder: str | os.PathLike) -> None:
    """``cards/``: a page per card (``table-1.html`` ... ``pair-10.html``) and ``index.html`` holding them
    all (printed, one card a page), for a club that prints one table's card again."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    cards = card_models(movement)
    _write(root / "index.html", movement.name, cards)
    for card in cards:
        _write(root / f"{card['id']}.html", f"{movement.name}: {card['title']}", [card])


def _write(path: str | os.PathLike, title: str, cards: list[dict]) -> None:
    page = environment().get_template("table_cards.html").render(title=title, cards=cards, version=__version__)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(page)
