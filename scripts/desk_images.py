"""Make the pictures of docs/desk.md: the Trolley Car flow diagram and a screenshot of the viewer.

    python scripts/desk_images.py        (needs Graphviz, Chromium and chromium-driver, and the desk extra)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
GAME = ROOT / "games" / "trolley_car.rules"


def flow_diagram() -> None:
    for fmt in ("svg", "png"):
        out = IMAGES / f"trolley_car_flow.{fmt}"
        subprocess.run([sys.executable, "-m", "ruledsl", "graph", str(GAME), "-o", str(out)], check=True)


def viewer_screenshot(step: int = 40) -> None:
    import json

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    import ruledsl
    from ruledsl.desk.viewer import Session, make_server

    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "game.json"
        subprocess.run([sys.executable, "-m", "ruledsl", "run", str(GAME), "--players", "3", "--seed", "4",
                        "--log", str(log_path)], check=True, capture_output=True)
        log = json.loads(log_path.read_text(encoding="utf-8"))
    session = Session(ruledsl.load(GAME), log["players"], log["seed"], 0, moves=log["moves"])
    server = make_server(session, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,900"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    try:
        driver.get(f"http://127.0.0.1:{server.server_address[1]}/")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready"))
        for i in range(1, step + 1):
            driver.find_element(By.ID, "next").click()
            WebDriverWait(driver, 20).until(
                lambda d, i=i: d.find_element(By.TAG_NAME, "body").get_attribute("data-step") == str(i))
        time.sleep(0.3)
        driver.save_screenshot(str(IMAGES / "viewer.png"))
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    IMAGES.mkdir(parents=True, exist_ok=True)
    flow_diagram()
    viewer_screenshot()
    print(f"wrote {IMAGES}/trolley_car_flow.svg, trolley_car_flow.png and viewer.png")
