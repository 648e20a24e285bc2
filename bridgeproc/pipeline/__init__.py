"""The library calls behind the commands: ``read`` (inputs by suffix), ``run`` (check, score,
rank, double dummy: computes only), ``write`` (every output and the archive, all or nothing).
``process_session`` is ``build_session`` then ``write_outputs``."""
from bridgeproc.pipeline.run import build_session, check_inputs, load_results
from bridgeproc.pipeline.write import WRITERS, export_session, process_session, write_outputs

__all__ = ["WRITERS", "build_session", "check_inputs", "export_session", "load_results", "process_session",
           "write_outputs"]
