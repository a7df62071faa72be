"""`ruledsl view`: the server gives one seat's view only, and the page draws it in a real browser.

The browser test drives Debian's headless Chromium with selenium (`.ci/run`
installs chromium and chromium-driver). Every server a test starts is shut
down in a finally block, and every wait is bounded.
"""

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

import ruledsl
from ruledsl.cli import main
from ruledsl.desk.viewer import Session, make_server

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "games" / "trolley_car.rules"
SEAT = 0
PLAYERS = 3
SEED = 4
TOKEN = "test-token-0123456789"  # the servers of these tests answer calls that carry it


@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("view") / "game.json"
    result = CliRunner().invoke(main, ["run", str(RULES), "--players", str(PLAYERS), "--seed", str(SEED),
                                       "--log", str(path)])
    assert result.exit_code == 0, result.output
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game():
    return ruledsl.load(RULES)


@pytest.fixture
def served(game, game_log):
    session = Session(game, game_log["players"], game_log["seed"], SEAT, moves=game_log["moves"])
    server = make_server(session, 0, token=TOKEN)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", session
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def with_token(url, token=TOKEN):
    return url + ("&" if "?" in url else "?") + "token=" + token


def get(url, token=TOKEN):
    with urllib.request.urlopen(with_token(url, token), timeout=10) as response:
        return json.loads(response.read().decode("utf-8"))


def strings_in(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from strings_in(v)
    elif isinstance(data, list):
        for v in data:
            yield from strings_in(v)


def secret_labels(state, seat):
    """Labels of the cards the seat cannot see, except labels that a card it can see also has."""
    labels = state.program.card_labels
    hidden = {labels[c] for c in range(state.program.card_count) if not state.card_visible(seat, c)}
    shown = {labels[c] for c in range(state.program.card_count) if state.card_visible(seat, c)}
    return hidden - shown


def mentions(text, label):
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(label), text) is not None


def test_the_server_sends_only_the_seats_view(served, game, game_log):
    url, session = served
    info = get(url + "/api/game")
    assert info["seat"] == SEAT and info["players"] == PLAYERS and info["steps"] == len(game_log["moves"]) + 1
    state = game.new_game(game_log["players"], game_log["seed"])
    secrets = []  # step -> the labels the seat could not know then
    checked = 0
    for i in range(info["steps"]):
        secrets.append(secret_labels(state, SEAT))
        if i % 20 == 0 or i == info["steps"] - 1:
            step = get(f"{url}/api/step/{i}")
            texts = list(strings_in(step))
            leaked = {label for label in secrets[i] for t in texts if mentions(t, label)}
            assert not leaked, f"step {i}: hidden cards in what the page receives: {leaked}"
            zones = step["view"]["zones"]
            # the seat's own hand shows faces, the others' hands only backs, as many as they hold
            assert "?" not in zones[f"hand[{SEAT}]"]
            for p in range(PLAYERS):
                if p != SEAT:
                    assert zones[f"hand[{p}]"] == ["?"] * len(state.cards_in(f"hand[{p}]"))
            checked += 1
        if i < len(game_log["moves"]):
            state.apply(game_log["moves"][i])
    # each move as the page lists it names no card that was hidden from the seat right after it
    moves = get(f"{url}/api/moves?upto={info['steps'] - 1}")
    assert len(moves) == info["steps"] - 1 and len(get(f"{url}/api/moves?upto=5")) == 5
    for j, move in enumerate(moves, 1):
        leaked = {label for label in secrets[j] if mentions(move["text"], label)}
        assert not leaked, f"move {j} ({move}) shows hidden cards {leaked}"
    assert checked >= 10 and state.is_over
    last = get(f"{url}/api/step/{info['steps'] - 1}")
    assert last["scores"] == state.scores and last["winners"] == state.winners


