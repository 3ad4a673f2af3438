#!/usr/bin/env python3
"""The web console in a real browser: headless Chromium (Playwright) against a real `switchboard serve` on an
ephemeral loopback port. One test per case issue 23 lists under "Tested in a real browser", and a few more.

Run with `Tests/Console/run` (it builds the binary first), or `python3 Tests/Console/console_tests.py` with
SWITCHBOARD_BIN set. CONSOLE_TEST=part runs only the tests whose name contains `part`."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from harness import ADMIN, READ, Page, Server, run  # noqa: E402

SHOP = """\
namespace: shop
flags:
  new_checkout:
    description: Redesigned checkout flow.
    type: bool
    default: false
    owner: payments
  button_color:
    description: Colour of the buy button.
    type: string
    variants: { control: blue, treatment: green }
    default: control
    owner: growth
  beta_banner:
    description: Banner shown to customers on the pro plan.
    type: bool
    default: false
    rules:
      - name: pro plan
        when:
          - { attribute: plan, equals: pro }
        serve: true
  old_promo:
    description: Last year's promotion.
    type: bool
    default: false
    expires: 2020-01-01
  xss:
    description: <img src=x onerror=alert(1)>
    type: string
    default: "<b>bold</b><script>alert(3)</script>"
    owner: "<script>alert(2)</script>"
preferences:
  upload.max_mb:
    description: Largest upload, in megabytes.
    type: int
    default: 25
    min: 1
    max: 500
  theme:
    description: Theme settings of the storefront.
    type: object
    default: { dark: true, accent: teal }
"""

OPS = """\
namespace: ops
preferences:
  log.level:
    description: How much the service logs.
    type: string
    values: [debug, info, warn]
    default: info
