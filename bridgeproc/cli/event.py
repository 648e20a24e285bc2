"""The `event` command (being written)."""
from __future__ import annotations
