"""How a session numbers its pairs (the words only: no pandas, so the command line's options load fast;
``core.pairs`` finds the numbering of a set of results)."""
from __future__ import annotations

from typing import Literal

#: ``shared``: one number per pair across NS and EW (a Howell, a Mitchell numbered 1..2n);
#: ``per-direction``: NS 1 and EW 1 are two pairs (a Mitchell); ``auto``: found from the results.
PairNumbering = Literal["auto", "shared", "per-direction"]
