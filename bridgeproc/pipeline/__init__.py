"""The library calls behind the commands: ``read`` (inputs by suffix), ``run`` (check, score,
rank, double dummy), ``write`` (every output and the archive, all or nothing)."""
