"""What the checks found as one standalone HTML page (``bridgeproc check -o report.html``): the rows of
:mod:`bridgeproc.report.checks` in the terminal's order, every text escaped, no script, nothing fetched.
Its own module, so that a run writing a workbook does not load the HTML escapes."""
from __future__ import annotations

import html
import os
import re
from pathlib import Path

from bridgeproc.model import CheckReport
from bridgeproc.report.checks import HEADINGS, report_heading, report_rows, row_values

#: Characters an HTML page must not hold (C0 controls but tab, newline and carriage return; DEL).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")

_STYLE = """body { font-family: sans-serif; margin: 1.5em; }
h1 { font-size: 1.4em; }
p { margin: 0.2em 0; color: #555; }
table { border-collapse: collapse; margin-top: 1em; }
th { background: #305496; color: #fff; text-align: left; }
th, td { border: 1px solid #999; padding: 0.2em 0.5em; vertical-align: top; white-space: pre-wrap; }
tr.error td { color: #c00000; }
tr.warning td:first-child { font-weight: bold; }
@media print { th { color: #000; background: none; } }"""


def _html_text(value: object) -> str:
    """``value`` escaped for the page, a control character shown as U+FFFD (a page cannot hold it)."""
    return html.escape(_CONTROL.sub("\ufffd", "" if value is None else str(value)), quote=True)


def check_page(report: CheckReport) -> str:
    """The report as one standalone HTML page: no script, nothing fetched (its security policy
    allows only its own style), every text escaped."""
    rows = report_rows(report)
    title, lines = report_heading(report, rows)
    head = "".join(f'<th scope="col">{_html_text(h)}</th>' for h in HEADINGS)
    body = "\n".join(f'<tr class="{_html_text(kind)}">' + "".join(f"<td>{_html_text(v)}</td>" for v in values)
                     + "</tr>" for kind, values in zip(rows["kind"], row_values(rows)))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{_html_text(title)}</title>\n<style>\n{_STYLE}\n</style>\n</head>\n<body>\n"
        f"<h1>{_html_text(title)}</h1>\n" + "".join(f"<p>{_html_text(line)}</p>\n" for line in lines)
        + f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>\n</body>\n</html>\n"
    )


def write_check_html(report: CheckReport, path: str | os.PathLike) -> None:
    Path(path).write_text(check_page(report), encoding="utf-8")


__all__ = ["check_page", "write_check_html"]
