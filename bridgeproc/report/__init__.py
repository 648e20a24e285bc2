"""Every writer: workbook sheets, scored PBN, USEBIO, CSV, teams files, score sheets (openpyxl
only here)."""
