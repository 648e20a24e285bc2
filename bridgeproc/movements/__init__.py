"""Movements, computed and verified: who sits where each round, which boards each table plays, where
pairs and boards go next (``model``: the :class:`Movement` frame; ``mitchell``: Mitchells; ``howell``:
complete Howells)."""
from bridgeproc.movements.howell import howell
from bridgeproc.movements.mitchell import mitchell
from bridgeproc.movements.model import Movement

__all__ = ["Movement", "howell", "mitchell"]
