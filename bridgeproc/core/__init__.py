"""The bridge vocabulary: seats, strains, suits and their spellings, board number to dealer and
vulnerability, deals, the contract/result and weighted-score grammar, pair identity. Imports only
``schema`` and ``errors``: every other package takes its words from here."""
