"""A local web page that shows a game as one seat sees it, step by step.

The server keeps the game; the page only ever receives what the chosen seat
may know: ``State.view(seat)`` at each step, the moves described with the
cards that seat cannot see replaced by ``?``, and the layout of the table
(zone shapes and owners, which the rules file makes public anyway). No full
state, no card ids, no move arguments leave the server.

Two modes: a saved game log (step forward and back through it), or a live
game where the seat plays against bots (``ruledsl view FILE --seat N``).
"""

from __future__ import annotations

import hmac
import json
import secrets
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from ..engine.game import Game
from ..engine.moves import Move
from ..engine.observe import move_seen
from ..engine.state import State
from ..engine.table import changes, table_view
from ..language.errors import RuledslError
from ..play.botbase import decide, sight_for
from ..play.bots import make_bot

STATIC = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/viewer.js": ("viewer.js", "text/javascript; charset=utf-8"),
    "/viewer.css": ("viewer.css", "text/css; charset=utf-8"),
}


def static_file(name: str) -> bytes:
    return resources.files("ruledsl.desk").joinpath("static", name).read_bytes()


def table_layout(game: Game, players: int) -> dict:
    """Zones and variables as the page lays them out: shapes, owners, families. Nothing secret."""
    program = game.program_for(players)  # a track's slots may depend on the player count
    zones = []
    for z in program.zones:
        if z.owner is not None and z.owner >= players:
            continue
        zones.append({"name": z.name, "family": z.family, "shape": z.shape, "owner": z.owner,
                      "visibility": z.visibility, "slots": len(z.places) if z.places else None})
    per_player = sorted(name for name, (_b, _s, dims) in program.var_families.items()
                        if dims and dims[0][0] == "player")
    return {"zones": zones, "player_vars": per_player}


def describe_for(before: State, after: State, move, seat: int) -> str:
    """``move`` (made in ``before``) in words, as ``seat`` may know it: a card the seat sees neither
    before nor after the move shows as ``?`` (``ruledsl.observe.move_seen``, which ``ruledsl play``
    and verify's information-flow check use too)."""
    return move_seen(before, after, move, seat)


class Session:
    """The steps of one game as one seat sees them; a live game grows as it is played."""

    def __init__(self, game: Game, players: int, seed: int, seat: int, *, moves=None,
                 bot: str = "random", live: bool = False):
        self.game = game
        self.players = players
        self.seat = seat
        self.live = live
        self.lock = threading.Lock()
        self.steps: list[dict] = []
        self.state = game.new_game(players, seed)
        self.bots = {p: make_bot(bot, seed=seed * 31 + p) for p in range(players) if p != seat} if live else {}
        self.sight = sight_for(self.state, self.bots)  # search bots' worlds keep what their players saw
        self.finding = None
        self._record(None, None)
        if moves is not None:
            for m in moves:
                self._play(m)
        if live:
            self._bots_play()

    def _record(self, actor, text) -> None:
        s = self.state
        # the table: the seat's view without the rules' bookkeeping (`unshown`), a set being built
        view = table_view(s, self.seat)
        step = {"index": len(self.steps), "view": view,
                "move": None if text is None else {"player": actor, "text": text}}
        if text is not None and self.steps:  # what the move did, as far as the seat sees it
            step["changes"] = changes(self.steps[-1]["view"], view)
        if s.is_over:
            step["scores"] = s.scores
            step["winners"] = s.winners
            step["finding"] = s.finding
        self.steps.append(step)

    def _play(self, move) -> None:
        move = Move.parse(move)
        before = self.state.clone()
        self.state.apply(move)
        self._record(before.actor, describe_for(before, self.state, move, self.seat))

    def _bots_play(self) -> None:
        s = self.state
        while not s.is_over and s.current_player != self.seat:
            player = s.current_player
            bot = self.bots[player]
            legal = s.legal_moves()
            self._play(decide(bot, s, player, legal, self.sight))

    def info(self) -> dict:
        return {"game": self.game.name, "players": self.players, "seat": self.seat, "live": self.live,
                "steps": len(self.steps), "table": table_layout(self.game, self.players)}

    def moves(self, upto: int | None = None) -> list:
        """The moves so far (or the first ``upto``), described as the seat may know them."""
        with self.lock:
            return [step["move"] for step in self.steps[1:][:upto]]

    def step(self, i: int) -> dict | None:
        with self.lock:
            return self.steps[i] if 0 <= i < len(self.steps) else None

    def choose(self, index: int) -> tuple[bool, str]:
        """Play the seat's ``index``-th legal move (a live game, on the seat's turn), then the bots'."""
        with self.lock:
            s = self.state
            if not self.live:
                return False, "this is a saved game: it cannot be played on"
            if s.is_over or s.current_player != self.seat:
                return False, "it is not your decision"
            legal = s.legal_moves()
            if not 0 <= index < len(legal):
                return False, f"choose a move from 0 to {len(legal) - 1}"
            try:
                self._play(legal[index])
                self._bots_play()
            except RuledslError as err:  # a rule that cannot be carried out: say so, keep serving
                self.live = False
                return False, f"the game stopped: {err}"
            return True, "ok"


MAX_BODY = 10_000  # bytes of a POST body: {"index": N} needs a dozen


class Refused(Exception):
    """A request the server will not answer: its status and a one-line reason for the client."""

    def __init__(self, code: int, reason: str):
        super().__init__(reason)
        self.code = code
        self.reason = reason


def new_token() -> str:
    return secrets.token_urlsafe(24)


def page_url(server) -> str:
    """The address of the page, with the server's token: the one address that opens it."""
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/?token={server.token}"


