"""The library calls behind the commands: ``read`` (inputs by suffix), ``run`` (check, score,
rank, double dummy: computes only), ``write`` (every output and the archive, all or nothing).
``process_session`` is ``build_session`` then ``write_outputs``."""
from typing import TYPE_CHECKING

from bridgeproc._lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; each loads on first use (bridgeproc._lazy)
    from bridgeproc.pipeline.run import build_session, check_inputs, load_results
    from bridgeproc.pipeline.write import WRITERS, export_session, process_session, write_outputs

_HOMES = {
    "build_session": "bridgeproc.pipeline.run",
    "check_inputs": "bridgeproc.pipeline.run",
    "load_results": "bridgeproc.pipeline.run",
    "WRITERS": "bridgeproc.pipeline.write",
    "export_session": "bridgeproc.pipeline.write",
    "process_session": "bridgeproc.pipeline.write",
    "write_outputs": "bridgeproc.pipeline.write",
}
__getattr__ = lazy_names(__name__, _HOMES)

__all__ = ["WRITERS", "build_session", "check_inputs", "export_session", "load_results", "process_session",
           "write_outputs"]
