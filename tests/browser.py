"""Debian's Chromium driven by Playwright, for tests of what a person sees (no browser is downloaded: Playwright is
pointed at /usr/bin/chromium, which `make system-deps` installs). Screenshots go to build/test-output/."""
import contextlib
import os
import shutil

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHOTS = os.path.join(REPO, "build", "test-output")
VIEWPORT = {"width": 1440, "height": 900}
# As root, without a sandbox; nothing reaches out (this machine has no network but the package registries).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-quic"]


def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        raise RuntimeError("browser tests need Debian's chromium: `make system-deps` (or apt-get install chromium)")
    return path


@contextlib.contextmanager
def browser_page(javascript: bool = True):
    """A fresh page at 1440x900 whose JavaScript errors are collected in `page.errors`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=VIEWPORT, java_script_enabled=javascript)
            page.errors = []
            page.on("pageerror", lambda e: page.errors.append(str(e)))
            yield page
        finally:
            browser.close()


def screenshot(page, name: str) -> str:
    os.makedirs(SHOTS, exist_ok=True)
    path = os.path.join(SHOTS, name)
    page.screenshot(path=path)
    return path
