"""The `swiss` command (being written)."""
from __future__ import annotations