def test_the_server_refuses_what_it_does_not_serve(served):
    url, _ = served
    for path in ("/api/step/99999", "/api/nothing", "/../pyproject.toml"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(with_token(url + path), timeout=10)
        assert err.value.code == 404
    request = urllib.request.Request(with_token(url + "/api/move"), data=b'{"index": 0}', method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(request, timeout=10)
    assert err.value.code == 409 and "saved game" in json.loads(err.value.read())["message"]


def test_a_live_game_plays_the_seat_against_bots(game):
    session = Session(game, 2, 3, 1, live=True)
    steps = len(session.steps)
    assert session.state.current_player == 1
    assert session.choose(99) == (False, f"choose a move from 0 to {len(session.state.legal_moves()) - 1}")
    ok, _ = session.choose(0)
    assert ok and len(session.steps) > steps
    assert session.state.is_over or session.state.current_player == 1
    assert session.steps[steps]["move"]["player"] == 1


def test_view_command_serves_on_localhost_and_stops(tmp_path, game_log):
    log = tmp_path / "game.json"
    log.write_text(json.dumps({**game_log, "rules": RULES.name}), encoding="utf-8")
    (tmp_path / RULES.name).write_text(RULES.read_text(encoding="utf-8"), encoding="utf-8")  # beside the log
    proc = subprocess.Popen([sys.executable, "-m", "ruledsl", "view", str(log), "--seat", "2", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{20,})", line)
        assert match, line + proc.stderr.read() if proc.poll() is not None else line
        info = get(f"http://127.0.0.1:{match.group(1)}/api/game", token=match.group(2))
        assert info["seat"] == 2 and info["game"] == "Trolley Car"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
        proc.stderr.close()


def test_view_command_rejects_a_bad_seat(tmp_path, game_log):
    log = tmp_path / "game.json"
    log.write_text(json.dumps({**game_log, "rules": RULES.name}), encoding="utf-8")
    (tmp_path / RULES.name).write_text(RULES.read_text(encoding="utf-8"), encoding="utf-8")  # beside the log
    result = CliRunner().invoke(main, ["view", str(log), "--seat", "7"])
    assert result.exit_code == 2 and "--seat 7: the seats are 0 to 2" in result.output


# ---- in a real browser


def chrome():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--disable-extensions", "--no-first-run"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    return driver


def wait_for_step(driver, i):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(i))


def test_the_page_steps_through_a_log_in_chromium(served, game, game_log, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    url, session = served
    started = time.monotonic()
    driver = chrome()
    try:
        driver.get(with_token(url + "/"))
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        wait_for_step(driver, 0)
        assert driver.title.startswith("Trolley Car")
        first_table = driver.find_element(By.ID, "table").get_attribute("innerHTML")
        state = game.new_game(game_log["players"], game_log["seed"])
        for i in range(1, 31):
            driver.find_element(By.ID, "next").click()
            wait_for_step(driver, i)
            state.apply(game_log["moves"][i - 1])
            if i % 10 == 0:
                page = driver.page_source
                leaked = {label for label in secret_labels(state, SEAT) if mentions(page, label)}
                assert not leaked, f"step {i}: hidden cards in the page: {leaked}"
                for p in range(PLAYERS):
                    backs = driver.find_elements(By.CSS_SELECTOR, f'[data-zone="hand[{p}]"] .card.back')
                    faces = driver.find_elements(By.CSS_SELECTOR, f'[data-zone="hand[{p}]"] .card.face')
                    held = len(state.cards_in(f"hand[{p}]"))
                    if p == SEAT:
                        assert (len(backs), len(faces)) == (0, held)
                        assert sorted(f.text for f in faces) == sorted(state.cards_in(f"hand[{p}]"))
                    else:
                        assert (len(backs), len(faces)) == (held, 0)
        assert driver.find_element(By.ID, "step").text == f"step 30 of {len(game_log['moves'])}"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#history li")) == 30
        assert driver.find_element(By.ID, "table").get_attribute("innerHTML") != first_table
        shot = tmp_path / "viewer.png"
        assert driver.save_screenshot(str(shot))
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
        # and back: the table is drawn again exactly as it was
        driver.find_element(By.ID, "first").click()
        wait_for_step(driver, 0)
        assert driver.find_element(By.ID, "table").get_attribute("innerHTML") == first_table
        assert driver.find_elements(By.CSS_SELECTOR, "#history li") == []
    finally:
        driver.quit()
    assert time.monotonic() - started < 120


def test_playing_a_seat_in_chromium(game):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    session = Session(game, 2, 5, 0, live=True)
    server = make_server(session, 0, token=TOKEN)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    driver = chrome()
    try:
        driver.get(with_token(f"http://127.0.0.1:{server.server_address[1]}/"))
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        before = len(session.steps)
        wait_for_step(driver, before - 1)
        buttons = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        legal = [session.state.describe(m) for m in session.state.legal_moves()]
        assert [b.text for b in buttons] == legal and legal
        buttons[-1].click()
        WebDriverWait(driver, 20).until(lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-step"))
                                        >= before)
        assert len(session.steps) > before
        assert session.steps[before]["move"] == {"player": 0, "text": legal[-1]}
        items = driver.find_elements(By.CSS_SELECTOR, "#history li")
        assert f"player 0: {legal[-1]}" in [i.text for i in items]
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_the_wheel_ships_the_pages_assets(tmp_path):
    import zipfile

    from hatchling.builders.wheel import WheelBuilder

    wheel = Path(next(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {f"ruledsl/desk/static/{n}" for n in ("index.html", "viewer.js", "viewer.css")} <= names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[pygments.lexers]" in text and "ruledsl.desk.lexer:RuledslLexer" in text


def test_the_page_needs_no_network():
    from ruledsl.desk.viewer import static_file

    for name in ("index.html", "viewer.js", "viewer.css"):
        text = static_file(name).decode("utf-8")
        assert not re.search(r"(https?:)?//[A-Za-z0-9.-]+\.[a-z]{2,}", text.replace("http://127.0.0.1", "")), name
