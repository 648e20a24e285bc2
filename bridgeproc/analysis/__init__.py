"""Double dummy and par (endplay, DDS, only here)."""
