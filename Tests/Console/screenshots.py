#!/usr/bin/env python3
"""Screenshots of the console for the documentation: the list, explain and history, over the repository's own
`flags/` with a few changes made, in an environment named `staging`.

    SWITCHBOARD_BIN=.build/debug/switchboard python3 Tests/Console/screenshots.py docs-drafts/images
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
        console = Page(browser, server, viewport={"width": 1360, "height": 1000})
        page = console.sign_in(actor="priya")
        page.wait_for_selector("#live.on")
        page.fill("#search", "checkout")
        page.screenshot(path=os.path.join(folder, "console-list.png"))
        page.fill("#search", "")
        page.click("#context-box summary")
        page.fill("#context-key", "user-42")
        page.fill("#context-attributes", '{"email": "ana@example.com", "plan": "pro"}')
        page.click("#context-form button[type=submit]")
        page.wait_for_function("() => document.getElementById('list-status').textContent.includes('user-42')")
        page.click("#context-box summary")
        console.select("search.new_ranking")
        page.screenshot(path=os.path.join(folder, "console-explain.png"))
        page.click("#context-box summary")
        page.click("#context-clear")
        page.click("#context-box summary")
        console.select("app.upload.max_mb")
        page.screenshot(path=os.path.join(folder, "console-edit.png"))
        page.click("#tab-history")
        page.wait_for_selector("#history-rows tr")
        page.screenshot(path=os.path.join(folder, "console-history.png"))
        browser.close()
finally:
    server.stop()
