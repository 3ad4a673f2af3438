extension ConsoleAssets {
    /// The page at `/`: the static frame the script fills in. Every control has a label for screen readers.
    static let page: StaticString = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="no-referrer">
<title>Switchboard console</title>
<link rel="icon" href="/console/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/console/app.css">
<script src="/console/app.js" defer></script>
</head>
<body>
<header class="top">
  <h1>Switchboard</h1>
  <span id="environment" class="badge environment" title="Environment" hidden></span>
  <span id="store" class="badge" hidden></span>
  <span id="access" class="badge" hidden></span>
  <span id="live" class="live" role="status" aria-live="polite"></span>
  <button id="sign-out" type="button" class="quiet" hidden>Sign out</button>
</header>
<div id="degraded" class="banner warning" role="alert" hidden>
  <strong>Degraded.</strong> <span id="degraded-text"></span>
  <ul id="degraded-list"></ul>
</div>
<div id="read-only" class="banner info" role="note" hidden></div>
<main>
  <section id="sign-in" class="sign-in" aria-labelledby="sign-in-title" hidden>
    <h2 id="sign-in-title">Sign in</h2>
    <form id="sign-in-form" novalidate>
      <label for="token">Token</label>
      <input id="token" name="token" type="password" autocomplete="off" spellcheck="false"
             aria-describedby="token-help">
      <p id="token-help" class="help">The admin token can read and change values; the read token can only read.
        The token stays in this tab and is sent only in the Authorization header.</p>
      <label for="actor-name">Your name, for the audit log</label>
      <input id="actor-name" name="actor" type="text" autocomplete="name" spellcheck="false">
      <div class="actions">
        <button type="submit" class="primary">Sign in</button>
        <button type="button" id="open-read-only">Open read-only without a token</button>
      </div>
      <p id="sign-in-error" class="error" role="alert"></p>
    </form>
  </section>

  <section id="console" hidden>
    <nav class="tabs" aria-label="Views">
      <button type="button" id="tab-flags" aria-pressed="true">Flags</button>
      <button type="button" id="tab-history" aria-pressed="false">History</button>
    </nav>

    <section id="flags-view" aria-label="Flags">
      <div class="toolbar">
        <input id="search" type="search" placeholder="Search keys and descriptions ( / )"
               aria-label="Search keys and descriptions" autocomplete="off" spellcheck="false">
        <label>Namespace <select id="filter-namespace"><option value="">all</option></select></label>
        <label>Kind <select id="filter-kind">
          <option value="">all</option><option value="flag">flag</option><option value="preference">preference</option>
        </select></label>
        <label>Type <select id="filter-type">
          <option value="">all</option><option>bool</option><option>int</option><option>double</option>
          <option>string</option><option>list</option><option>object</option>
        </select></label>
        <label>Layer <select id="filter-layer">
          <option value="">all</option><option value="overridden">only overridden</option>
          <option value="runtime">runtime</option><option value="env">env</option><option value="file">file</option>
          <option value="default">default</option>
        </select></label>
        <label class="check"><input id="filter-stale" type="checkbox"> only stale</label>
        <button type="button" id="reset-all" class="danger" hidden>Reset all</button>
      </div>
      <details id="context-box" class="context">
        <summary>Evaluate as…</summary>
        <form id="context-form" novalidate>
          <label for="context-key">Targeting key</label>
          <input id="context-key" type="text" autocomplete="off" spellcheck="false" placeholder="user-42">
          <label for="context-attributes">Attributes (a JSON object)</label>
          <textarea id="context-attributes" rows="3" spellcheck="false">{}</textarea>
          <div class="actions">
            <button type="submit" class="primary">Evaluate</button>
            <button type="button" id="context-clear">Clear</button>
          </div>
          <p id="context-error" class="error" role="alert"></p>
        </form>
      </details>
      <p id="list-status" class="status" role="status" aria-live="polite"></p>
      <div class="layout">
        <div class="table-wrap">
          <table id="flag-table">
            <caption class="visually-hidden">Definitions with their resolved values</caption>
            <thead><tr>
              <th scope="col">Key</th><th scope="col">Value</th><th scope="col">Layer</th>
              <th scope="col" class="col-type">Kind · type</th><th scope="col" class="col-owner">Owner</th>
              <th scope="col" class="col-desc">Description</th>
            </tr></thead>
            <tbody id="flag-rows"></tbody>
          </table>
          <p id="more" class="status"></p>
        </div>
        <aside id="detail" class="detail" aria-labelledby="detail-key" hidden>
          <div class="detail-head">
            <h2 id="detail-key"></h2>
            <button type="button" id="detail-close" class="quiet" aria-label="Close the details">×</button>
          </div>
          <p id="detail-facts" class="facts"></p>
          <p id="detail-description"></p>
          <form id="editor" class="editor" novalidate hidden>
            <div id="editor-field"></div>
            <p id="editor-help" class="help"></p>
            <p id="editor-error" class="error" role="alert"></p>
            <div class="actions">
              <button type="submit" id="editor-review" class="primary">Review change</button>
              <button type="button" id="editor-reset">Reset override</button>
            </div>
          </form>
          <h3>Explain</h3>
          <p id="explain-summary"></p>
          <table id="explain-table" class="explain">
            <caption class="visually-hidden">Every layer of the key, highest first</caption>
            <thead><tr><th scope="col">Layer</th><th scope="col">Value</th><th scope="col">Origin</th>
              <th scope="col">Status</th></tr></thead>
            <tbody id="explain-rows"></tbody>
          </table>
          <p id="explain-targeting"></p>
          <p id="explain-variable" class="help"></p>
        </aside>
      </div>
    </section>

    <section id="history-view" aria-label="History" hidden>
      <div class="toolbar">
        <label>Key <input id="history-key" type="search" autocomplete="off" spellcheck="false"></label>
        <label>Actor <input id="history-actor" type="search" autocomplete="off" spellcheck="false"></label>
        <button type="button" id="history-refresh">Refresh</button>
      </div>
      <p id="history-status" class="status" role="status" aria-live="polite"></p>
      <div class="table-wrap">
        <table id="history-table">
          <caption class="visually-hidden">The audit log, newest first</caption>
          <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Key</th>
            <th scope="col">Change</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody id="history-rows"></tbody>
        </table>
      </div>
    </section>
  </section>
</main>

<dialog id="confirm" aria-labelledby="confirm-title">
  <h2 id="confirm-title">Confirm the change</h2>
  <div id="confirm-body"></div>
  <div class="actions">
    <button type="button" id="confirm-ok" class="primary">Confirm</button>
    <button type="button" id="confirm-cancel">Cancel</button>
  </div>
</dialog>

<dialog id="conflict" aria-labelledby="conflict-title">
  <h2 id="conflict-title">Someone else changed this first</h2>
  <div id="conflict-body"></div>
  <div class="actions">
    <button type="button" id="conflict-reapply" class="primary">Reapply mine</button>
    <button type="button" id="conflict-keep">Keep theirs</button>
  </div>
</dialog>
</body>
</html>
"""#
}
