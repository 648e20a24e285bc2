"""The results website of a pairs session: a folder of static pages (``-o results/``) or one
self-contained page (``-o results.html``), laid out by the Jinja2 templates in ``templates/``."""
from bridgeproc.report.web.render import single_page, site_pages, write_page, write_site
from bridgeproc.report.web.site import Site, build_site

__all__ = ["Site", "build_site", "single_page", "site_pages", "write_page", "write_site"]
