extension ConsoleAssets {
    /// The styles: the system's light or dark colours, readable from phone width up.
    static let styles: StaticString = #"""
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1b1d21; --muted: #5b6270; --line: #d9dde4; --panel: #f5f7fa; --accent: #2f6fdf;
  --accent-fg: #ffffff; --warn-bg: #fff4d6; --warn-fg: #5c4400; --info-bg: #e8f0ff; --info-fg: #1f3d7a;
  --danger: #b3261e; --flash: #fff0a8; --focus: #2f6fdf;
  --runtime: #7a3ed6; --env: #0b7a75; --file: #a35c00; --default: #5b6270;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #15171b; --fg: #e6e8ec; --muted: #9aa3b2; --line: #30343c; --panel: #1d2026; --accent: #6b9cff;
    --accent-fg: #0b1020; --warn-bg: #3d3000; --warn-fg: #ffe08a; --info-bg: #17264a; --info-fg: #c7d7ff;
    --danger: #ff8a80; --flash: #5a4a00; --focus: #8fb4ff;
    --runtime: #b995ff; --env: #4fd1c5; --file: #f0a542; --default: #9aa3b2;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.4; }
[hidden] { display: none !important; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; }
button, input, select, textarea { font: inherit; color: inherit; }
button { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .35em .8em;
  cursor: pointer; }
button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
button.danger { color: var(--danger); }
button.quiet { background: transparent; }
button[aria-pressed="true"] { background: var(--accent); color: var(--accent-fg); }
button:disabled { opacity: .5; cursor: default; }
input, select, textarea { background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
  padding: .35em .5em; }
textarea { width: 100%; font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: 13px; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5em .75em; padding: .6em 1em;
  border-bottom: 1px solid var(--line); background: var(--panel); }
.top h1 { font-size: 1.15em; margin: 0 .5em 0 0; }
.badge { border: 1px solid var(--line); border-radius: 999px; padding: .1em .7em; font-size: .85em; }
.badge.environment { font-weight: 700; border-color: var(--accent); }
.badge.production { background: var(--danger); color: var(--bg); border-color: var(--danger); }
.live { margin-left: auto; font-size: .85em; color: var(--muted); }
.live.on::before { content: "● "; color: #2e9d4f; }
.banner { margin: 0; padding: .6em 1em; border-bottom: 1px solid var(--line); }
.banner.warning { background: var(--warn-bg); color: var(--warn-fg); }
.banner.info { background: var(--info-bg); color: var(--info-fg); }
.banner ul { margin: .3em 0 0; padding-left: 1.2em; font-family: ui-monospace, Menlo, monospace; font-size: 13px;
  white-space: pre-wrap; }
main { padding: 1em; }
.sign-in { max-width: 28em; margin: 2em auto; }
.sign-in form { display: grid; gap: .4em; }
.help { color: var(--muted); font-size: .85em; margin: .2em 0; }
.error { color: var(--danger); margin: .3em 0; white-space: pre-wrap; }
.error:empty { display: none; }
.status { color: var(--muted); font-size: .9em; margin: .4em 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5em; margin-top: .5em; }
.tabs { display: flex; gap: .4em; margin-bottom: .8em; }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: .5em .9em; margin-bottom: .5em; }
.toolbar label { font-size: .9em; color: var(--muted); }
.toolbar label select, .toolbar label input { color: var(--fg); }
#search { flex: 1 1 16em; min-width: 12em; }
.context { margin: .3em 0 .6em; }
.context summary { cursor: pointer; color: var(--accent); }
.context form { display: grid; gap: .3em; max-width: 32em; margin-top: .4em; }
.layout { display: flex; gap: 1em; align-items: flex-start; }
.table-wrap { flex: 1 1 auto; min-width: 0; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35em .5em; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8em; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
td { overflow-wrap: anywhere; }
td.col-type { white-space: nowrap; }
.explain tr.absent td { color: var(--muted); }
td.key button { background: none; border: none; padding: 0; color: var(--accent); text-align: left;
  font-family: ui-monospace, Menlo, monospace; font-size: 13px; }
td.value { font-family: ui-monospace, Menlo, monospace; font-size: 13px; max-width: 22em; }
.variant, .reason { color: var(--muted); font-size: .85em; margin-left: .4em; }
.layer { font-size: .8em; border-radius: 4px; padding: .05em .45em; border: 1px solid currentColor;
  white-space: nowrap; }
.layer-runtime { color: var(--runtime); }
.layer-env { color: var(--env); }
.layer-file { color: var(--file); }
.layer-default { color: var(--default); border-color: transparent; }
.mark { display: inline-block; font-size: .75em; border-radius: 4px; padding: 0 .4em; margin-left: .4em;
  border: 1px solid var(--line); color: var(--muted); }
.mark.stale { color: var(--danger); border-color: var(--danger); }
tr.selected td { background: var(--panel); }
tr.flash td { animation: flash 1.6s ease-out; }
@keyframes flash { from { background: var(--flash); } to { background: transparent; } }
.detail { flex: 0 0 26em; max-width: 26em; position: sticky; top: .5em; max-height: calc(100vh - 1em);
  overflow-y: auto; border: 1px solid var(--line); border-radius: 8px; padding: .8em; background: var(--panel); }
.detail-head { display: flex; justify-content: space-between; align-items: start; gap: .5em; }
.detail h2 { font-size: 1em; margin: 0; font-family: ui-monospace, Menlo, monospace; overflow-wrap: anywhere; }
.detail h3 { font-size: .95em; margin: 1em 0 .3em; }
.facts { color: var(--muted); font-size: .85em; }
.editor, #editor-field { display: grid; gap: .3em; }
#editor-field input[type="number"], #editor-field input[type="text"], #editor-field select { max-width: 100%; }
.explain td:last-child { overflow-wrap: normal; }
#history-rows .change { margin: 0; }
.editor label { font-weight: 600; }
.switch { display: flex; align-items: center; gap: .5em; }
.switch input { width: 2.4em; height: 1.3em; accent-color: var(--accent); }
.explain td, .explain th { font-size: .85em; }
.explain tr.winner td { font-weight: 700; }
.explain td.value { max-width: 10em; }
dialog { border: 1px solid var(--line); border-radius: 10px; background: var(--bg); color: var(--fg);
  max-width: min(36em, 94vw); padding: 1em 1.2em; }
dialog::backdrop { background: rgb(0 0 0 / .45); }
dialog h2 { font-size: 1.1em; margin-top: 0; }
.change { font-family: ui-monospace, Menlo, monospace; font-size: 13px; overflow-wrap: anywhere; }
.change .old { color: var(--danger); }
.change .new { color: #2e9d4f; }
@media (max-width: 900px) {
  .layout { flex-direction: column-reverse; }
  .detail { position: static; flex-basis: auto; max-width: none; width: 100%; max-height: none; }
}
@media (max-width: 640px) {
  main { padding: .6em; }
  .col-type, .col-owner, .col-desc { display: none; }
  .toolbar label { flex: 1 1 45%; }
}
"""#
}
