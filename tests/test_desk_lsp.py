"""`ruledsl lsp` through the protocol: a pygls client talks to the server in a subprocess over its pipes."""

import asyncio
import sys
from pathlib import Path

from lsprotocol import types as L
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "trolley_car.rules"
LIBRARY = ROOT / "games" / "lib" / "standard.rules"
TIMEOUT = 30


def uri(path: Path) -> str:
    return path.resolve().as_uri()


def position_of(text: str, needle: str, offset: int = 0, nth: int = 0) -> L.Position:
    """The position of the ``nth`` occurrence of ``needle`` (plus ``offset`` characters)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return L.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


class Session:
    """A running server and a client, with the diagnostics the server has published."""

    def __init__(self, tmp_path):
        self.client = LanguageClient("ruledsl-test", "1")
        self.published: dict[str, asyncio.Queue] = {}
        self.tmp_path = tmp_path

        @self.client.feature(L.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: L.PublishDiagnosticsParams):
            self.published.setdefault(params.uri, asyncio.Queue()).put_nowait(params.diagnostics)

    async def start(self):
        await self.client.start_io(sys.executable, "-m", "ruledsl", "lsp", cwd=str(ROOT))
        await asyncio.wait_for(self.client.initialize_async(L.InitializeParams(
            capabilities=L.ClientCapabilities(), root_uri=uri(ROOT))), TIMEOUT)
        self.client.initialized(L.InitializedParams())

    async def stop(self):
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), TIMEOUT)
            self.client.exit(None)
        finally:
            server = self.client._server
            if server is not None and server.returncode is None:
                try:
                    await asyncio.wait_for(server.wait(), TIMEOUT)
                except asyncio.TimeoutError:
                    server.kill()
            await asyncio.wait_for(self.client.stop(), TIMEOUT)

    def open(self, path: Path, text: str):
        self.client.text_document_did_open(L.DidOpenTextDocumentParams(
            L.TextDocumentItem(uri=uri(path), language_id="ruledsl", version=1, text=text)))

    def change(self, path: Path, text: str, version: int):
        self.client.text_document_did_change(L.DidChangeTextDocumentParams(
            text_document=L.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[L.TextDocumentContentChangeWholeDocument(text=text)]))

    async def diagnostics(self, path: Path):
        queue = self.published.setdefault(uri(path), asyncio.Queue())
        return list(await asyncio.wait_for(queue.get(), TIMEOUT))

    async def hover(self, path: Path, pos: L.Position):
        return await asyncio.wait_for(self.client.text_document_hover_async(
            L.HoverParams(L.TextDocumentIdentifier(uri(path)), pos)), TIMEOUT)

    async def definition(self, path: Path, pos: L.Position):
        return await asyncio.wait_for(self.client.text_document_definition_async(
            L.DefinitionParams(L.TextDocumentIdentifier(uri(path)), pos)), TIMEOUT)

    async def completion(self, path: Path, pos: L.Position):
        return await asyncio.wait_for(self.client.text_document_completion_async(
            L.CompletionParams(L.TextDocumentIdentifier(uri(path)), pos)), TIMEOUT)


def run(tmp_path, scenario):
    async def main():
        session = Session(tmp_path)
        await session.start()
        try:
            await scenario(session)
        finally:
            await session.stop()

    asyncio.run(asyncio.wait_for(main(), 120))


def test_diagnostics_follow_the_edits(tmp_path):
    path = tmp_path / "race.rules"
    good = GAME.read_text(encoding="utf-8")
    broken = good.replace("total[p] += size(hand[p]) - deduction(p)", "total[p] += size(hands[p]) - deduction(p)")
    path.write_text(good, encoding="utf-8")

    async def scenario(s):
        s.open(path, good)
        assert await s.diagnostics(path) == []
        s.change(path, broken, 2)
        found = await s.diagnostics(path)
        assert len(found) == 1
        d = found[0]
        assert "hands" in d.message and "hand" in d.message.split("hint:")[-1]
        assert d.range.start == position_of(broken, "hands[p]")
        assert d.range.end.line == d.range.start.line and d.range.end.character > d.range.start.character
        s.change(path, broken.replace('game "Trolley Car"', 'game "Trolley Car" zone'), 3)
        syntax = await s.diagnostics(path)
        assert len(syntax) == 1 and syntax[0].range.start.line == position_of(broken, "\nplayers 2..6").line + 1
        s.change(path, good, 4)
        assert await s.diagnostics(path) == []

    run(tmp_path, scenario)


def test_hover_shows_the_declaration_and_its_comment(tmp_path):
    text = GAME.read_text(encoding="utf-8")

    async def scenario(s):
        s.open(GAME, text)
        await s.diagnostics(GAME)
        param = await s.hover(GAME, position_of(text, "deal hand_size", offset=6))
        assert "param" in param.contents.value and "cards dealt to each player" in param.contents.value
        zone = await s.hover(GAME, position_of(text, "drawn[current]", offset=1))
        assert "zone drawn[player]: row owner" in zone.contents.value
        assert "the card just taken from the deck" in zone.contents.value
        proc = await s.hover(GAME, position_of(text, "lay(c)", nth=1))
        assert "procedure lay(c)" in proc.contents.value and "A card goes on the line of its colour" in proc.contents.value
        move = await s.hover(GAME, position_of(text, "move keep", offset=6))
        assert "move of decision drawn_card" in move.contents.value
        define = await s.hover(GAME, position_of(text, "fits(c) {", offset=1))
        assert "define fits(c)" in define.contents.value
        assert await s.hover(GAME, position_of(text, "   ")) is None

    run(tmp_path, scenario)


def test_go_to_definition_across_include_and_locals(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    library = LIBRARY.read_text(encoding="utf-8")

    async def scenario(s):
        s.open(GAME, text)
        await s.diagnostics(GAME)
        [deck] = await s.definition(GAME, position_of(text, "standard52", offset=3))
        assert deck.uri == uri(LIBRARY)
        assert deck.range.start == position_of(library, "standard52")
        [proc] = await s.definition(GAME, position_of(text, "lay(c)", nth=1))
        assert proc.uri == uri(GAME) and proc.range.start == position_of(text, "lay(c) {")
        # a local: the `c` of `lay(c)` inside the move points at the move's parameter
        [local] = await s.definition(GAME, position_of(text, "lay(c)", offset=4, nth=1))
        assert local.range.start == position_of(text, "c in hand[current] + declared")

    run(tmp_path, scenario)


def test_go_to_definition_in_a_variant_reaches_its_base(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(GAME.read_text(encoding="utf-8").replace('include "standard.rules"',
                                                             f'include "{LIBRARY}"'), encoding="utf-8")
    variant = tmp_path / "variant.rules"
    text = 'extends "base.rules"\nreplace param hand_size = 12 "fewer cards"\n' \
           'replace define round_over = empty(deck) or any(each p in players where empty(hand[p]))\n'
    variant.write_text(text, encoding="utf-8")

    async def scenario(s):
        s.open(variant, text)
        assert await s.diagnostics(variant) == []
        [zone] = await s.definition(variant, position_of(text, "hand[p]"))
        assert zone.uri == uri(base)
        assert zone.range.start == position_of(base.read_text(encoding="utf-8"), "hand[player]")

    run(tmp_path, scenario)


def test_completion_offers_names_in_scope(tmp_path):
    text = GAME.read_text(encoding="utf-8")
    end = text.index("\n", text.index("      lay(c)")) + 1  # after the line of `lay(c)`, whatever comment it has
    edited = text[:end] + "      ne\n" + text[end:]

    async def scenario(s):
        s.open(GAME, edited)
        await s.diagnostics(GAME)
        at = position_of(edited, "      ne\n", offset=8)
        labels = {i.label for i in (await s.completion(GAME, at)).items}
        assert {"next_space", "next"} <= labels and "hand_size" not in labels
        at_c = position_of(edited, "      lay(c)", offset=10)
        every = {i.label: i for i in (await s.completion(GAME, at_c)).items}
        assert {"c", "current", "choose", "hand_size", "declared", "lay", "fits"} <= set(every)
        assert every["c"].detail == "local" and every["choose"].kind == L.CompletionItemKind.Keyword
        assert "p" not in every  # bound elsewhere, not in scope here

    run(tmp_path, scenario)


def test_an_open_buffer_of_an_included_file_is_used_unsaved(tmp_path):
    base = tmp_path / "base.rules"
    base_text = GAME.read_text(encoding="utf-8").replace('include "standard.rules"', f'include "{LIBRARY}"')
    base.write_text(base_text, encoding="utf-8")
    variant = tmp_path / "variant.rules"
    text = 'extends "base.rules"\nreplace param hand_size = 12 "fewer cards"\n'
    variant.write_text(text, encoding="utf-8")
    renamed = base_text.replace("param hand_size", "param cards_each").replace("deal hand_size", "deal cards_each")

    async def scenario(s):
        s.open(base, renamed)  # edited in the editor, not saved
        assert await s.diagnostics(base) == []
        s.open(variant, text)
        [d] = await s.diagnostics(variant)
        assert "hand_size" in d.message and d.range.start.line == 1

    run(tmp_path, scenario)


# ---- the server's own edges, spoken byte by byte (the client above hides the exit code and stderr)


def _lsp_message(obj) -> bytes:
    import json

    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _lsp_read(stream):
    import json

    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        if line == b"\r\n":
            break
        key, _, value = line.decode("ascii").partition(":")
        if key.strip().lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


def _lsp_session(requests):
    """Run `ruledsl lsp`, send initialize, then ``requests``; the answers by id, the exit code, stderr."""
    import subprocess

    proc = subprocess.Popen([sys.executable, "-m", "ruledsl", "lsp"], cwd=str(ROOT), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    answers = {}
    try:
        messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"processId": None, "rootUri": None, "capabilities": {}}},
                    {"jsonrpc": "2.0", "method": "initialized", "params": {}}] + requests
        for m in messages:
            proc.stdin.write(_lsp_message(m))
            proc.stdin.flush()
            if "id" in m:
                while True:
                    answer = _lsp_read(proc.stdout)
                    assert answer is not None, proc.stderr.read().decode()
                    if answer.get("id") == m["id"]:
                        answers[m["id"]] = answer
                        break
        proc.stdin.close()
        code = proc.wait(timeout=TIMEOUT)
        return answers, code, proc.stderr.read().decode()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


SHUTDOWN_EXIT = [{"jsonrpc": "2.0", "id": 99, "method": "shutdown", "params": None},
                 {"jsonrpc": "2.0", "method": "exit", "params": None}]


def test_the_server_exits_0_after_shutdown_and_exit():
    answers, code, stderr = _lsp_session(SHUTDOWN_EXIT)
    assert answers[99]["result"] is None
    assert code == 0 and "Traceback" not in stderr and "I/O operation" not in stderr, stderr


def test_a_request_about_a_file_that_does_not_exist_is_an_lsp_error_without_a_traceback(tmp_path):
    missing = (tmp_path / "nowhere" / "x.rules").as_uri()
    at = {"textDocument": {"uri": missing}, "position": {"line": 0, "character": 0}}
    answers, code, stderr = _lsp_session([
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/definition", "params": at},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at},
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion", "params": at},
    ] + SHUTDOWN_EXIT)
    for i in (1, 2, 3):
        error = answers[i]["error"]
        assert error["code"] == -32602, error  # invalid params: the file named
        assert "cannot read" in error["message"] and "x.rules" in error["message"]
        assert "traceback" not in str(error).lower() and "data" not in error
    assert code == 0 and "Traceback" not in stderr, stderr


def test_locals_in_scope_end_with_their_block():
    from ruledsl.desk.symbols import locals_in_scope
    from ruledsl.language.parse import parse

    text = ('procedure turn(q) {\n'          # 1
            '  for p in players {\n'         # 2
            '    let x = 1\n'                # 3
            '    x = x\n'                    # 4
            '  }\n'                          # 5
            '  if q == 0 {\n'                # 6
            '    let y = 2\n'                # 7
            '  } else {\n'                   # 8
            '    let z = 3\n'                # 9
            '  }\n'                          # 10
            '  let w = count(each c in hand[q] where c == c)\n'  # 11
            '  w = w\n'                      # 12
            '}\n')
    decl = parse(text, "s.rules").items[0]

    def names(line, column):
        return [name for name, _node in locals_in_scope(decl, line, column)]

    assert names(4, 5) == ["q", "p", "x"]
    assert names(6, 3) == ["q"]  # the loop's `p` and its `x` have ended
    assert names(7, 14) == ["q", "y"]
    assert names(9, 14) == ["q", "z"]  # `y` belongs to the other branch
    assert names(11, 30) == ["q", "w", "c"]
    assert names(12, 3) == ["q", "w"]  # the aggregate's `c` has ended
