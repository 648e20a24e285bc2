"""The `sim` command (being written)."""
from __future__ import annotations
