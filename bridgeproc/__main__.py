from bridgeproc.cli.program import main

main()
