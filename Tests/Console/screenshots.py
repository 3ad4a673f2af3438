#!/usr/bin/env python3
"""Screenshots of the console for the documentation: the list and the flag page of search.new_ranking (its
targeting), at 1280 and 390 px wide, light and dark, over the repository's own `flags/` with a few changes made, in
an environment named `staging`. The article uses console-list-1280-light, console-flag-1280-light,
console-list-390-dark and console-flag-390-dark.

    SWITCHBOARD_BIN=.build/debug/switchboard python3 Tests/Console/screenshots.py \
        Sources/SwitchboardServer/Documentation.docc/Resources
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from harness import Page, Server, launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

root = os.path.join(os.path.dirname(__file__), "..", "..")
folder = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(folder, exist_ok=True)
files = {}
for name in os.listdir(os.path.join(root, "flags")):
    if name.endswith(".yaml"):
        files[name] = open(os.path.join(root, "flags", name)).read()

files["environments/staging.yaml"] = "overrides:\n  checkout.max_saved_cards: 10\n"
server = Server(files, env={"SWITCHBOARD_ENV": "staging", "SWITCHBOARD_APP__RETRY__BACKOFF_SECONDS": "2.5"},
                relative=True)
try:
    server.set("checkout.new_flow", True, actor="maria")
    server.set("app.upload.max_mb", 100, actor="jonas")
    server.set("checkout.button_color", "green", actor="maria")
    server.set("app.upload.max_mb", 250, actor="priya")
    with sync_playwright() as playwright:
        browser = launch(playwright)
        for width, scheme in ((1280, "light"), (390, "dark")):
            console = Page(browser, server, viewport={"width": width, "height": 900 if width > 400 else 844})
            console.page.emulate_media(color_scheme=scheme)
            page = console.sign_in(actor="priya")
            page.wait_for_selector("#live.on")
            page.fill("#search", "search" if width < 400 else "")
            page.screenshot(path=os.path.join(folder, f"console-list-{width}-{scheme}.png"),
                            full_page=width < 400)
            page.goto(server.url + "/#/flags/search.new_ranking?tab=targeting")
            page.wait_for_selector("#targeting .rule")
            page.locator("#targeting details.segment").first.locator("summary").click()
            page.screenshot(path=os.path.join(folder, f"console-flag-{width}-{scheme}.png"), full_page=True)
            console.close()
        browser.close()
finally:
    server.stop()
