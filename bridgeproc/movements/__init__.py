"""Movements, computed and verified: who sits where each round, which boards each table plays, where
pairs and boards go next (``model``: the :class:`Movement` frame; ``mitchell``: Mitchells, skip or relay;
``howell``: complete Howells and short ones; ``individual``: individuals for 2 to 4 tables; ``sitout``: a
half table; ``sections``: two or more sections)."""
from bridgeproc.movements.howell import howell
from bridgeproc.movements.individual import individual
from bridgeproc.movements.mitchell import mitchell
from bridgeproc.movements.model import PHANTOM, Movement
from bridgeproc.movements.sections import in_sections
from bridgeproc.movements.sitout import missing_pair, with_sitout

__all__ = ["PHANTOM", "Movement", "howell", "in_sections", "individual", "missing_pair", "mitchell", "with_sitout"]