"""

FILES = {"shop.yaml": SHOP, "ops.yaml": OPS}


def with_server(test=None, **server_options):
    """Runs `test(browser, server)` against a fresh server over FILES, and stops it afterwards."""
    def decorate(function):
        def wrapper(browser):
            options = dict(server_options)
            server = Server(options.pop("files", FILES), **options)
            try:
                function(browser, server)
            except Exception:
                print(open(server.log_path).read()[-3000:])
                raise
            finally:
                server.stop()
        wrapper.__name__ = function.__name__
        return wrapper
    return decorate(test) if test else decorate


def visible_keys(page):
    return page.eval_on_selector_all("#flag-rows tr", "rows => rows.map(row => row.dataset.key)")


def wait_until(condition, timeout=5.0, message="condition"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + message)


# ---- sign-in --------------------------------------------------------------------------------------------------

@with_server
def test_sign_in_good_and_bad(browser, server):
    console = Page(browser, server)
    page = console.open()
    assert page.get_attribute("#token", "type") == "password"
    page.fill("#token", "not-the-token")
    page.click("#sign-in-form button[type=submit]")
    page.wait_for_selector("#sign-in-error:not(:empty)")
    assert "Wrong token" in page.inner_text("#sign-in-error"), page.inner_text("#sign-in-error")
    assert page.is_hidden("#console")
    assert page.evaluate("sessionStorage.getItem('switchboard.token')") is None
    page.fill("#token", ADMIN)
    page.fill("#actor-name", "alice")
    page.click("#sign-in-form button[type=submit]")
    page.wait_for_selector("#flag-rows tr")
    assert page.inner_text("#access") == "admin"
    assert page.evaluate("sessionStorage.getItem('switchboard.token')") == ADMIN
    assert ADMIN not in page.url
    assert page.is_hidden("#read-only")
    # A reload keeps the tab signed in; signing out forgets the token.
    page.reload()
    page.wait_for_selector("#flag-rows tr")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in:not([hidden])")
    assert page.evaluate("sessionStorage.getItem('switchboard.token')") is None
    log = open(server.log_path).read()
    assert ADMIN not in log and "not-the-token" not in log
    # The browser logs the refused sign-in's 403 as a failed load; anything else is a script error.
    errors = [error for error in console.errors if "Failed to load resource" not in error]
    assert not errors, errors


# ---- the list -------------------------------------------------------------------------------------------------

@with_server
def test_search_and_each_filter(browser, server):
    server.set("shop.theme", {"dark": False, "accent": "red"})
    console = Page(browser, server)
    page = console.sign_in()
    assert len(visible_keys(page)) == 8
    # Search as you type over keys and descriptions.
    page.fill("#search", "checkout")
    assert visible_keys(page) == ["shop.new_checkout"]
    page.fill("#search", "megabytes")
    assert visible_keys(page) == ["shop.upload.max_mb"]
    page.fill("#search", "")
    # `/` focuses the search box.
    page.click("h1")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "search"
    page.select_option("#filter-namespace", "ops")
    assert visible_keys(page) == ["ops.log.level"]
    page.select_option("#filter-namespace", "")
    page.select_option("#filter-kind", "preference")
    assert sorted(visible_keys(page)) == ["ops.log.level", "shop.theme", "shop.upload.max_mb"]
    page.select_option("#filter-type", "object")
    assert visible_keys(page) == ["shop.theme"]
    page.select_option("#filter-kind", "")
    page.select_option("#filter-type", "")
    page.select_option("#filter-layer", "overridden")
    assert visible_keys(page) == ["shop.theme"]
    assert "runtime" in console.row("shop.theme").inner_text()
    page.select_option("#filter-layer", "")
    page.check("#filter-stale")
    assert visible_keys(page) == ["shop.old_promo"]
    assert "stale" in console.row("shop.old_promo").inner_text()
    page.uncheck("#filter-stale")
    assert len(visible_keys(page)) == 8
    assert "8 definitions" in page.inner_text("#list-status")


# ---- changing values ------------------------------------------------------------------------------------------

@with_server
def test_toggle_a_bool_with_the_confirm_step(browser, server):
    console = Page(browser, server)
    page = console.sign_in(actor="alice")
    console.select("shop.new_checkout")
    assert page.get_attribute("#edit-value", "role") == "switch"
    # Escape cancels: nothing is written, and the switch goes back.
    page.check("#edit-value")
    page.wait_for_selector("#confirm[open]")
    body = page.inner_text("#confirm-body")
    assert "false" in body and "true" in body and "alice" in body, body
    page.keyboard.press("Escape")
    page.wait_for_selector("#confirm:not([open])", state="attached")
    assert not page.is_checked("#edit-value")
    assert server.value("shop.new_checkout") == (False, "default")
    # Enter confirms.
    page.check("#edit-value")
    page.wait_for_selector("#confirm[open]")
    assert page.evaluate("document.activeElement.id") == "confirm-ok"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.new_checkout\"] td.value')"
                           ".textContent.startsWith('true')")
    assert server.value("shop.new_checkout") == (True, "runtime")
    assert server.audit()[-1]["actor"] == "alice"
    assert "runtime" in console.row("shop.new_checkout").inner_text()


@with_server
def test_choose_a_variant(browser, server):
    console = Page(browser, server)
    page = console.sign_in()
    console.select("shop.button_color")
    page.select_option("#edit-value", "treatment")
    page.click("#editor-review")
    page.wait_for_selector("#confirm[open]")
    assert "treatment" in page.inner_text("#confirm-body")
    page.click("#confirm-ok")
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.button_color\"] td.value')"
                           ".textContent.includes('green')")
    assert server.value("shop.button_color") == ("green", "runtime")
    assert "(treatment)" in console.value_text("shop.button_color")


@with_server
def test_a_refused_number_shows_the_message_and_writes_nothing(browser, server):
    console = Page(browser, server)
    page = console.sign_in()
    console.select("shop.upload.max_mb")
    assert page.get_attribute("#edit-value", "max") == "500"
    page.fill("#edit-value", "9999")
    page.press("#edit-value", "Enter")
    page.wait_for_selector("#confirm[open]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#editor-error:not(:empty)")
    message = page.inner_text("#editor-error")
    assert "9999" in message and "500" in message, message
    assert server.value("shop.upload.max_mb") == (25, "default")
    assert server.audit() == []


@with_server
def test_edit_a_json_object(browser, server):
    console = Page(browser, server)
    page = console.sign_in()
    console.select("shop.theme")
    page.fill("#edit-value", "{not json")
    page.click("#editor-review")
    assert "not valid JSON" in page.inner_text("#editor-error")
    assert page.is_hidden("#confirm")
    page.fill("#edit-value", '{"dark": false, "accent": "red"}')
    page.click("#editor-review")
    page.wait_for_selector("#confirm[open]")
    page.click("#confirm-ok")
    wait_until(lambda: server.value("shop.theme")[0] == {"dark": False, "accent": "red"}, message="the object")
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.theme\"] td.value')"
                           ".textContent.includes('red')")


@with_server
def test_reset_one_and_reset_all(browser, server):
    server.set("shop.upload.max_mb", 100)
    server.set("shop.new_checkout", True)
    server.set("shop.button_color", "green")
    console = Page(browser, server)
    page = console.sign_in()
    assert page.inner_text("#reset-all") == "Reset all (3)"
    console.select("shop.upload.max_mb")
    page.click("#editor-reset")
    page.wait_for_selector("#confirm[open]")
    assert "no runtime override" in page.inner_text("#confirm-body")
    page.click("#confirm-ok")
    wait_until(lambda: server.value("shop.upload.max_mb") == (25, "default"), message="the reset")
    page.wait_for_function("() => document.getElementById('reset-all').textContent === 'Reset all (2)'")
    page.click("#reset-all")
    page.wait_for_selector("#confirm[open]")
    assert "Reset all 2 runtime overrides?" == page.inner_text("#confirm-title")
    page.click("#confirm-ok")
    wait_until(lambda: server.value("shop.new_checkout")[1] == "default"
               and server.value("shop.button_color")[1] == "default", message="reset all")
    page.wait_for_function("() => document.getElementById('reset-all').textContent === 'Reset all (0)'")


@with_server
def test_two_browsers_conflict_and_exactly_one_write_lands(browser, server):
    first = Page(browser, server)
    second = Page(browser, server)
    page_a = first.sign_in(actor="alice")
    page_b = second.sign_in(actor="bob")
    first.select("shop.upload.max_mb")
    second.select("shop.upload.max_mb")
    page_a.fill("#edit-value", "100")
    page_b.fill("#edit-value", "200")
    page_a.click("#editor-review")
    page_b.click("#editor-review")
    page_a.wait_for_selector("#confirm[open]")
    page_b.wait_for_selector("#confirm[open]")
    page_a.click("#confirm-ok")
    wait_until(lambda: server.value("shop.upload.max_mb")[0] == 100, message="alice's write")
    page_b.click("#confirm-ok")
    page_b.wait_for_selector("#conflict[open]")
    body = page_b.inner_text("#conflict-body")
    assert "alice" in body and "100" in body and "200" in body, body
    # Exactly one write landed: alice's.
    assert server.value("shop.upload.max_mb") == (100, "runtime")
    assert [(r["actor"], r["new"]) for r in server.audit()] == [("alice", 100)]
    page_b.click("#conflict-reapply")
    wait_until(lambda: server.value("shop.upload.max_mb")[0] == 200, message="bob's reapplied write")
    assert [(r["actor"], r["new"]) for r in server.audit()] == [("alice", 100), ("bob", 200)]
    # Alice's page sees bob's value live; her stale version now conflicts too, and she keeps theirs.
    page_a.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.upload.max_mb\"] "
                             "td.value').textContent.startsWith('200')")


@with_server
def test_keep_theirs_after_a_conflict(browser, server):
    console = Page(browser, server)
    page = console.sign_in(actor="alice")
    console.select("shop.upload.max_mb")
    page.fill("#edit-value", "300")
    page.click("#editor-review")
    page.wait_for_selector("#confirm[open]")
    # Someone else writes between the page showing version 0 and the confirm.
    server.set("shop.upload.max_mb", 42, actor="carol")
    page.click("#confirm-ok")
    page.wait_for_selector("#conflict[open]")
    assert "carol" in page.inner_text("#conflict-body")
    page.click("#conflict-keep")
    page.wait_for_selector("#conflict:not([open])", state="attached")
    assert server.value("shop.upload.max_mb") == (42, "runtime")
    assert page.input_value("#edit-value") == "42"


# ---- explain, context, history --------------------------------------------------------------------------------

@with_server(env={"SWITCHBOARD_SHOP__BUTTON_COLOR": "green"})
def test_explain_every_layer(browser, server):
    server.set("shop.button_color", "blue", actor="dave")
    console = Page(browser, server)
    page = console.sign_in()
    console.select("shop.button_color")
    rows = page.eval_on_selector_all("#explain-rows tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
    layers = [row[0].strip("● ").strip() for row in rows]
    assert layers == ["runtime", "env", "file", "default"], rows
    assert rows[0][3] == "wins" and "set by dave" in rows[0][2], rows[0]
    assert rows[1][2] == "SWITCHBOARD_SHOP__BUTTON_COLOR=green" and rows[1][3] == "shadowed", rows[1]
    assert "/flags/shop.yaml:" in rows[3][2] and rows[3][2].endswith("(variant control)"), rows[3]
    assert "runtime layer" in page.inner_text("#explain-summary")
    assert "SWITCHBOARD_SHOP__BUTTON_COLOR" in page.inner_text("#explain-variable")


@with_server
def test_evaluate_as_a_context(browser, server):
    console = Page(browser, server)
    page = console.sign_in()
    assert console.value_text("shop.beta_banner").startswith("false")
    page.click("#context-box summary")
    page.fill("#context-key", "user-7")
    page.fill("#context-attributes", '{"plan": "pro"}')
    page.click("#context-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.beta_banner\"] td.value')"
                           ".textContent.startsWith('true')")
    assert "TARGETING_MATCH" in console.value_text("shop.beta_banner")
    assert "user-7" in page.inner_text("#list-status")
    console.select("shop.beta_banner")
    assert "pro plan" in page.inner_text("#explain-targeting"), page.inner_text("#explain-targeting")
    # A runtime override applies to everyone: the editor starts from the value without a context.
    assert not page.is_checked("#edit-value")
    page.fill("#context-attributes", "[1]")
    page.click("#context-form button[type=submit]")
    assert "JSON object" in page.inner_text("#context-error")
    page.click("#context-clear")
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.beta_banner\"] td.value')"
                           ".textContent.startsWith('false')")


@with_server
def test_history_filter_and_revert(browser, server):
    server.set("shop.upload.max_mb", 100, actor="bob")
    server.set("shop.upload.max_mb", 150, actor="carol")
    server.set("shop.new_checkout", True, actor="bob")
    console = Page(browser, server)
    page = console.sign_in(actor="alice")
    page.click("#tab-history")
    page.wait_for_selector("#history-rows tr")
    assert page.locator("#history-rows tr").count() == 3
    page.fill("#history-actor", "carol")
    assert page.locator("#history-rows tr").count() == 1
    row = page.locator("#history-rows tr").first
    assert "100" in row.inner_text() and "150" in row.inner_text()
    page.fill("#history-actor", "")
    page.fill("#history-key", "new_checkout")
    assert page.locator("#history-rows tr").count() == 1
    page.fill("#history-key", "max_mb")
    page.fill("#history-actor", "carol")
    page.locator("#history-rows tr button").first.click()
    page.wait_for_selector("#confirm[open]")
    assert "150" in page.inner_text("#confirm-body") and "100" in page.inner_text("#confirm-body")
    page.click("#confirm-ok")
    wait_until(lambda: server.value("shop.upload.max_mb") == (100, "runtime"), message="the revert")
    assert server.audit()[-1]["actor"] == "alice"
    page.fill("#history-actor", "alice")
    page.wait_for_function("() => document.querySelectorAll('#history-rows tr').length === 1")


# ---- live -----------------------------------------------------------------------------------------------------

@with_server
def test_a_change_from_switchboard_set_appears_live(browser, server):
    console = Page(browser, server)
    page = console.sign_in()
    page.wait_for_selector("#live.on")
    start = time.time()
    result = server.cli("set", "shop.upload.max_mb", "77")
    assert result.returncode == 0, result.stderr
    page.wait_for_function("() => document.querySelector('#flag-rows tr[data-key=\"shop.upload.max_mb\"] td.value')"
                           ".textContent.startsWith('77')", timeout=3000)
    elapsed = time.time() - start
    assert elapsed < 2.0, elapsed
    assert "flash" in (console.row("shop.upload.max_mb").get_attribute("class") or "")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1


@with_server
def test_the_degraded_banner_keeps_the_last_good_values(browser, server):
    server.set("shop.upload.max_mb", 64)
    console = Page(browser, server)
    page = console.sign_in()
    page.wait_for_selector("#live.on")
    assert page.is_hidden("#degraded")
    server.write("shop.yaml", SHOP.replace("    type: int\n", "    type: integer\n"))
    page.wait_for_selector("#degraded:not([hidden])", timeout=4000)
    text = page.inner_text("#degraded")
    assert "shop.yaml" in text and "integer" in text, text
    assert console.value_text("shop.upload.max_mb").startswith("64")
    server.write("shop.yaml", SHOP)
    page.wait_for_selector("#degraded[hidden]", state="attached", timeout=4000)


# ---- security -------------------------------------------------------------------------------------------------

@with_server
def test_yaml_and_audit_text_is_never_markup(browser, server):
    server.set("shop.xss", "<img src=y onerror=alert(4)>", actor="<img src=z onerror=alert(5)>")
    console = Page(browser, server)
    page = console.sign_in()
    row = console.row("shop.xss")
    assert "<img src=x onerror=alert(1)>" in row.inner_text()
    assert "<script>alert(2)</script>" in row.inner_text()
    assert "<img src=y onerror=alert(4)>" in row.inner_text()
    assert page.locator("#flag-rows img, #flag-rows script, #flag-rows b").count() == 0
    console.select("shop.xss")
    assert "<img src=x onerror=alert(1)>" in page.inner_text("#detail-description")
    page.click("#tab-history")
    page.wait_for_selector("#history-rows tr")
    assert "<img src=z onerror=alert(5)>" in page.inner_text("#history-rows")
    assert page.locator("img").count() == 0
    time.sleep(0.3)
    assert console.dialogs == [], console.dialogs


@with_server
def test_security_headers_and_no_inline_script(browser, server):
    console = Page(browser, server)
    response = console.page.goto(server.url + "/")
    headers = response.headers
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "frame-ancestors 'none'" in csp, csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    # The policy is in force: an inline script injected by a test does not run.
    console.page.evaluate("""() => { const s = document.createElement('script'); s.textContent =
        'window.__ran = true'; document.body.append(s); }""")
    assert console.page.evaluate("window.__ran === true") is False
    # Writes need the admin token in a header: a request with no header, as another site could make, is refused.
    status, _, _ = server.request("PUT", "/v1/overrides/shop.theme", {"value": {}}, token="")
    assert status == 401


@with_server(admin=None)
def test_read_only_console_without_an_admin_token(browser, server):
    console = Page(browser, server)
    page = console.open()
    page.click("#open-read-only")
    page.wait_for_selector("#flag-rows tr")
    assert page.inner_text("#access") == "read-only"
    banner = page.inner_text("#read-only")
    assert "SWITCHBOARD_ADMIN_TOKEN" in banner and "--admin-token-file" in banner, banner
    assert page.is_hidden("#reset-all")
    console.select("shop.new_checkout")
    assert page.is_hidden("#editor")
    page.click("#tab-history")
    page.wait_for_selector("#history-status:not(:empty)")
    assert page.locator("#history-rows button").count() == 0


@with_server(read=READ)
def test_read_token_gives_a_read_only_console(browser, server):
    console = Page(browser, server)
    page = console.open()
    page.click("#open-read-only")
    page.wait_for_selector("#sign-in-error:not(:empty)")
    assert "needs a token" in page.inner_text("#sign-in-error")
    page = console.sign_in(token=READ)
    assert page.inner_text("#access") == "read-only"
    assert "read token" in page.inner_text("#read-only")
    console.select("shop.upload.max_mb")
    assert page.is_hidden("#editor")


# ---- looks and habits -----------------------------------------------------------------------------------------

@with_server
def test_phone_width_dark_mode_and_labels(browser, server):
    console = Page(browser, server, viewport={"width": 390, "height": 800})
    console.page.emulate_media(color_scheme="dark")
    page = console.sign_in()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 23, 27)", background
    unlabeled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea, button')]
        .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
        .map(e => e.id || e.outerHTML.slice(0, 60))""")
    assert unlabeled == [], unlabeled


TESTS = [(name, function) for name, function in list(globals().items()) if name.startswith("test_")]

if __name__ == "__main__":
    sys.exit(1 if run(TESTS) else 0)
