#!/usr/bin/env python3
"""Benchmarks/run console: the web console in headless Chromium against a release `switchboard serve` over the load
benchmark's 10,000 definitions. Prints `name: value` lines:

  console.first_list_ms          navigation to the list showing its first rows (median of 5 page loads)
  console.filter_ms              a keystroke in the search box to the filtered list drawn (p50 of 20 keystrokes)
  console.live_update_ms         `switchboard set` in another process to the page showing the value (p50 of 20)
  console.server_rss_growth_mb   the server's resident memory after 1,000 writes made through the page, less before

Environment: SWITCHBOARD_BIN (the release binary), CONSOLE_DEFINITIONS (the YAML file), CHROMIUM, WRITES (default
1000)."""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Console"))
from harness import ADMIN, Server, launch  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

KEY = "bench.limit_2"  # an int from 1 to 1,000


def report(name, value):
    print(f"{name}: {value:.1f}", flush=True)


def open_console(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    # Signed in already, as a tab that reloads is: the measurement is the list, not typing a token.
    context.add_init_script(f"sessionStorage.setItem('switchboard.token', '{ADMIN}');"
                            "sessionStorage.setItem('switchboard.actor', 'bench');")
    page = context.new_page()
    page.set_default_timeout(30000)
    return context, page


def first_list(browser, server):
    samples = []
    for _ in range(5):
        context, page = open_console(browser, server)
        page.goto(server.url + "/")
        page.wait_for_selector("#flag-rows tr")
        samples.append(page.evaluate("performance.getEntriesByName('switchboard:first-rows')[0].startTime"))
        context.close()
    return statistics.median(samples)


FILTER = """async (text) => {
    const input = document.getElementById('search');
    const start = performance.now();
    input.value = text;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, data: text.slice(-1) }));
    // Drawn: the next frame after the handler has replaced the rows.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - start;
}"""


def filtering(page):
    samples = []
    for query in ["limit_1", "sort_90", "experiment", "basket it"]:
        page.evaluate(FILTER, "")
        for end in range(1, len(query) + 1):
            samples.append(page.evaluate(FILTER, query[:end]))
    page.evaluate(FILTER, "")
    return statistics.median(samples[:20]) if len(samples) >= 20 else statistics.median(samples)


def live_updates(page, server):
    page.fill("#search", KEY)
    page.wait_for_selector(f'#flag-rows tr[data-key="{KEY}"]')
    samples = []
    for round in range(20):
        value = str(500 + round)
        start = time.time()
        result = server.cli("set", KEY, value)
        assert result.returncode == 0, result.stderr
        page.wait_for_function(
            f"() => document.querySelector('#flag-rows tr[data-key=\"{KEY}\"] td.value').textContent"
            f".startsWith('{value}')", polling="raf")
        samples.append((time.time() - start) * 1000)
    return statistics.median(samples)


def writes_through_the_page(page, server, count):
    # From the list, as a person would: a flag page (where the last call left the page) hides the search box.
    if page.is_hidden("#search"):
        page.evaluate("key => { location.hash = '#/?q=' + encodeURIComponent(key); }", KEY)
        page.wait_for_selector("#search", state="visible")
    page.fill("#search", KEY)
    page.locator(f'#flag-rows tr[data-key="{KEY}"] td.key button').click()
    page.wait_for_selector("#edit-value")
    for round in range(count):
        value = str(1 + round % 900)
        version = page.get_attribute("#editor", "data-version")
        page.fill("#edit-value", value)
        page.press("#edit-value", "Enter")
        page.wait_for_selector("#confirm[open]")
        page.keyboard.press("Enter")
        # Written, and the editor rebuilt for the new version: typing before that would be undone by the rebuild.
        page.wait_for_function(
            f"() => document.querySelector('#flag-rows tr[data-key=\"{KEY}\"] td.value').textContent"
            f".startsWith('{value}') && document.getElementById('edit-value')"
            f" && document.getElementById('editor').dataset.version !== '{version}'", polling="raf")


def main():
    definitions = os.environ["CONSOLE_DEFINITIONS"]
    writes = int(os.environ.get("WRITES", "1000"))
    server = Server({"bench.yaml": open(definitions).read()})
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            report("console.first_list_ms", first_list(browser, server))
            context, page = open_console(browser, server)
            page.goto(server.url + "/")
            page.wait_for_selector("#flag-rows tr")
            page.wait_for_selector("#live.on")
            report("console.filter_ms", filtering(page))
            report("console.live_update_ms", live_updates(page, server))
            # Warm up the write path, then measure what 1,000 writes through the page leave behind.
            writes_through_the_page(page, server, 50)
            before = server.rss_kib()
            writes_through_the_page(page, server, writes)
            time.sleep(1)
            after = server.rss_kib()
            report("console.server_rss_growth_mb", (after - before) / 1024)
            print(f"# server RSS {before / 1024:.1f} MB before, {after / 1024:.1f} MB after {writes} writes",
                  flush=True)
            context.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
