"""`ruledsl view` answers only its own page: a token, the Host, JSON posts, and malformed requests.

A web page of another site can send requests to 127.0.0.1 (and a DNS-rebound
name can point there), so the viewer must not play a move or show a seat's
view for anyone but the page it printed the address of. Requests are written
byte by byte on a socket here, as a hostile client would send them.
"""

import json
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

import ruledsl
from ruledsl.desk.viewer import Session, make_server, page_url

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "trolley_car.rules"
TOKEN = "a-token-for-these-tests-42"


@pytest.fixture(scope="module")
def game():
    return ruledsl.load(RULES)


@pytest.fixture
def live(game):
    """A live game where seat 0 decides now, served; yields (port, session)."""
    session = Session(game, 2, 5, 0, live=True)
    server = make_server(session, 0, token=TOKEN)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], session
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def raw(port, request: bytes, timeout=5.0):
    """Send ``request`` as it is; the status code and the body of the answer (None: no answer in time)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except (socket.timeout, ConnectionResetError):
            if not chunks:
                return None, b""
    data = b"".join(chunks)
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def http(port, method="GET", path="/api/game", *, token=TOKEN, host=None, headers=None, body=b""):
    if token is not None:
        path += ("&" if "?" in path else "?") + "token=" + token
    lines = [f"{method} {path} HTTP/1.1", f"Host: {f'127.0.0.1:{port}' if host is None else host}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    if body and not any(k.lower() == "content-length" for k in (headers or {})):
        lines.append(f"Content-Length: {len(body)}")
    return raw(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def post(port, body=b'{"index": 0}', ctype="application/json", **kw):
    headers = {"Content-Type": ctype, **kw.pop("headers", {})}
    return http(port, "POST", "/api/move", headers=headers, body=body, **kw)


def test_the_page_and_every_api_call_need_the_token(live):
    port, session = live
    for path in ("/", "/index.html", "/api/game", "/api/step/0", "/api/moves?upto=1"):
        assert http(port, path=path)[0] == 200, path
        for token in (None, "", "wrong", TOKEN[:-1]):
            code, body = http(port, path=path, token=token)
            assert code == 403, (path, token)
            assert "token" in json.loads(body)["error"]
    before = len(session.steps)
    assert post(port, token=None)[0] == 403 and len(session.steps) == before
    # the script and the style are ruledsl's files, the same for every game: they need no token
    assert http(port, path="/viewer.js", token=None)[0] == 200


def test_the_address_printed_carries_a_fresh_random_token(game):
    session = Session(game, 2, 5, 0)
    servers = [make_server(session, 0) for _ in range(2)]
    try:
        urls = [page_url(s) for s in servers]
        tokens = [u.split("?token=")[1] for u in urls]
        assert all(u.startswith("http://127.0.0.1:") for u in urls)
        assert tokens[0] != tokens[1] and min(len(t) for t in tokens) >= 24
    finally:
        for s in servers:
            s.server_close()


def test_only_this_servers_host_is_answered(live):
    port, _ = live
    assert http(port, host=f"localhost:{port}")[0] == 200
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", "127.0.0.1", ""):
        assert http(port, host=host)[0] == 403, host
    assert raw(port, b"GET /api/game?token=" + TOKEN.encode() + b" HTTP/1.0\r\n\r\n")[0] == 403  # no Host


def test_a_move_is_played_only_when_posted_as_json_from_the_page(live):
    port, session = live
    before = len(session.steps)
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""):
        code, body = post(port, ctype=ctype)
        assert code == 415 and "application/json" in json.loads(body)["error"]
    assert post(port, headers={"Origin": "http://evil.example"})[0] == 403
    assert len(session.steps) == before and session.state.current_player == 0
    code, body = post(port, ctype="application/json; charset=utf-8", headers={"Origin": f"http://127.0.0.1:{port}"})
    assert code == 200 and json.loads(body)["ok"] and len(session.steps) > before


@pytest.mark.parametrize("request_bytes", [
    b"GET /api/step/\xb2?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\n\r\n",  # a raw byte: "\xb2" is a digit to Python
    b"GET /api/moves?upto=\xb2&token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\n\r\n",
    b"GET /\xff\xfe?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\n\r\n",
    b"GET /api/game?token=%(t)s&" + b"&".join(b"a%d=1" % i for i in range(50)) + b" HTTP/1.1\r\nHost: %(h)s\r\n\r\n",
    b"POST /api/move?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\nContent-Type: application/json\r\n"
    b"Content-Length: -1\r\n\r\n{\"index\": 0}",
    b"POST /api/move?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\nContent-Type: application/json\r\n"
    b"Content-Length: twelve\r\n\r\n{\"index\": 0}",
    b"POST /api/move?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\nContent-Type: application/json\r\n\r\n",
    b"POST /api/move?token=%(t)s HTTP/1.1\r\nHost: %(h)s\r\nContent-Type: application/json\r\n"
    b"Content-Length: \xb2\r\n\r\n{}",
], ids=["byte-in-step", "byte-in-query", "bytes-in-path", "many-fields", "negative-length", "garbage-length",
        "no-length", "byte-in-length"])
def test_malformed_requests_get_400_quickly_and_no_traceback(live, capsys, request_bytes):
    port, session = live
    before = len(session.steps)
    started = time.monotonic()
    code, body = raw(port, request_bytes % {b"t": TOKEN.encode(), b"h": b"127.0.0.1:%d" % port})
    assert code == 400 and time.monotonic() - started < 4
    assert "error" in json.loads(body)
    assert http(port)[0] == 200  # and it goes on serving
    assert len(session.steps) == before
    err = capsys.readouterr().err
    assert "Traceback" not in err and err == ""


@pytest.mark.parametrize("body", [b"{", b"[1, 2]", b'"index"', b'{"index": "0"}', b'{"index": true}', b'{"index": 1.5}',
                                  b"\xb2\xff", b"[" * 5000, b'{"index": {"index": 0}}', b"null"])
def test_a_move_that_is_not_json_of_an_index_gets_400(live, capsys, body):
    port, session = live
    before = len(session.steps)
    code, answer = post(port, body=body)
    assert code == 400 and "index" in json.loads(answer)["error"]
    assert len(session.steps) == before
    assert "Traceback" not in capsys.readouterr().err


def test_a_body_too_large_is_refused_unread(live):
    port, _ = live
    code, _ = post(port, body=b" " * 20, headers={"Content-Length": "10000000"})
    assert code == 413


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node (the page's script, run against the server)")
def test_the_page_script_sends_the_token_on_every_call(live, tmp_path):
    """viewer.js, run by node with a stand-in for the DOM, drives the real server as the browser would."""
    port, session = live
    script = (ROOT / "ruledsl" / "desk" / "static" / "viewer.js").read_text(encoding="utf-8")
    harness = tmp_path / "run.js"
    harness.write_text(STAND_IN + f"\nglobalThis.window = {{ location: {{ search: '?token={TOKEN}' }} }};\n"
                       + script + "\n" + FINISH, encoding="utf-8")
    before = len(session.steps)
    out = subprocess.run(["node", str(harness), f"http://127.0.0.1:{port}"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    calls = json.loads(out.stdout.strip().splitlines()[-1])
    assert calls["ready"] == "true" and calls["urls"]
    assert all(f"token={TOKEN}" in u for u in calls["urls"]), calls["urls"]
    assert any("/api/move" in u for u in calls["urls"]) and len(session.steps) > before  # the button played


# A minimal stand-in for the browser: elements that accept whatever the script does to them,
# fetch against the server (relative URLs made absolute), and a click on the first move button.
STAND_IN = r"""
const BASE = process.argv[2];
const urls = [];
const realFetch = globalThis.fetch;
globalThis.fetch = (url, options) => { urls.push(url); return realFetch(BASE + url, options); };
function element(tag) {
  const node = { tagName: tag, children: [], dataset: {}, style: {}, classList: { add() {} }, listeners: {},
    attributes: {}, textContent: "", hidden: false, disabled: false, value: "", max: "",
    setAttribute(k, v) { this.attributes[k] = v; }, getAttribute(k) { return this.attributes[k]; },
    appendChild(c) { this.children.push(c); return c; },
    replaceChildren(...c) { this.children = c; },
    addEventListener(kind, f) { (this.listeners[kind] = this.listeners[kind] || []).push(f); } };
  return node;
}
const byId = {};
globalThis.document = {
  body: element("body"), title: "",
  getElementById(id) { return byId[id] || (byId[id] = element("div")); },
  createElement: element, createTextNode: (t) => ({ textContent: t }),
  querySelector: () => element("aside"), addEventListener() {},
};
"""

FINISH = r"""
(async () => {
  for (let i = 0; i < 200 && document.body.dataset.ready !== "true"; i++) await new Promise((r) => setTimeout(r, 50));
  const buttons = (byId["moves"] || { children: [] }).children.filter((b) => b.listeners && b.listeners.click);
  if (buttons.length) {
    buttons[0].listeners.click[0]();
    for (let i = 0; i < 100 && !urls.some((u) => u.includes("/api/move")); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(JSON.stringify({ ready: document.body.dataset.ready, urls }));
})();
"""
