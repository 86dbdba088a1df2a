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


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def jupyterlab(root_dir: str):
    """A JupyterLab server on 127.0.0.1 serving `root_dir`, with its settings, workspaces and runtime files in a
    folder of its own (the user's ~/.jupyter is not touched); yields the URL prefix with the token. Stopped after."""
    import secrets
    import subprocess
    import sys
    import tempfile
    import time
    import urllib.request

    port, token = free_port(), secrets.token_hex(16)
    home = tempfile.mkdtemp(prefix="ttbench-lab-")
    env = dict(os.environ, JUPYTER_CONFIG_DIR=os.path.join(home, "config"), JUPYTER_DATA_DIR=os.path.join(home, "data"),
               JUPYTER_RUNTIME_DIR=os.path.join(home, "runtime"), IPYTHONDIR=os.path.join(home, "ipython"))
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
               f"--LabApp.workspaces_dir={os.path.join(home, 'workspaces')}", "--ServerApp.port_retries=0"]
    if os.geteuid() == 0:
        command.append("--allow-root")
    log = open(os.path.join(home, "server.log"), "w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start: " + open(log.name).read()[-2000:])
                time.sleep(0.5)
        yield url, token
    finally:
        import signal

        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(home, ignore_errors=True)
