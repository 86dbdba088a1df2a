"""Model Explorer on ttbench's stages: the adapter's graphs (one node per op, layers by module path, def-use edges),
the overlays (findings, const-eval, op-by-op), the export folder's explorer/ and `ttbench explore`, and the real
Model Explorer web app in Chromium colouring a node with a finding."""
import io
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import ttbench as tb
from ttbench.analysis.op_kinds import is_bookkeeping
from ttbench.render.bringup_html import KIND_COLOURS
from ttbench.render.model_explorer import explorer_files, findings_overlay, op_by_op_overlay, stage_graph

from tests.browser import browser_page, screenshot

pytestmark = pytest.mark.browser  # Debian's chromium through Playwright

TTBENCH = [sys.executable, "-m", "ttbench.cli"]


def _command_lines() -> list:
    lines = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                lines.append(f.read())
        except OSError:
            pass  # gone meanwhile
    return lines


@pytest.mark.parametrize("frontend", ["export", "onnx"])
def test_every_op_is_a_node_in_its_module_layer_with_its_edges(zoo_bringup, frontend):
    b = zoo_bringup("bert_tiny", frontend, "args", True)
    for name, stage in b.stages.items():
        everything = stage_graph(stage, b.findings, bookkeeping=True)["graphs"][0]["nodes"]
        assert [n["id"] for n in everything] == [str(op.index) for op in stage.ops]
        graph = stage_graph(stage, b.findings)["graphs"][0]  # by default without transfers, layouts and frees
        nodes = graph["nodes"]
        assert [n["id"] for n in nodes] == [str(op.index) for op in stage.ops if not is_bookkeeping(op.name)]
        if name == "ttnn":
            assert len(nodes) < len(everything) * 0.8  # what a view of TTNN was cluttered with
        query = [n for n in nodes if n["namespace"] == "encoder/layer/1/attention/self/query"]
        assert query, name  # the module path is the layer, in every stage
        for node in nodes:
            for edge in node["incomingEdges"]:  # def-use: a value is made before it is used
                assert int(edge["sourceNodeId"]) < int(node["id"]), (name, node["label"])
        assert sum(len(n["incomingEdges"]) for n in nodes) >= len(nodes) // 2, name
        located = next(n for n in nodes if any(a["key"] == "source" for a in n["attrs"]))
        assert any(a["key"] == "op" and a["value"] for a in located["attrs"])


def test_overlays_colour_exactly_the_ops_with_findings(zoo_bringup):
    b = zoo_bringup("mlp", "export", "args", True)
    for name, stage in b.stages.items():
        results = findings_overlay(stage, b.findings)[name]["results"]
        flagged = {str(f.details["index"]) for f in b.findings if f.stage == name and "index" in f.details}
        assert set(results) == flagged, name
        for key, r in results.items():
            assert r["bgColor"] in KIND_COLOURS.values()
    assert findings_overlay(b.stages["stablehlo"], b.findings)["stablehlo"]["results"]  # mlp inlines constants
    # each overlay says what its numbers mean (issue 29, item 7: bare numbers with no legend)
    assert findings_overlay(b.stages["stablehlo"], b.findings)["stablehlo"]["name"] == (
        "findings (1 = in-place op, 2 = inlined constant, 3 = location lost, 4 = verifier failure, "
        "5 = meaning changed)")
    report = b.op_by_op(device="cpu", progress=False)
    pcc = op_by_op_overlay(b.stages["fx"], report)["fx"]
    assert len(pcc["results"]) == len([op for op in b.stages["fx"].ops
                                       if any(op.attrs["node"] in r.nodes for r in report.rows)])
    assert all(0.99 <= r["value"] <= 1.0 and r["bgColor"] == "#2da44e" for r in pcc["results"].values())
    with pytest.raises(tb.BadInput, match="fx/onnx"):
        op_by_op_overlay(b.stages["ttir"], report)
    files = explorer_files(b, report)
    assert "explorer/ttnn.const-eval.json" in files and "explorer/fx.op_by_op.json" in files
    const_eval = json.loads(files["explorer/ttnn.const-eval.json"])["ttnn"]["results"]
    assert const_eval and all("const_eval" in b.stages["ttnn"].ops[int(k)].attrs["func"] for k in const_eval)


