from bridgeproc.cli import cli

cli(prog_name="bridgeproc")
