"""read_sitemap: the hand-written sitemaps of tests/data/sitemap read as the
command reads them, and their URLs judged through the Arrow readers."""

import os

import pytest

import robots_batch
from robots_batch import Matcher

from conftest import ROOT

DATA = os.path.join(ROOT, "tests", "data", "sitemap")


def test_index_children_missing_one_and_lastmod():
    table = robots_batch.read_sitemap(
        os.path.join(DATA, "sitemap_index.xml"), sitemap_dir=DATA
    )
    rows = table.to_pylist()
    assert [(r["url"], r["line"], r["lastmod"], r["error"]) for r in rows] == [
        ("https://example.com/", 5, "2025-02-01", None),
        ("https://example.com/private/report.pdf", 9, None, None),
        ("https://example.com/private/press/launch?a=1&b=2", 12, None, None),
        ("https://example.com/docs/intro", 13, "2025-01-15", None),
        ("not a url", 14, None, "not an absolute http or https URL"),
        (
            "https://example.com/maps/gone.xml.gz",
            8,
            None,
            "child sitemap not found in --sitemap-dir (by its URL's path or file name)",
        ),
    ]
    assert rows[0]["file"] == os.path.join(DATA, "maps/pages.xml")
    assert [r["kind"] for r in rows][-1] == "sitemap"


def test_llms_txt_urls_through_the_arrow_reader():
    table = robots_batch.read_sitemap(
        os.path.join(DATA, "llms.txt"), origin="https://example.com"
    )
    with open(os.path.join(DATA, "robots.txt"), "rb") as f:
        matcher = Matcher(f.read())
    verdicts = matcher.evaluate(table, column="url")
    assert verdicts.column("verdict").to_pylist() == [
        "allowed",
        "disallowed",
        "allowed",
        "allowed",
    ]


def test_malformed_xml_and_html_raise():
    with pytest.raises(ValueError, match="malformed XML at byte offset 170"):
        robots_batch.read_sitemap(os.path.join(DATA, "malformed.xml"))
    with pytest.raises(ValueError, match="is an HTML page, not a sitemap"):
        robots_batch.read_sitemap(os.path.join(DATA, "not-found.html"))
