"""Movements, computed and verified: who sits where each round, which boards each table plays, where
pairs and boards go next (``model``: the :class:`Movement` frame; ``mitchell``: Mitchells)."""
from bridgeproc.movements.mitchell import mitchell
from bridgeproc.movements.model import Movement

__all__ = ["Movement", "mitchell"]
