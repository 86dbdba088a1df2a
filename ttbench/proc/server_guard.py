"""What every server ttbench starts (Model Explorer's, netron's) holds to, shared by their launchers. A plain module
with no imports from ttbench, like parent_watch: the launchers import it from this folder.

- Answer only under this launch's secret: the URL the user gets starts with /s/SECRET/; requests a page makes carry
  it in their own path (relative URLs under the page's <base>) or in their Referer (absolute ones). Another user on
  the machine can reach 127.0.0.1 too.
- Answer only to this server's own Host and Origin (a web page reaching it by DNS rebinding is refused).
- Make no outbound connection and no DNS look-up (an audit hook refuses them and says so on stderr): Model Explorer
  checks PyPI for updates at start.
- Tell the browser to fetch nothing from elsewhere (CONTENT_POLICY): netron's page reports usage to Google
  Analytics and asks ipinfo.io where the user is; Model Explorer's loads fonts from Google.
"""
import hmac
import os
import sys
import urllib.parse

SECRET_ENV = "TTBENCH_SERVER_SECRET"  # the secret comes in the environment: other users can read argv, not this
PROOF_ENV = "TTBENCH_SERVER_PROOF"  # a second secret, never sent: the server proves with it that it is ttbench's
PORT_ENV = "TTBENCH_SERVER_PORT"  # the port asked for (0: the server picks one), not in argv either
PORT_TAKEN = "PORT TAKEN"  # what a launcher prints when the port asked for is another process's
IDENTITY_PATH = "/.ttbench-identity"  # ?n=NONCE -> HMAC(proof, NONCE): answered without the secret
CONTENT_POLICY = "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:"
# Run first in a served page. In JupyterLab the page sits in an IFrame of another site (localhost embeds
# 127.0.0.1), and a browser that blocks third-party storage (Chrome incognito, Brave, "block third-party cookies")
# throws on `localStorage`: Model Explorer's app died on it with a blank frame. Where that throws, the page gets a
# storage of its own that lives as long as the page (settings are not kept across loads, nothing else changes).
STORAGE_SHIM_JS = ("(function(){for(const name of ['localStorage','sessionStorage']){try{window[name];continue}"
                   "catch(e){}const m=new Map();const s={getItem:k=>m.has(String(k))?m.get(String(k)):null,"
                   "setItem:(k,v)=>{m.set(String(k),String(v))},removeItem:k=>{m.delete(String(k))},"
                   "clear:()=>m.clear(),key:i=>[...m.keys()][i]??null,get length(){return m.size}};"
                   "Object.defineProperty(window,name,{value:s,configurable:true})}})();")
STORAGE_SHIM = f"<script>{STORAGE_SHIM_JS}</script>"
LOOPBACK = {"127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1"}
REFUSED = "ttbench: refused an outbound connection"


def requested_port() -> int:
    return int(os.environ.pop(PORT_ENV, "0"))


def identity(proof: str, nonce: str) -> str:
    return hmac.new(proof.encode(), nonce.encode(), "sha256").hexdigest()


class Guard:
    def __init__(self, port: int):
        self.proof = os.environ.pop(PROOF_ENV)
        self.secret = os.environ.pop(SECRET_ENV)
        self.prefix = f"/s/{self.secret}"
        self.hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        self.origins = {f"http://{h}" for h in self.hosts}

    def under_secret(self, path: str) -> bool:
        parts = path.split("/", 3)  # "", "s", SECRET, rest
        return len(parts) >= 3 and parts[1] == "s" and hmac.compare_digest(parts[2], self.secret)

    def strip(self, path: str) -> str:
        """The path without its /s/SECRET prefix (the caller checked under_secret)."""
        return "/" + (path.split("/", 3) + [""])[3]

    def identity_answer(self, path: str, host: str):
        """The proof for an identity request to this server (its Host), or None for any other request."""
        split = urllib.parse.urlsplit(path)
        if split.path != IDENTITY_PATH or host not in self.hosts:
            return None
        nonce = urllib.parse.parse_qs(split.query).get("n", [""])[0]
        return identity(self.proof, nonce) if 16 <= len(nonce) <= 128 else None

    def allowed(self, host: str, origin, referer, path_had_secret: bool) -> bool:
        """Host and Origin are this server's, and the secret came in the path or in a Referer from this server."""
        if host not in self.hosts or (origin is not None and origin not in self.origins):
            return False
        if path_had_secret:
            return True
        ref = urllib.parse.urlsplit(referer or "")
        return ref.netloc in self.hosts and self.under_secret(ref.path)


def no_network() -> None:
    """Refuse, from now on in this process, every connection and DNS look-up that is not to this machine."""
    def hook(event, args):
        target = None
        if event == "socket.connect" and isinstance(args[1], tuple):
            target = args[1][0]
        elif event == "socket.getaddrinfo":
            target = args[0]
        if target not in (None, "", *LOOPBACK) and not str(target).startswith("/"):
            print(f"{REFUSED} to {target}", file=sys.stderr, flush=True)
            raise PermissionError(f"{REFUSED} to {target}")

    sys.addaudithook(hook)
