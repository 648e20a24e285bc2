"""Traveller sheets and names lists: CSV and XLSX, header aliases."""