def make_server(session: Session, port: int = 0, host: str = "127.0.0.1",
                token: str | None = None) -> ThreadingHTTPServer:
    """A web server for ``session`` on ``host``:``port`` (0: any free port); call serve_forever().

    Only a local page that knows the server's random ``token`` (``page_url``) is answered: the page
    and every API call carry it as ``?token=``; the ``Host`` header must name this server
    (127.0.0.1:PORT or localhost:PORT, so a DNS-rebound name is refused); a POST must be JSON
    (``Content-Type: application/json``, which a form of another site cannot send without asking
    first) from no other origin. Malformed requests get 400 and one JSON line, never a traceback.
    """

    class Handler(BaseHTTPRequestHandler):
        server_version = "ruledsl-view"
        timeout = 30  # a client that stops sending in the middle of a request is dropped

        def log_message(self, *args) -> None:  # quiet: the terminal shows only the address
            pass

        def _send(self, code: int, body: bytes, ctype: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, code: int, data) -> None:
            self._send(code, json.dumps(data).encode("utf-8"), "application/json")

        def _answer(self, work) -> None:
            try:
                work()
            except Refused as why:
                self.close_connection = True
                self._json(why.code, {"error": why.reason})
            except (ConnectionError, TimeoutError):  # the client went away: nobody to answer
                self.close_connection = True
            except Exception as exc:  # a bug of the viewer: one line on the terminal, no traceback
                self.close_connection = True
                sys.stderr.write(f"ruledsl view: internal error answering {self.command}: "
                                 f"{type(exc).__name__}: {exc}\n")
                try:
                    self._json(500, {"error": "internal error of the viewer"})
                except OSError:
                    pass

        def _target(self) -> tuple[str, dict]:
            """The request's path and query, once the Host and the token are checked."""
            if not self.path.isascii() or not self.path.isprintable():
                raise Refused(400, "the request's path is not plain ASCII text")
            host = self.headers.get("Host", "")
            if host not in hosts:
                raise Refused(403, f"this server answers only at {hosts[0]} or {hosts[1]}, "
                                   f"not at the Host {host[:100]!r}")
            origin = self.headers.get("Origin")
            if origin is not None and origin not in origins:
                raise Refused(403, "requests from other pages are not answered")
            path, _, query = self.path.partition("?")
            try:
                fields = urllib.parse.parse_qs(query, keep_blank_values=True, max_num_fields=8)
            except ValueError:
                raise Refused(400, "too many fields in the query") from None
            args = {k: v[-1] for k, v in fields.items()}
            if path not in ASSETS and not hmac.compare_digest(args.get("token", "").encode(), token_bytes):
                raise Refused(403, "open the page at the address `ruledsl view` printed: it carries the token")
            return path, args

        def do_GET(self) -> None:
            self._answer(self._get)

        def do_POST(self) -> None:
            self._answer(self._post)

        def _get(self) -> None:
            path, args = self._target()
            if path in STATIC:
                name, ctype = STATIC[path]
                self._send(200, static_file(name), ctype)
            elif path == "/api/game":
                self._json(200, session.info())
            elif path == "/api/moves":
                # ?upto=N: the first N moves, those that lead to step N (the page never asks ahead)
                upto = args.get("upto", "")
                self._json(200, session.moves(int(upto) if _is_number(upto) else None))
            elif path.startswith("/api/step/") and _is_number(path[len("/api/step/"):]):
                step = session.step(int(path[len("/api/step/"):]))
                if step is None:
                    self._json(404, {"error": "no such step"})
                else:
                    self._json(200, step)
            else:
                self._json(404, {"error": "not found"})

        def _post(self) -> None:
            path, _ = self._target()
            if path != "/api/move":
                self._json(404, {"error": "not found"})
                return
            ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                raise Refused(415, "send the move as JSON (Content-Type: application/json)")
            length = self.headers.get("Content-Length", "")
            if not _is_number(length):
                raise Refused(400, "Content-Length should be the body's size in bytes")
            if int(length) > MAX_BODY:
                raise Refused(413, f"a move is at most {MAX_BODY} bytes")
            body = self.rfile.read(int(length))
            try:
                data = json.loads(body or b"{}")
                index = data["index"]
                if not isinstance(index, int) or isinstance(index, bool):
                    raise TypeError
            except (ValueError, KeyError, TypeError, IndexError, RecursionError):
                raise Refused(400, 'send {"index": N}, the number of a legal move') from None
            ok, message = session.choose(index)
            self._json(200 if ok else 409, {"ok": ok, "message": message, "steps": len(session.steps)})

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address) -> None:  # no traceback on the terminal
            exc = sys.exc_info()[1]
            if not isinstance(exc, (ConnectionError, TimeoutError)):
                sys.stderr.write(f"ruledsl view: a request failed: {type(exc).__name__}: {exc}\n")

    server = Server((host, port), Handler)
    server.token = token or new_token()
    token_bytes = server.token.encode()
    real = server.server_address[1]
    hosts = (f"127.0.0.1:{real}", f"localhost:{real}") + ((f"{host}:{real}",) if host not in (
        "127.0.0.1", "localhost") else ())
    origins = tuple(f"http://{h}" for h in hosts)
    return server


ASSETS = ("/viewer.js", "/viewer.css")  # the page's script and style: files of ruledsl, nothing of the game


def _is_number(text: str) -> bool:
    """Plain ASCII digits, not too many (``"²".isdigit()`` is true, and int("²") fails)."""
    return text.isascii() and text.isdigit() and len(text) <= 12