def test_cli_writes_the_explorer_folder_and_serves_it(tmp_path):
    out = tmp_path / "mlp"
    bad = subprocess.run([*TTBENCH, "bringup", "mlp", "--explorer"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--out" in bad.stderr
    done = subprocess.run([*TTBENCH, "bringup", "mlp", "--no-tt", "--out", str(out), "--explorer"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    names = sorted(os.listdir(out / "explorer"))
    assert names == ["fx.findings.json", "fx.json", "stablehlo.findings.json", "stablehlo.json",
                     "torchfx.findings.json", "torchfx.json"]
    bad_port = subprocess.run([*TTBENCH, "explore", str(out), "--port", "70000"], capture_output=True, text=True)
    assert bad_port.returncode == 2 and "not a port" in bad_port.stderr
    missing = subprocess.run([*TTBENCH, "explore", str(out), "--stage", "ttnn"], capture_output=True, text=True)
    assert missing.returncode == 2 and "explorer/ttnn.json" in missing.stderr
    os.symlink("/etc/hostname", out / "explorer" / "fx.extra.json")  # an export folder is untrusted input
    linked = subprocess.run([*TTBENCH, "explore", str(out), "--stage", "fx"], capture_output=True, text=True)
    assert linked.returncode == 2 and "link" in linked.stderr
    os.remove(out / "explorer" / "fx.extra.json")
    serving = subprocess.Popen([*TTBENCH, "explore", str(out), "--stage", "fx"], stdout=subprocess.PIPE, text=True)
    try:
        url = serving.stdout.readline().split(": ", 1)[1].strip()
        assert url.startswith("http://127.0.0.1:")
        origin = url.split("/s/")[0]
        secret = url.split("/s/")[1].split("/")[0]
        base = f"{origin}/s/{secret}"
        assert len(secret) >= 24

        def status(path, base=base, **headers):
            try:
                return urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=10).status
            except urllib.error.HTTPError as exc:
                return exc.code

        graphs = "/api/v1/load_graphs_json?graph_index=0"
        # without this launch's secret (another user on the machine can reach 127.0.0.1 too): nothing
        for path in ("/", "/check_health", graphs):
            assert status(path, base=origin) == 403
            assert status(path, base=f"{origin}/s/{'x' * len(secret)}") == 403
        web_app = os.path.join(os.path.dirname(pytest.importorskip("model_explorer").__file__), "web_app")
        assert status("/" + next(n for n in os.listdir(web_app) if n.endswith(".js")), base=origin) == 403
        # with it: under /s/SECRET/ (the page sets its <base> there), or in the Referer of the app's absolute API
        # requests
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert f'<base href="/s/{secret}/">' in page
        assert status("/check_health") == status(graphs) == 200
        assert status(graphs, base=origin, Referer=url) == 200
        assert status(graphs, base=origin, Referer=url.replace("127.0.0.1", "attacker.example")) == 403
        # and only for its own graphs: no reading other files, no commands, no foreign Host/Origin
        assert status("/api/v1/read_text_file?path=/etc/hostname") == 403
        assert status("/api/v1/send_command?json={}") == 403
        assert status("/check_health", Host="attacker.example:80") == 403  # a web page via DNS rebinding
        assert status(graphs, Origin="http://attacker.example") == 403
        # the secret travels in the environment, never on a command line other users can read
        assert not any(secret.encode() in line for line in _command_lines())
    finally:
        serving.kill()  # killed, not asked: the server it started must not outlive it
        serving.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=1)
            time.sleep(0.3)
        except OSError:
            break
    else:
        pytest.fail("the Model Explorer server outlived `ttbench explore`")


def test_model_explorer_colours_the_nodes_with_findings(zoo_bringup):
    """The real web app in Chromium: the stablehlo stage's inlined constants carry the finding colour, both in
    the drawn graph (pixels of the WebGL canvas) and in its node-data table."""
    from PIL import Image

    b = zoo_bringup("mlp", "export", "args", True)
    server = b.stages["stablehlo"].explorer()
    try:
        assert server.url.startswith("http://127.0.0.1:")
        colour = KIND_COLOURS["constant"]
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        with browser_page() as page:
            elsewhere = _requests_elsewhere(page)
            page.goto(server.url)
            page.get_by_text("findings (1 = in-place op").first.wait_for(timeout=60_000)  # the overlay, by its legend
            cells = []
            deadline = time.monotonic() + 60
            while not cells and time.monotonic() < deadline:
                cells = page.evaluate("""css => [...document.querySelectorAll('td')]
                    .filter(e => getComputedStyle(e).backgroundColor === css).map(e => e.textContent.trim())""",
                                      "rgb({}, {}, {})".format(*rgb))
                time.sleep(0.5)
            assert cells, "no node-data cell in the finding's colour"
            image = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
            painted = sum(1 for px in image.get_flattened_data() if px == rgb)
            screenshot(page, "model_explorer_stablehlo_findings.png")
            assert painted > 500, f"{painted} pixels in the finding colour"  # nodes drawn in it, not only the table
            assert not [e for e in page.errors if "ttbench" in e]
            assert not elsewhere, elsewhere  # Model Explorer's page would load its fonts from Google
        assert server.served.refused() == []  # nor did the server try to reach out (its update check)
    finally:
        tb.explorer_stop()
    assert server.process.poll() is not None  # stopped


def _requests_elsewhere(page) -> list:
    """Every request the page sent to anything but this machine (filled as the page runs). One the browser refused
    to send (the servers' Content-Security-Policy) does not count: Chromium reports it failed with "csp" (or
    ERR_BLOCKED_BY_CSP) without sending it."""
    found: list = []

    def elsewhere(request) -> bool:
        return urllib.parse.urlsplit(request.url).hostname not in ("127.0.0.1", "localhost", None) and \
            not request.url.startswith(("data:", "blob:"))

    page.on("requestfinished", lambda r: elsewhere(r) and found.append(r.url))
    page.on("requestfailed", lambda r: elsewhere(r) and not _blocked_by_policy(r.failure) and
            found.append(f"{r.url} ({r.failure})"))
    return found


def _blocked_by_policy(failure) -> bool:
    return failure is not None and (failure.strip().lower() == "csp" or "BLOCKED_BY_CSP" in failure)


def test_netron_page_draws_the_model_and_reaches_nothing_else(zoo_bringup):
    """Netron's page in Chromium: the ONNX graph drawn, and no request to anywhere but its own server (netron's page
    asks ipinfo.io where the user is and reports usage to Google Analytics)."""
    b = zoo_bringup("mlp", frontend="onnx")
    server = b.stages["onnx"].netron()
    try:
        with browser_page() as page:
            elsewhere = _requests_elsewhere(page)
            page.goto(server.url)
            page.locator("#canvas").get_by_text("Gemm").first.wait_for(timeout=60_000)  # drawn (no consent dialog)
            time.sleep(2)  # the page's usage report goes after the graph is drawn
            screenshot(page, "netron_mlp_onnx.png")
            assert page.locator("#canvas").get_by_text("Gelu", exact=True).count() >= 1
            assert not elsewhere, elsewhere
        assert server.served.refused() == []
    finally:
        tb.netron_stop()


@pytest.fixture
def other_site():
    """A page on http://localhost:PORT that frames a given URL, as JupyterLab at localhost frames a server on
    127.0.0.1: another site, whose storage a browser that blocks third-party storage refuses (this one does)."""
    import http.server
    import threading

    framed = {}

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(f"<iframe src='{framed['url']}' width=1200 height=700></iframe>".encode())

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def frame(url: str) -> str:
        framed["url"] = url
        return f"http://localhost:{server.server_address[1]}/"

    yield frame
    server.shutdown()


def test_both_graph_pages_draw_inside_another_sites_frame(zoo_bringup, other_site):
    """Model Explorer's app read localStorage at start, which a browser blocking third-party storage refuses in a
    cross-site frame: a blank frame in JupyterLab (issue 29). Both servers' pages now draw there."""
    b = zoo_bringup("mlp", frontend="onnx")
    try:
        explorer, netron = b.stages["stablehlo"].explorer(), b.stages["onnx"].netron()
        with browser_page() as page:
            page.goto(other_site(explorer.url))
            frame = page.frame_locator("iframe")
            frame.get_by_text("findings (1 = in-place op").first.wait_for(timeout=60_000)
            frame.get_by_text("stablehlo.constant").first.wait_for(timeout=30_000)
            screenshot(page, "model_explorer_in_another_sites_frame.png")
            assert not [e for e in page.errors if "localStorage" in e], page.errors
            page.goto(other_site(netron.url))
            page.frame_locator("iframe").locator("#canvas").get_by_text("Gemm").first.wait_for(timeout=60_000)
            screenshot(page, "netron_in_another_sites_frame.png")
    finally:
        tb.explorer_stop()
        tb.netron_stop()


def test_export_from_python_writes_the_explorer_files_too(zoo_bringup, tmp_path):
    """Issue 29, item 8: only the CLI's --explorer could write them; b.export(dir, explorer=True) now does, and
    `ttbench explore DIR` serves what it wrote."""
    b = zoo_bringup("mlp", "export", "args", False)
    b.export(str(tmp_path / "mlp"), explorer=True)
    names = sorted(os.listdir(tmp_path / "mlp" / "explorer"))
    assert names == ["fx.findings.json", "fx.json", "stablehlo.findings.json", "stablehlo.json",
                     "torchfx.findings.json", "torchfx.json"]
    graph = json.loads((tmp_path / "mlp" / "explorer" / "stablehlo.json").read_text())
    assert len(graph["graphs"][0]["nodes"]) == len(b.stages["stablehlo"].ops)
    b.export(str(tmp_path / "plain"))
    assert not (tmp_path / "plain" / "explorer").exists()


def _squatter():
    """Another local process holding a port first: it answers everything with 200 and keeps every path asked."""
    import http.server
    import threading

    seen: list = []

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def _tree_cpu_seconds(root: int) -> float:
    """CPU seconds used so far by `root`'s descendants (user + system)."""
    stats = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            stats[int(pid)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
        except (OSError, IndexError, ValueError):
            pass
    tree, grew = {root}, True
    while grew:
        more = {pid for pid, (ppid, _) in stats.items() if ppid in tree} - tree
        tree |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in tree - {root} if pid in stats) / os.sysconf("SC_CLK_TCK")


def _connections_to(port: int) -> set:
    """(local, remote) of every TCP connection to or from `port` on this machine, TIME-WAIT ones included: a loop
    that polls a server leaves a trail of them."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                rows = f.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, remote = row.split()[1:3]
            if int(local.rsplit(":", 1)[1], 16) == port or int(remote.rsplit(":", 1)[1], 16) == port:
                found.add((local, remote))
    return found


def test_a_server_never_meets_a_port_squatter_and_idles_at_no_cpu(tmp_path, zoo_bringup):
    # Another user bound the port first: Model Explorer's URL was printed before it had bound, the squatter got
    # GET /s/SECRET/check_health and the frame showed its page. Model Explorer's own start-up loop polled "/" for a
    # 200 that the guard never gives: half a core, forever.
    out = tmp_path / "mlp"
    done = subprocess.run([*TTBENCH, "bringup", "mlp", "--no-tt", "--out", str(out), "--explorer"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    squatter, seen = _squatter()
    port = squatter.server_address[1]
    try:
        taken = subprocess.run([*TTBENCH, "explore", str(out), "--stage", "fx", "--port", str(port)],
                               capture_output=True, text=True, timeout=120)
        assert taken.returncode == 2 and taken.stderr.strip().splitlines() == [
            f"ttbench: error: port {port} is taken by another process: give another port, or none (0: a free one)"]
        b = zoo_bringup("mlp", frontend="onnx")
        with pytest.raises(tb.BadInput, match=f"port {port} is taken by another process"):
            b.stages["onnx"].netron(port=port)  # netron too: refused before its secret is sent anywhere
        assert not any("/s/" in path for path in seen), seen
    finally:
        squatter.shutdown()
    serving = subprocess.Popen([*TTBENCH, "explore", str(out), "--stage", "fx"], stdout=subprocess.PIPE, text=True)
    try:
        url = serving.stdout.readline().split(": ", 1)[1].strip()
        port = urllib.parse.urlsplit(url).port
        assert not any(f"\0{port}\0".encode() in b"\0" + line for line in _command_lines())
        time.sleep(2)  # past start-up
        before, opened = _tree_cpu_seconds(serving.pid), _connections_to(port)
        time.sleep(10)
        assert _tree_cpu_seconds(serving.pid) - before < 0.1, "the idle server uses more than 1 % of a core"
        assert len(_connections_to(port) - opened) < 3, "the idle server is polled in a loop"  # 9,411 in 12 min
        assert urllib.request.urlopen(url, timeout=10).status == 200
    finally:
        serving.kill()
        serving.wait()


def test_whatever_answers_without_the_proof_is_never_sent_the_secret(monkeypatch):
    # a launcher that names a port it does not hold (as Model Explorer's did, before binding): the one answering
    # there cannot prove it is the process ttbench started, and is sent nothing but the identity question
    from ttbench.proc.servers import start_server

    squatter, seen = _squatter()
    monkeypatch.setenv("SQUATTED_PORT", str(squatter.server_address[1]))
    liar = 'import os, time\nprint("URL http://127.0.0.1:" + os.environ["SQUATTED_PORT"] + "/", flush=True)\ntime.sleep(60)'
    try:
        with pytest.raises(tb.ServiceFailed, match="is not the server ttbench started"):
            start_server(liar, [], 0, "/check_health", "a planted server", timeout=20)
    finally:
        squatter.shutdown()
    assert len(seen) == 1 and seen[0].startswith("/.ttbench-identity?n="), seen


def test_requests_to_a_started_server_never_go_through_a_proxy(monkeypatch):
    # urllib honours http_proxy: the identity question and the health check (with the launch secret) went to the
    # proxy, not to 127.0.0.1
    from ttbench.proc.servers import start_server

    proxy, seen = _squatter()
    monkeypatch.setenv("http_proxy", f"http://127.0.0.1:{proxy.server_address[1]}")
    monkeypatch.setenv("no_proxy", "")
    gone = 'import time\nprint("URL http://127.0.0.1:9/", flush=True)\ntime.sleep(1)'  # nothing listens on 9
    try:
        with pytest.raises(tb.ServiceFailed):
            start_server(gone, [], 0, "/check_health", "a planted server", timeout=20)
    finally:
        proxy.shutdown()
    assert seen == []
