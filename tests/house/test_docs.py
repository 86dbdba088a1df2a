"""The README is a tutorial and docs/ the reference (issue 44, item 12): every link between them leads somewhere."""
import os
import re

import pytest
from tests.paths import REPO

README = os.path.join(REPO, "README.md")
PAGES = [README] + sorted(os.path.join(REPO, "docs", f) for f in os.listdir(os.path.join(REPO, "docs"))
                          if f.endswith(".md"))
LINK_RE = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
FENCE_RE = re.compile(r"^```.*?^```", re.S | re.M)


def _anchors(path: str) -> set:
    """GitHub's anchors for a markdown file's headings (lower case, punctuation dropped, spaces to dashes)."""
    with open(path) as f:
        text = FENCE_RE.sub("", f.read())
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.*)$", text, re.M)}


def _links(path: str) -> list:
    with open(path) as f:
        return LINK_RE.findall(FENCE_RE.sub("", f.read()))


@pytest.mark.parametrize("page", PAGES, ids=[os.path.relpath(p, REPO) for p in PAGES])
def test_every_link_leads_to_a_file_and_heading_that_exist(page):
    dead = []
    for link in _links(page):
        if re.match(r"^[a-z]+:", link):  # http(s), mailto: not fetched (no network here)
            continue
        target, _, anchor = link.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
        if not os.path.exists(path) or not path.startswith(REPO + os.sep):
            dead.append(link)
        elif anchor and path.endswith(".md") and anchor not in _anchors(path):
            dead.append(link)
    assert not dead, f"{os.path.relpath(page, REPO)} links to nothing: {dead}"


def test_the_readme_is_a_short_tutorial_that_links_every_reference_page():
    with open(README) as f:
        text = f.read()
    assert len(text.splitlines()) <= 250
    assert text.startswith("# ttbench\n\n```\nmake demo") and "make test" in text.split("\n\n")[1]
    linked = {os.path.normpath(os.path.join(REPO, link.partition("#")[0])) for link in _links(README)}
    unlinked = [os.path.relpath(p, REPO) for p in PAGES[1:] if p not in linked]
    assert not unlinked, f"the README links no page for {unlinked}"
