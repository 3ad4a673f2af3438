// The web console's script: sign-in, the list, the editors, explain, history and the live event stream. Served by
// `switchboard serve` from the binary (the SwitchboardConsoleAssetsPlugin embeds this file at build time); checked in
// CI with `node --check` and `oxlint --deny-warnings` (.oxlintrc.json at the repository's root).
//
// Rules it keeps: data from the server (keys, descriptions, owners, values, actors, diagnostics) reaches the page
// only through `textContent`; the token lives in the tab's `sessionStorage` and travels only in the `Authorization`
// header; every write carries the version the page showed as `If-Match`; the event stream is a streamed `fetch`,
// since `EventSource` cannot send a header. The server decides every value and mark; the page renders them.
'use strict';

const $ = (id) => document.getElementById(id);
const keyPath = (key) => encodeURIComponent(key);

(() => {
  const PAGE = 200;
  const TOKEN = 'switchboard.token';
  const state = {
    token: null, actor: '', session: null, flags: [], byKey: new Map(), rows: new Map(), filtered: [], shown: 0,
    context: null, selected: null, explained: null, stream: null, audit: [], listLoads: 0, contextTimer: null,
    observer: null, editorSignature: null, editing: null, sort: { by: 'key', dir: 'asc' }, tab: 'overview',
    listHash: '#/',
  };
  const LAYER_ORDER = { runtime: 0, env: 1, file: 2, default: 3 };
  const TABS = ['overview', 'targeting', 'history'];

  // ---- small helpers ---------------------------------------------------------------------------------------

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [name, value] of Object.entries(props)) {
        if (value === undefined || value === null || value === false) continue;
        if (name === 'text') node.textContent = value;
        else if (name === 'class') node.className = value;
        else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
        else node.setAttribute(name, value === true ? '' : String(value));
      }
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  /** The one way the console writes a value — in the list, the panel, the confirm step, history and conflicts: as
   *  JSON, so strings are quoted and "" or "true" read apart from a missing or bool value. `absent` is the text for
   *  no value. */
  function show(value, absent = '—') {
    if (value === undefined || value === null) return absent;
    return JSON.stringify(value);
  }

  /** A value on one line of the list: objects and lists by their size (`{…} 4 keys`, `[3 items]`), the rest as
   *  `show` writes them. The whole value is on hover and on the flag's page. */
  function summary(value) {
    if (Array.isArray(value)) return '[' + value.length + (value.length === 1 ? ' item]' : ' items]');
    if (value !== null && typeof value === 'object') {
      const count = Object.keys(value).length;
      return '{…} ' + count + (count === 1 ? ' key' : ' keys');
    }
    return show(value);
  }

  /** A key as text that may break only after `.` and `_`, never mid-word. */
  function keyText(key) {
    const fragment = document.createDocumentFragment();
    for (const part of key.split(/(?<=[._])/)) fragment.append(part, el('wbr'));
    fragment.lastChild.remove();
    return fragment;
  }

  /** A value of an audit record or an override: `no override` when there is none. */
  function literal(value) {
    return show(value, 'no override');
  }

  function setText(id, text) {
    $(id).textContent = text || '';
  }

  function headers(extra) {
    const result = new Headers(extra || {});
    if (state.token) result.set('Authorization', 'Bearer ' + state.token);
    return result;
  }

  async function api(path, options = {}) {
    const init = { method: options.method || 'GET', headers: headers(options.headers), cache: 'no-store',
      credentials: 'omit', referrerPolicy: 'no-referrer' };
    if (options.json !== undefined) {
      init.headers.set('Content-Type', 'application/json');
      init.body = JSON.stringify(options.json);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      return { status: 0, ok: false, data: { error: 'the server cannot be reached: ' + error.message } };
    }
    let data = null;
    try { data = await response.json(); } catch { data = null; }
    return { status: response.status, ok: response.ok, data, etag: response.headers.get('ETag') };
  }

  function problem(result) {
    const data = result.data || {};
    const text = data.error || data.errorDetails || ('the server answered ' + result.status);
    return data.hint ? text + '\nhint: ' + data.hint : text;
  }

  // ---- sign-in ---------------------------------------------------------------------------------------------

  async function start() {
    const arrival = sessionArrival();
    const token = sessionStorage.getItem(TOKEN);
    if (token === null) return showSignIn(arrival.error);
    state.token = token;
    const result = await api('/console/api/session');
    if (!result.ok) {
      // Only a refused token is forgotten; a server or provider that is down (503) may take it on the next load.
      if (result.status === 401 || result.status === 403) sessionStorage.removeItem(TOKEN);
      state.token = null;
      return showSignIn(problem(result));
    }
    enter(result.data);
  }

  function showSignIn(message) {
    $('console').hidden = true;
    $('sign-in').hidden = false;
    $('sign-out').hidden = true;
    for (const id of ['environment', 'store', 'access', 'read-only', 'degraded']) $(id).hidden = true;
    setText('sign-in-error', message);
    $('token').focus();
    offerSignIn();
  }

  // The server's sign-in through the identity provider ends at #/session?token=…&next=… (or ?error=…&next=…): the
  // session is stored as a pasted token is, and the address bar loses it before the page goes on to `next`.
  function sessionArrival() {
    const match = /^#\/session\?(.*)$/.exec(location.hash);
    if (!match) return { error: '' };
    const fields = new URLSearchParams(match[1]);
    const next = fields.get('next') || '';
    history.replaceState(null, '', next.startsWith('#/') ? next : '#/');
    const token = fields.get('token');
    if (token) sessionStorage.setItem(TOKEN, token);
    return { error: fields.get('error') || '' };
  }

  // Offers "Sign in with <issuer>" when the server has an identity provider (the deep link comes back after it),
  // and "Open read-only without a token" only where the console opens without one: elsewhere it could only be
  // refused.
  async function offerSignIn() {
    const result = await api('/console/sign-in/options');
    const options = (result.ok && result.data) || {};
    $('open-read-only').hidden = options.readOnlyWithoutToken === false;
    const provider = options.provider;
    const box = $('provider-sign-in');
    box.hidden = !(provider && provider.url);
    if (box.hidden) return;
    const issuer = provider.issuer;
    let host = issuer;
    try { host = new URL(issuer).host; } catch { host = issuer; }
    const button = $('sign-in-provider');
    button.textContent = 'Sign in with ' + host;
    button.title = issuer;
    button.dataset.url = provider.url;
  }

  function signInWithProvider() {
    const url = $('sign-in-provider').dataset.url;
    if (!url) return;
    const next = location.hash.startsWith('#/') ? location.hash : '#/';
    location.assign(url + '?next=' + encodeURIComponent(next));
  }

  async function signIn(token) {
    setText('sign-in-error', '');
    state.token = token || null;
    const result = await api('/console/api/session');
    if (!result.ok) {
      state.token = null;
      // 401 for a token given is a token the server does not take; without one, the server needs one.
      const message = token && result.status === 401 ? 'Wrong token: ' + problem(result)
        : problem(result);
      setText('sign-in-error', message);
      $('token').select();
      return;
    }
    sessionStorage.setItem(TOKEN, token || '');
    $('token').value = '';
    enter(result.data);
  }

  function signOut() {
    sessionStorage.removeItem(TOKEN);
    state.token = null;
    if (state.stream) state.stream.abort();
    state.stream = null;
    state.flags = [];
    state.byKey.clear();
    clear($('flag-rows'));
    closeDetail();
    showSignIn('');
  }

  function enter(session) {
    state.session = session;
    $('sign-in').hidden = true;
    $('console').hidden = false;
    $('sign-out').hidden = false;
    const environment = session.environment;
    const badge = $('environment');
    badge.textContent = environment ? 'environment: ' + environment : 'no environment';
    badge.classList.toggle('production', /^prod/i.test(environment || ''));
    badge.hidden = false;
    const store = $('store');
    store.textContent = 'store: ' + (session.store.kind === 'postgres' ? 'PostgreSQL' : session.store.kind);
    store.title = session.store.location;
    store.hidden = false;
    const access = $('access');
    // Who the server says is signed in: the name the audit records, and the role.
    const user = session.user;
    access.textContent = user.source === 'anonymous' ? 'read-only' : user.name + ' · ' + (user.role === 'write'
      && user.namespaces ? 'write in ' + user.namespaces.join(', ') : user.role);
    access.title = user.source === 'anonymous' ? 'Signed in without a token'
      : 'Signed in as ' + user.name + ' (' + user.source + '); the audit log records this name';
    access.hidden = false;
    const readOnly = $('read-only');
    readOnly.textContent = session.readOnlyReason || '';
    readOnly.hidden = !session.readOnlyReason;
    $('reset-all').hidden = user.role !== 'admin';
    renderHealth(session.health);
    loadList().then(() => {
      route();
      follow();
    });
  }

  // ---- addresses: the list at #/?q=…&sort=…&dir=…, a flag at #/flags/KEY?tab=… ------------------------------

  /** The hash as a route: `{ key, tab }` for a flag page, `{ history }` for History, else the list's parameters. */
  function parseHash() {
    const hash = location.hash.replace(/^#/, '') || '/';
    const at = hash.indexOf('?');
    const path = at >= 0 ? hash.slice(0, at) : hash;
    const params = new URLSearchParams(at >= 0 ? hash.slice(at + 1) : '');
    if (path.startsWith('/flags/')) {
      const tab = params.get('tab');
      return { key: decodeURIComponent(path.slice('/flags/'.length)), tab: TABS.includes(tab) ? tab : 'overview' };
    }
    if (path === '/history') return { history: true };
    return { params };
  }

  /** The list's address for its search, filters and sort order; defaults are left out. */
  function listHash() {
    const params = new URLSearchParams();
    const f = filters();
    if ($('search').value) params.set('q', $('search').value);
    if (f.namespace) params.set('ns', f.namespace);
    if (f.kind) params.set('kind', f.kind);
    if (f.type) params.set('type', f.type);
    if (f.layer) params.set('layer', f.layer);
    if (f.stale) params.set('stale', '1');
    if (state.sort.by !== 'key' || state.sort.dir !== 'asc') {
      params.set('sort', state.sort.by);
      params.set('dir', state.sort.dir);
    }
    const query = params.toString();
    return '#/' + (query ? '?' + query : '');
  }

  function flagHash(key, tab) {
    return '#/flags/' + encodeURIComponent(key) + (tab && tab !== 'overview' ? '?tab=' + tab : '');
  }

  /** Shows what the address names. Back, Forward, links and reloads all come through here. */
  function route() {
    if (!state.session) return;
    const where = parseHash();
    if (where.history) {
      showView('history');
      return;
    }
    showView('flags');
    if (where.key) {
      showFlagPage(where.key, where.tab);
      return;
    }
    const params = where.params;
    $('search').value = params.get('q') || '';
    $('filter-namespace').value = params.get('ns') || '';
    $('filter-kind').value = params.get('kind') || '';
    $('filter-type').value = params.get('type') || '';
    $('filter-layer').value = params.get('layer') || '';
    $('filter-stale').checked = params.get('stale') === '1';
    const by = params.get('sort');
    state.sort = { by: ['key', 'layer', 'type'].includes(by) ? by : 'key',
      dir: params.get('dir') === 'desc' ? 'desc' : 'asc' };
    showList();
  }

  /** The list's state changed (a keystroke, a filter, a sort): the address follows without a history entry
   *  per keystroke. */
  function listChanged() {
    applyFilters();
    const hash = listHash();
    state.listHash = hash;
    if (location.hash !== hash && !(hash === '#/' && !location.hash)) history.replaceState(null, '', hash);
  }

  function showList() {
    const key = state.selected;
    state.selected = null;
    $('detail').hidden = true;
    $('list-view').hidden = false;
    $('list-toolbar').hidden = false;
    state.listHash = listHash();
    applyFilters();
    const tr = key && state.rows.get(key);
    if (tr) {
      tr.classList.add('selected');
      const button = tr.querySelector('td.key button');
      if (button) button.focus();
    }
  }

  // ---- the list --------------------------------------------------------------------------------------------

  function index(flag) {
    flag.searchText = (flag.key + '\n' + (flag.description || '')).toLowerCase();
    flag.prefix = flag.key.includes('.') ? flag.key.slice(0, flag.key.indexOf('.')) : '';
    return flag;
  }

  async function loadList() {
    const load = ++state.listLoads;
    setText('list-status', state.flags.length ? '' : 'Loading…');
    const result = state.context
      ? await api('/console/api/flags', { method: 'POST', json: { context: state.context } })
      : await api('/console/api/flags');
    if (load !== state.listLoads) return;
    if (!result.ok) {
      setText('list-status', problem(result));
      if (result.status === 401 || result.status === 403) signOut();
      return;
    }
    // In key order, the list's default; other orders sort a copy (`compareRows`).
    state.flags = result.data.flags.map(index).toSorted((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    state.byKey = new Map(state.flags.map((flag) => [flag.key, flag]));
    renderHealth(result.data.health);
    fillNamespaces();
    applyFilters();
    if (!performance.getEntriesByName('switchboard:first-rows').length) {
      performance.mark('switchboard:first-rows');
    }
    if (state.selected && state.byKey.has(state.selected)) explain(state.selected);
  }

  function fillNamespaces() {
    const select = $('filter-namespace');
    const current = select.value;
    const names = [...new Set(state.flags.map((flag) => flag.prefix))].toSorted();
    clear(select);
    select.append(el('option', { value: '', text: 'all' }));
    for (const name of names) select.append(el('option', { value: name, text: name || '(none)' }));
    select.value = names.includes(current) ? current : '';
  }

  function filters() {
    return {
      terms: $('search').value.toLowerCase().split(/\s+/).filter(Boolean),
      namespace: $('filter-namespace').value, kind: $('filter-kind').value, type: $('filter-type').value,
      layer: $('filter-layer').value, stale: $('filter-stale').checked,
    };
  }

  function matches(flag, f) {
    if (f.namespace && flag.prefix !== f.namespace) return false;
    if (f.kind && flag.kind !== f.kind) return false;
    if (f.type && flag.type !== f.type) return false;
    if (f.layer === 'overridden' ? (!flag.layer || flag.layer === 'default') : (f.layer && flag.layer !== f.layer)) {
      return false;
    }
    if (f.stale && !flag.stale) return false;
    for (const term of f.terms) if (!flag.searchText.includes(term)) return false;
    return true;
  }

  /** Compares two rows by the list's sort order; ties go by key, so the order is stable. */
  function compareRows(a, b) {
    const by = state.sort.by;
    let order = 0;
    if (by === 'layer') order = (LAYER_ORDER[a.layer] ?? 9) - (LAYER_ORDER[b.layer] ?? 9);
    else if (by === 'type') order = (a.kind + a.type).localeCompare(b.kind + b.type);
    if (order === 0) order = a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return state.sort.dir === 'desc' ? -order : order;
  }

  function renderSortHeaders() {
    for (const th of document.querySelectorAll('#flag-table th[data-sort]')) {
      const by = th.dataset.sort;
      const active = state.sort.by === by;
      th.setAttribute('aria-sort', active ? (state.sort.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      const button = th.querySelector('button');
      button.dataset.dir = active ? state.sort.dir : '';
      button.title = 'Sort by ' + by + (active && state.sort.dir === 'asc' ? ', descending' : '');
    }
  }

  function sortBy(by) {
    state.sort = { by, dir: state.sort.by === by && state.sort.dir === 'asc' ? 'desc' : 'asc' };
    listChanged();
  }

  function applyFilters() {
    const f = filters();
    state.filtered = state.flags.filter((flag) => matches(flag, f));
    if (state.sort.by !== 'key' || state.sort.dir !== 'asc') state.filtered = state.filtered.toSorted(compareRows);
    renderSortHeaders();
    $('empty').hidden = state.filtered.length > 0 || state.flags.length === 0;
    clear($('flag-rows'));
    state.rows.clear();
    state.shown = 0;
    showMore();
    const total = state.flags.length;
    let text = state.filtered.length === total ? total + ' definitions' : state.filtered.length + ' of ' + total
      + ' definitions';
    if (state.context) text += ' · evaluated as ' + describeContext(state.context);
    setText('list-status', text);
    countOverrides();
  }

  /** The reset-all button names how many runtime overrides there are. */
  function countOverrides() {
    const overridden = state.flags.filter((flag) => flag.version > 0).length;
    const reset = $('reset-all');
    reset.textContent = 'Reset all (' + overridden + ')';
    reset.disabled = overridden === 0;
  }

  function showMore() {
    const body = $('flag-rows');
    const end = Math.min(state.filtered.length, state.shown + PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = state.shown; i < end; i++) fragment.append(row(state.filtered[i]));
    body.append(fragment);
    state.shown = end;
    setText('more', end < state.filtered.length ? 'Showing ' + end + '; scroll for more.' : '');
    // Observe afresh: the marker may still be in view after the rows it asked for, and an observer reports only
    // changes.
    if (state.observer) {
      state.observer.unobserve($('more'));
      state.observer.observe($('more'));
    }
  }

  function valueCell(flag) {
    const cell = el('td', { class: 'value' });
    const canSwitch = flag.type === 'bool' && !flag.disabled && !state.context && mayWrite(flag.key);
    if (canSwitch) {
      // The same write as the flag page's switch: a dry run, the confirm step, and If-Match.
      const input = el('input', { type: 'checkbox', role: 'switch', class: 'row-switch',
        'aria-label': flag.key + ' is ' + (flag.value === true ? 'on' : 'off') });
      input.checked = flag.value === true;
      input.addEventListener('change', () => switchFromList(flag, input));
      cell.append(el('span', { class: 'switch' }, input));
    }
    const text = flag.disabled ? el('span', { class: 'reason', text: flag.served })
      : el('span', { class: 'value-text', text: summary(flag.value) });
    if (!flag.disabled && flag.value !== null && typeof flag.value === 'object') text.title = show(flag.value);
    cell.prepend(text);
    if (flag.variant) cell.append(el('span', { class: 'variant', text: '(' + flag.variant + ')' }));
    if (state.context && flag.reason) cell.append(el('span', { class: 'reason', text: flag.reason }));
    if (flag.errorMessage) cell.append(el('span', { class: 'reason', text: flag.errorMessage }));
    return cell;
  }

  function layerBadge(layer) {
    // No layer: a switched-off flag, whose callers get their own default.
    const name = layer || 'disabled';
    return tagBadge(name === 'default' || name === 'disabled' ? name : '● ' + name, 'layer-' + name,
      name === 'default' ? 'the definition' : name === 'disabled' ? 'switched off: callers get their own default'
        : 'overridden in the ' + name + ' layer');
  }

  /**
   * `expires in 1 h 59 min`, as the command line and the REPL write the time an override has left: rounded to the
   * nearest last unit shown (hours from a day on, minutes from an hour on).
   */
  function expiresText(expiresAt) {
    const seconds = (Date.parse(expiresAt) - Date.now()) / 1000;
    if (!(seconds >= 1)) return 'expires in less than 1 s';
    // The coarsest unit whose rounding reaches its range: 59 min 50 s is `1 h`, not `59 min 50 s`.
    const rounded = (unit) => Math.round(seconds / unit) * unit;
    const total = rounded(3600) >= 86400 ? rounded(3600) : rounded(60) >= 3600 ? rounded(60) : rounded(1);
    const [d, h, m, s] = [Math.floor(total / 86400), Math.floor(total % 86400 / 3600), Math.floor(total % 3600 / 60),
      total % 60];
    const left = d ? d + ' d' + (h ? ' ' + h + ' h' : '') : h ? h + ' h' + (m ? ' ' + m + ' min' : '')
      : m ? m + ' min' + (s ? ' ' + s + ' s' : '') : s + ' s';
    return 'expires in ' + left;
  }

  /** The time an override has left, or an empty text (never `null`, which `append` would print). */
  function expiryMark(flag) {
    return flag.expires_at ? tagBadge(expiresText(flag.expires_at), 'expiry', flag.expires_at) : '';
  }

  function row(flag) {
    const keyCell = el('td', { class: 'key' },
      el('button', { type: 'button', title: flag.key, 'aria-label': 'Details of ' + flag.key,
        onclick: () => openFlag(flag.key) }, keyText(flag.key)));
    if (flag.stale) {
      keyCell.append(tagBadge('stale', 'stale', 'expired on ' + flag.expires + '; generated accessors are deprecated'));
    }
    if (flag.disabled) keyCell.append(tagBadge('disabled', 'disabled'));
    if (flag.targeted) keyCell.append(tagBadge('targeted', 'targeted'));
    const tr = el('tr', { 'data-key': flag.key },
      keyCell, valueCell(flag), el('td', null, layerBadge(flag.layer), expiryMark(flag)),
      el('td', { class: 'col-type' }, tagBadge(flag.kind, 'kind'), tagBadge(flag.type, 'type')),
      el('td', { class: 'col-owner', text: flag.owner || '' }),
      el('td', { class: 'col-desc', text: flag.description || '' }));
    if (flag.key === state.selected) tr.classList.add('selected');
    state.rows.set(flag.key, tr);
    return tr;
  }

  /** The list's switch on a bool row: the server checks the write (dry run), then the confirm step; If-Match
   *  carries the version the row showed, so a change someone made meanwhile is a conflict, never overwritten. */
  async function switchFromList(flag, input) {
    const write = { key: flag.key, version: flag.version, old: flag.value, body: { value: input.checked },
      shown: show(input.checked), onCancel: () => { input.checked = flag.value === true; } };
    const checked = await request(write, true);
    if (checked.status === 412) {
      input.checked = flag.value === true;
      return showConflict(write);
    }
    if (!checked.ok) {
      input.checked = flag.value === true;
      setText('list-status', flag.key + ': ' + problem(checked));
      return;
    }
    confirmWrite(write);
  }

  /** Replaces one row's data (from an event or after a write) and flashes it. */
  function update(flag, flash) {
    index(flag);
    const old = state.byKey.get(flag.key);
    if (!old) return false;
    // Change events carry no reader: a row outside the signed-in writer's namespaces stays marked.
    if (old.readOnly && flag.readOnly === undefined) flag.readOnly = true;
    state.flags[state.flags.indexOf(old)] = flag;
    state.byKey.set(flag.key, flag);
    const filteredAt = state.filtered.indexOf(old);
    if (filteredAt >= 0) state.filtered[filteredAt] = flag;
    countOverrides();
    const tr = state.rows.get(flag.key);
    if (tr) {
      const fresh = row(flag);
      tr.replaceWith(fresh);
      if (flash) {
        fresh.classList.add('flash');
        setTimeout(() => fresh.classList.remove('flash'), 1700);
      }
    }
    return true;
  }

  // ---- details: editor and explain -------------------------------------------------------------------------

  /** Opens a flag's page: a new history entry, so Back returns to the list as it was. */
  function openFlag(key) {
    state.listHash = $('detail').hidden ? listHash() : state.listHash;
    location.hash = flagHash(key, 'overview');
  }

  function showFlagPage(key, tab) {
    const same = state.selected === key && !$('detail').hidden;
    const previous = state.rows.get(state.selected);
    if (previous) previous.classList.remove('selected');
    state.selected = key;
    $('list-view').hidden = true;
    $('list-toolbar').hidden = true;
    $('detail').hidden = false;
    $('detail-back').setAttribute('href', state.listHash);
    showTab(tab);
    if (same) return;
    setText('detail-key', key);
    window.scrollTo(0, 0);
    explain(key, true);
  }

  function showTab(tab) {
    state.tab = tab;
    for (const button of document.querySelectorAll('.flag-tab')) {
      button.setAttribute('aria-pressed', String(button.dataset.tab === tab));
    }
    for (const name of TABS) $('flag-' + name).hidden = name !== tab;
    if (tab === 'history' && state.selected) loadFlagHistory(state.selected);
  }

  /** Leaves the flag page for the list, as Back would. */
  function closeDetail() {
    if ($('detail').hidden) return;
    location.hash = state.listHash;
  }

  async function explain(key, focusEditor) {
    // A runtime override applies to every context, so the editor works on the value without one; explain shows
    // the context's.
    const plainRequest = api('/console/api/flags/' + keyPath(key));
    const result = state.context
      ? await api('/console/api/flags/' + keyPath(key), { method: 'POST', json: { context: state.context } })
      : await plainRequest;
    const plain = state.context ? await plainRequest : result;
    if (state.selected !== key) return;
    $('detail').classList.toggle('missing', !result.ok);
    $('flag-missing').hidden = result.ok;
    if (!result.ok) return showUnanswered(result);
    state.explained = result.data;
    renderDetail(result.data.flag, result.data.explanation, plain.ok ? plain.data.flag : result.data.flag,
      result.data.targeting);
    if (state.tab === 'history') loadFlagHistory(key);
    if (focusEditor && state.tab === 'overview') {
      const field = $('edit-value');
      if (field && !$('editor').hidden) field.focus();
    }
  }

  /**
   * A flag page the server did not answer, in place of the tabs (which would show nothing, or the last flag's): for
   * an address that names no definition (mistyped, or the flag was retired), the server's answer and the keys it
   * suggests as links to their pages; for any other failure, the server's message.
   */
  function showUnanswered(result) {
    state.explained = null;
    clear($('detail-badges'));
    setText('detail-description', '');
    const box = $('flag-missing');
    clear(box);
    const suggestions = (result.status === 404 && result.data && result.data.suggestions) || [];
    // The suggestions are links below, so the hint that names them in words is left out.
    box.append(el('p', { class: 'error', role: 'alert',
      text: suggestions.length ? result.data.error : problem(result) }));
    if (suggestions.length) {
      const list = el('ul');
      for (const key of suggestions) list.append(el('li', null, el('a', { href: flagHash(key), text: key })));
      box.append(el('p', { text: suggestions.length === 1 ? 'Did you mean this one?' : 'Did you mean one of these?' }),
        list);
    }
  }

  /** The one badge (layer, kind, type, stale, disabled, targeted, time left): the list and the page share it. */
  function tagBadge(text, kind, title) {
    return el('span', { class: 'tag tag-' + kind, text, title });
  }

  function renderDetail(flag, explanation, editable, targeting) {
    const badges = $('detail-badges');
    clear(badges);
    badges.append(tagBadge(flag.kind, 'kind'), tagBadge(flag.type, 'type'), layerBadge(flag.layer));
    if (flag.stale) badges.append(tagBadge('stale', 'stale', 'expired on ' + flag.expires));
    if (flag.disabled) badges.append(tagBadge('disabled', 'disabled'));
    if (flag.targeted) badges.append(tagBadge('targeted', 'targeted'));
    setText('detail-description', flag.description || '');
    const value = $('detail-value');
    clear(value);
    value.append(flag.disabled ? el('span', { class: 'reason', text: flag.served }) : show(flag.value));
    if (flag.variant) value.append(el('span', { class: 'variant', text: '(' + flag.variant + ')' }));
    value.append(' ', el('span', { class: 'help', text: 'from the ' + (flag.layer || 'no') + ' layer' }),
      expiryMark(flag));
    const facts = $('detail-facts');
    clear(facts);
    const fact = (name, text) => facts.append(el('dt', { text: name }), el('dd', { text }));
    if (flag.owner) fact('Owner', flag.owner);
    if (flag.expires) fact(flag.stale ? 'Expired' : 'Expires', flag.expires + (flag.stale ? ' (stale)' : ''));
    if (flag.tags) fact('Tags', flag.tags.join(', '));
    fact('Defined at', flag.location);
    fact('Environment variable', explanation.environmentVariable);
    const stored = state.explained && state.explained.override;
    if (stored) {
      fact('Override', 'version ' + stored.version + ', set by ' + overrideActor(stored) + ' at ' + stored.time);
    }
    const usage = state.explained && state.explained.usage;
    if (usage) {
      fact('Last evaluated', usage.last_evaluated
        ? relativeTime(usage.last_evaluated) + ' (' + usage.evaluations + ' evaluations since ' + usage.since + ')'
        : 'not since the server started (' + usage.since + ')');
    }
    renderSchedule(explanation.timeline || [], flag.expires_at);
    renderEditor(editable || flag);
    renderTargeting(flag, targeting);
    const winner = explanation.layers.find((step) => step.status === 'winner');
    setText('explain-summary', 'Value ' + show(explanation.value) + (winner ? ' from the ' + winner.layer
      + ' layer' : '') + ' (' + explanation.reason + ')' + (state.context ? ', evaluated as '
      + describeContext(state.context) : '') + '.');
    const body = $('explain-rows');
    clear(body);
    for (const step of explanation.layers) {
      const status = step.status === 'rejected' ? 'rejected: ' + step.problem
        : step.status === 'winner' ? 'wins' : step.status;
      body.append(el('tr', { class: step.status },
        el('td', null, layerBadge(step.layer)),
        el('td', { class: 'value', text: step.status === 'absent' ? '—' : show(step.value) }),
        el('td', { text: step.origin || '' }),
        el('td', { text: status })));
    }
    setText('explain-targeting', explanation.targeting ? 'Targeting: ' + explanation.targeting : '');
    setText('explain-variable', 'Environment variable: ' + explanation.environmentVariable);
  }

  /**
   * The schedule's steps as the server describes them, the ones in force marked, the next one named. Without
   * steps, says when the value changes by itself: when its runtime override expires (`expiresAt`), else never.
   */
  function renderSchedule(steps, expiresAt) {
    const box = $('flag-schedule');
    clear(box);
    box.append(el('h3', { text: 'Schedule' }));
    if (!steps.length) {
      box.append(el('p', { class: 'help', id: 'flag-schedule-text', text: expiresAt
        ? 'No schedule: this value changes when its runtime override ' + expiresText(expiresAt)
          + ' (at ' + new Date(expiresAt).toLocaleString() + '), or when someone changes it.'
        : 'No schedule: this value changes only when someone changes it.' }));
      return;
    }
    const list = el('ol', { class: 'timeline' });
    const next = steps.find((step) => !step.past);
    for (const step of steps) {
      const item = el('li', { class: step.past ? 'past' : step === next ? 'next' : 'coming' },
        el('time', { datetime: step.at, title: step.at, text: new Date(step.at).toLocaleString() }), ' ',
        el('span', { text: step.summary }));
      if (step === next) item.append(' ', tagBadge('next', 'next'));
      if (step.past) item.append(' ', el('span', { class: 'help', text: '(took effect ' + relativeTime(step.at) + ')' }));
      list.append(item);
    }
    box.append(list);
  }

  // ---- the flag page's targeting and history ---------------------------------------------------------------

  /** A served value: the value, its variant, and for a rollout bucket a bar as wide as its weight. */
  function servedItem(item) {
    const li = el('li', { class: 'served' }, el('code', { text: show(item.value) }));
    if (item.variant) li.append(el('span', { class: 'variant', text: '(' + item.variant + ')' }));
    if (item.weight !== undefined) {
      const percent = item.total ? Math.round((item.weight / item.total) * 1000) / 10 : 0;
      li.classList.add('bucket');
      li.prepend(el('span', { class: 'weight', text: percent + ' %', title: item.weight + ' of ' + item.total }));
      const bar = el('span', { class: 'bar', role: 'img', 'aria-label': percent + ' percent' });
      bar.append(el('span', { class: 'bar-fill', 'data-percent': String(Math.round(percent)) }));
      li.append(bar);
    }
    return li;
  }

  function place(location) {
    return location ? el('span', { class: 'place', text: location }) : null;
  }

  /** Draws the targeting as the server describes it; the page decides nothing about it. */
  function renderTargeting(flag, targeting) {
    const box = $('targeting');
    clear(box);
    if (!targeting) {
      box.append(el('p', { class: 'help', text: flag.disabled ? 'Switched off: no targeting is evaluated.'
        : 'No targeting: everyone gets ' + show(flag.value) + '.' }));
    } else {
      if (targeting.prerequisites.length) {
        const list = el('ul', { class: 'prerequisites' });
        for (const requirement of targeting.prerequisites) {
          list.append(el('li', null, el('code', { text: requirement.key }), ' must be ',
            el('code', { text: show(requirement.value) }), ' ', place(requirement.location)));
        }
        box.append(el('h3', { text: 'Prerequisites' }), list);
      }
      if (targeting.rules.length) {
        box.append(el('h3', { text: 'Rules, tried in order' }));
        const rules = el('ol', { class: 'rules' });
        for (const rule of targeting.rules) {
          const item = el('li', { class: 'rule', 'data-rule': String(rule.number) },
            el('div', { class: 'rule-head' }, el('strong', { text: rule.label }), ' ', place(rule.location)));
          const when = el('ul', { class: 'conditions' });
          for (const segment of rule.segments) {
            const details = el('details', { class: 'segment' },
              el('summary', { text: 'in segment ' + segment.name }));
            const inner = el('ul', { class: 'conditions' });
            for (const condition of segment.conditions) inner.append(el('li', null, el('code', { text: condition })));
            details.append(inner);
            when.append(el('li', null, details));
          }
          for (const condition of rule.conditions) when.append(el('li', null, el('code', { text: condition })));
          if (!rule.segments.length && !rule.conditions.length) when.append(el('li', { text: 'always' }));
          item.append(el('p', { class: 'label', text: 'When' }), when, el('p', { class: 'label',
            text: rule.serves.length > 1 ? 'Serves a rollout' : 'Serves' }));
          const serves = el('ul', { class: 'serves' });
          for (const served of rule.serves) serves.append(servedItem(served));
          item.append(serves);
          rules.append(item);
        }
        box.append(rules);
      }
      if (targeting.rollout.length) {
        const list = el('ul', { class: 'serves rollout' });
        for (const served of targeting.rollout) list.append(servedItem(served));
        box.append(el('h3', null, targeting.rules.length ? 'Everyone else: a rollout ' : 'A rollout ',
          place(targeting.rolloutLocation)), list);
      }
      if (targeting.logic) {
        box.append(el('h3', { text: 'Targeting (JSON Logic)' }), el('pre', { class: 'logic', text: targeting.logic }));
      }
    }
    if (flag.variants) {
      const list = el('ul', { class: 'variants' });
      for (const variant of flag.variants) {
        list.append(el('li', null, el('strong', { text: variant.name }), ' = ',
          el('code', { text: show(variant.value) }), ' ', place(variant.location)));
      }
      box.append(el('h3', { text: 'Variants' }), list);
    }
    // Bars are sized here rather than by inline style, which the page's CSP forbids.
    for (const fill of box.querySelectorAll('.bar-fill')) fill.style.width = fill.dataset.percent + '%';
  }

  async function loadFlagHistory(key) {
    const result = await api('/console/api/audit?limit=1000');
    if (state.selected !== key) return;
    if (!result.ok) {
      setText('flag-history-status', problem(result));
      return;
    }
    const records = result.data.records.filter((record) => record.key === key).toReversed();
    const list = $('flag-history-list');
    clear(list);
    const canWrite = mayWrite(key);
    for (const record of records) {
      const item = el('li', { class: 'card' },
        el('p', { class: 'help' }, el('time', { datetime: record.time, title: record.time,
          text: relativeTime(record.time) }), ' · ' + auditActor(record)),
        changeLine('', literal(record.old), literal(record.new)));
      if (canWrite) {
        item.append(el('button', { type: 'button', text: 'Revert',
          'aria-label': 'Revert ' + record.key + ' to ' + literal(record.old), onclick: () => revert(record) }));
      }
      list.append(item);
    }
    setText('flag-history-status', records.length ? records.length + ' change' + (records.length === 1 ? '' : 's')
      + ', newest first.' : 'No change recorded: the value has never been overridden at run time.');
  }

  /** "2 h ago", for a time the exact value of which is on hover. */
  function relativeTime(text) {
    const then = Date.parse(text);
    if (Number.isNaN(then)) return text;
    const seconds = Math.round((Date.now() - then) / 1000);
    if (seconds < 45) return 'just now';
    const units = [['min', 60], ['h', 3600], ['d', 86400]];
    let shown = seconds + ' s';
    for (const [unit, size] of units) if (seconds >= size * 0.75) shown = Math.round(seconds / size) + ' ' + unit;
    return seconds > 86400 * 30 ? new Date(then).toISOString().slice(0, 10) : shown + ' ago';
  }

  /** Builds the editor for a flag; an editor already showing this version of the value is left as it is, so
   *  that a refresh does not undo what someone is typing. `force` rebuilds it anyway (after a cancel). */
  function renderEditor(flag, force) {
    const form = $('editor');
    const canWrite = mayWrite(flag.key);
    form.hidden = !canWrite;
    if (!canWrite) return;
    state.editing = flag;
    const signature = flag.key + '|' + flag.version + '|' + JSON.stringify(flag.value);
    $('editor-reset').disabled = !(flag.version > 0);
    if (!force && signature === state.editorSignature && $('edit-value')) return;
    state.editorSignature = signature;
    // The version the editor writes against (`If-Match`), for whoever drives the page: a script that writes
    // twice in a row waits for it to change before typing again.
    form.dataset.version = String(flag.version);
    setText('editor-error', '');
    const field = $('editor-field');
    clear(field);
    const help = [];
    const label = el('label', { for: 'edit-value', text: 'Runtime value' });
    let input;
    if (flag.type === 'bool') {
      input = el('input', { id: 'edit-value', type: 'checkbox', role: 'switch' });
      input.checked = flag.value === true;
      const says = el('label', { for: 'edit-value', id: 'edit-value-state' });
      const sayState = () => { says.textContent = input.checked ? 'On' : 'Off'; };
      sayState();
      input.addEventListener('change', () => {
        sayState();
        review();
      });
      input.setAttribute('aria-label', 'Runtime value');
      field.append(el('span', { class: 'field-label', text: 'Runtime value' }),
        el('div', { class: 'switch' }, input, says));
      help.push('Toggling sets a runtime override for every context, after a confirm step.');
    } else if (flag.variants || flag.values) {
      input = el('select', { id: 'edit-value' });
      if (flag.variants) {
        for (const variant of flag.variants) {
          input.append(el('option', { value: variant.name, text: variant.name + ' = ' + show(variant.value) }));
        }
        input.value = flag.variant || '';
      } else {
        flag.values.forEach((value, position) => input.append(el('option', { value: String(position),
          text: show(value) })));
        const at = flag.values.findIndex((value) => JSON.stringify(value) === JSON.stringify(flag.value));
        input.value = at >= 0 ? String(at) : '';
      }
      field.append(label, input);
    } else if (flag.type === 'int' || flag.type === 'double') {
      input = el('input', { id: 'edit-value', type: 'number', step: flag.type === 'int' ? '1' : 'any',
        min: flag.min, max: flag.max, inputmode: flag.type === 'int' ? 'numeric' : 'decimal' });
      input.value = flag.value === null || flag.value === undefined ? '' : String(flag.value);
      field.append(label, input);
      if (flag.min !== undefined || flag.max !== undefined) {
        help.push('Allowed: ' + (flag.min !== undefined ? 'from ' + flag.min : '') + (flag.min !== undefined
          && flag.max !== undefined ? ' ' : '') + (flag.max !== undefined ? 'to ' + flag.max : '') + '.');
      }
    } else if (flag.type === 'string') {
      input = el('input', { id: 'edit-value', type: 'text', spellcheck: 'false', autocomplete: 'off' });
      input.value = typeof flag.value === 'string' ? flag.value : '';
      field.append(label, input);
      if (flag.pattern) help.push('Must match ' + flag.pattern);
    } else {
      input = el('textarea', { id: 'edit-value', rows: '6', spellcheck: 'false' });
      input.value = JSON.stringify(flag.value, null, 2);
      field.append(el('label', { for: 'edit-value', text: 'Runtime value (JSON ' + flag.type + ')' }), input);
      help.push('JSON: an ' + (flag.type === 'list' ? 'array' : 'object') + '.');
    }
    if (flag.type !== 'bool') {
      input.setAttribute('aria-describedby', 'editor-help editor-error');
      input.addEventListener('input', updateReview);
      input.addEventListener('change', updateReview);
    }
    setText('editor-help', help.join(' '));
    $('editor-review').hidden = flag.type === 'bool';
    updateReview();
  }

  /** What the editor proposes: the request body and how the new value reads. */
  function proposal(flag) {
    const input = $('edit-value');
    if (flag.type === 'bool') {
      return { body: { value: input.checked }, shown: show(input.checked), value: input.checked };
    }
    if (flag.variants) {
      const variant = flag.variants.find((item) => item.name === input.value);
      const value = variant && variant.value;
      return { body: { text: input.value }, shown: show(value) + ' (' + input.value + ')', value };
    }
    if (flag.values) {
      const value = flag.values[Number(input.value)];
      return { body: { value }, shown: show(value), value };
    }
    if (flag.type === 'list' || flag.type === 'object') {
      let value;
      try {
        value = JSON.parse(input.value);
      } catch (error) {
        return { error: 'not valid JSON: ' + error.message };
      }
      return { body: { value }, shown: show(value), value };
    }
    if (flag.type === 'string') return { body: { text: input.value }, shown: show(input.value), value: input.value };
    const number = input.value.trim() === '' ? NaN : Number(input.value.trim());
    return { body: { text: input.value.trim() }, shown: Number.isFinite(number) ? show(number)
      : input.value.trim() || '(empty)', value: Number.isFinite(number) ? number : undefined };
  }

  function updateReview() {
    const flag = state.editing;
    if (!flag || !$('edit-value')) return;
    const same = flag.type !== 'bool' && sameAsShown(flag);
    $('editor-review').disabled = same;
    $('editor-review').title = same ? 'The value is unchanged' : '';
  }

  /** Whether the field holds the value the flag has now: then there is nothing to change. */
  function sameAsShown(flag) {
    const proposed = proposal(flag);
    if (proposed.error || proposed.value === undefined) return false;
    return JSON.stringify(proposed.value) === JSON.stringify(flag.value);
  }

  /** Checks the proposed value with the server (`?dry_run=1`: every check of the write, nothing written) and
   *  opens the confirm step only for a value it would accept. */
  async function review() {
    const flag = state.editing;
    if (!flag || flag.key !== state.selected) return;
    setText('editor-error', '');
    const proposed = proposal(flag);
    if (proposed.error) {
      setText('editor-error', proposed.error);
      return;
    }
    if (flag.type !== 'bool' && sameAsShown(flag)) return;
    const write = { key: flag.key, version: flag.version, old: flag.value, body: proposed.body,
      shown: proposed.shown, onCancel: () => renderEditor(flag, true) };
    const checked = await request(write, true);
    if (state.editing !== flag) return;
    if (checked.status === 412) return showConflict(write);
    if (!checked.ok) {
      if (flag.type === 'bool') renderEditor(flag, true);
      setText('editor-error', problem(checked));
      const field = $('edit-value');
      if (field) field.focus();
      return;
    }
    confirmWrite(write);
  }

  /** The signed-in name the server records for a write. */
  function actorName() {
    return state.session && state.session.user ? state.session.user.name : 'console';
  }

  /** Whether the signed-in role may change a key: the server marks rows outside a writer's namespaces, and
   *  checks every write again. */
  function mayWrite(key) {
    const flag = state.byKey.get(key);
    return Boolean(state.session && state.session.canWrite && !(flag && flag.readOnly));
  }

  // ---- writes: confirm, If-Match, conflicts ----------------------------------------------------------------

  let pending = null;

  function changeLine(key, oldText, newText) {
    return el('p', { class: 'change' }, key ? key + ': ' : null, el('span', { class: 'old', text: oldText }), ' → ',
      el('span', { class: 'new', text: newText }));
  }

  /** Opens the confirm step for one write: `{key, version, old, body}` sets, `{key, version, reset}` resets. */
  function confirmWrite(write) {
    pending = { writes: [write], onCancel: write.onCancel };
    const body = $('confirm-body');
    clear(body);
    setText('confirm-title', write.reset ? 'Reset ' + write.key + '?' : 'Change ' + write.key + '?');
    body.append(changeLine(write.key, show(write.old), write.reset ? 'no runtime override' : write.shown));
    if (!write.reset) {
      // How long the override lasts: sent as expires_at, after which the key falls back by itself.
      const until = el('input', { type: 'datetime-local', id: 'confirm-until', hidden: true,
        'aria-label': 'Expires at (local time)' });
      const lasts = el('select', { id: 'confirm-lasts', onchange: () => { until.hidden = lasts.value !== 'until'; } },
        el('option', { value: '', text: 'until reset' }), el('option', { value: 'hour', text: 'for 1 hour' }),
        el('option', { value: 'day', text: 'until end of day' }), el('option', { value: 'until', text: 'until …' }));
      body.append(el('p', null, el('label', { for: 'confirm-lasts', text: 'Lasts ' }), lasts, ' ', until));
    }
    body.append(el('p', { class: 'help', text: 'As ' + actorName() + ', if the value is still at version '
      + write.version + ' (nobody changed it since this page showed it).' }));
    openDialog('confirm');
  }

  /** The confirm step's `expires_at`: in an hour, at the end of the local day, or the time picked (local). */
  function chosenExpiry() {
    const lasts = $('confirm-lasts');
    if (!lasts || !lasts.value) return undefined;
    if (lasts.value === 'hour') return new Date(Date.now() + 3600e3).toISOString();
    if (lasts.value === 'day') {
      const end = new Date();
      end.setHours(23, 59, 59, 999);
      return end.toISOString();
    }
    const picked = new Date($('confirm-until').value);
    // An empty or unreadable time is sent as it is, so the server's message says what is wrong.
    return isNaN(picked) ? $('confirm-until').value : picked.toISOString();
  }

  function confirmResetAll() {
    const writes = state.flags.filter((flag) => flag.version > 0)
      .map((flag) => ({ key: flag.key, version: flag.version, old: flag.value, reset: true }));
    if (!writes.length) return;
    pending = { writes };
    const body = $('confirm-body');
    clear(body);
    setText('confirm-title', 'Reset all ' + writes.length + ' runtime overrides?');
    body.append(el('p', { text: 'This removes ' + writes.length + ' runtime override' + (writes.length === 1 ? ''
      : 's') + ' as ' + actorName() + '; each key falls back to its env, file or default layer. A key someone '
      + 'else changed since this page showed it is left alone.' }));
    const list = el('ul');
    for (const write of writes.slice(0, 20)) list.append(el('li', { class: 'change', text: write.key + ' = '
      + show(write.old) }));
    if (writes.length > 20) list.append(el('li', { text: '… and ' + (writes.length - 20) + ' more' }));
    body.append(list);
    openDialog('confirm');
  }

  function openDialog(id) {
    const dialog = $(id);
    if (!dialog.open) dialog.showModal();
    $(id === 'confirm' ? 'confirm-ok' : 'conflict-reapply').focus();
  }

  function cancelPending() {
    const current = pending;
    pending = null;
    if ($('confirm').open) $('confirm').close();
    if (current && current.onCancel) current.onCancel();
  }

  async function confirmPending() {
    const current = pending;
    pending = null;
    const expiresAt = chosenExpiry();
    $('confirm').close();
    if (!current) return;
    if (current.writes.length === 1) {
      const write = current.writes[0];
      await send(expiresAt && write.body
        ? Object.assign({}, write, { body: Object.assign({}, write.body, { expires_at: expiresAt }) }) : write);
      return;
    }
    let done = 0;
    const conflicts = [];
    const failures = [];
    for (const write of current.writes) {
      const result = await request(write);
      if (result.ok) done++;
      else if (result.status === 412) conflicts.push(write.key);
      else failures.push(write.key + ': ' + problem(result));
    }
    let text = done + ' override' + (done === 1 ? '' : 's') + ' reset.';
    if (conflicts.length) text += ' Changed by someone else, left alone: ' + conflicts.join(', ') + '.';
    if (failures.length) text += ' Failed: ' + failures.join('; ');
    await loadList();
    setText('list-status', text);
  }

  /** The write's request; `dryRun` asks the server to check it and write nothing. */
  function request(write, dryRun) {
    const ifMatch = { 'If-Match': '"' + write.version + '"' };
    if (write.reset) {
      return api('/v1/overrides/' + keyPath(write.key), { method: 'DELETE', headers: ifMatch });
    }
    // No actor: the server records the signed-in person.
    return api('/v1/overrides/' + keyPath(write.key) + (dryRun ? '?dry_run=1' : ''), { method: 'PUT', headers: ifMatch,
      json: write.body });
  }

  async function send(write) {
    const result = await request(write);
    if (result.status === 412) return showConflict(write);
    if (!result.ok) {
      // Refused: the server's message and hint next to the field; nothing was written.
      const flag = state.editing;
      if (state.selected === write.key) {
        if (flag && flag.type === 'bool') renderEditor(flag, true);
        setText('editor-error', problem(result));
        const field = $('edit-value');
        if (field) field.focus();
      } else {
        setText('list-status', write.key + ': ' + problem(result));
      }
      return;
    }
    await refreshKey(write.key, true);
  }

  /** Reads one key again: its row, and its details when open. */
  async function refreshKey(key, flash) {
    const result = await api('/console/api/flags/' + keyPath(key));
    if (!result.ok) return null;
    if (!state.context) update(result.data.flag, flash);
    else scheduleContextReload();
    if (state.selected === key) {
      if (state.context) explain(key);
      else {
        state.explained = result.data;
        renderDetail(result.data.flag, result.data.explanation, null, result.data.targeting);
        if (state.tab === 'history') loadFlagHistory(key);
      }
    }
    if (!$('history-view').hidden) loadAudit();
    return result.data;
  }

  async function showConflict(write) {
    const current = await refreshKey(write.key, true);
    const body = $('conflict-body');
    clear(body);
    setText('conflict-title', 'Someone else changed ' + write.key + ' first');
    if (current) {
      const last = current.lastChange;
      if (last) {
        const who = last.actor ? auditActor(last) : 'someone';
        body.append(el('p', { text: who + ' at ' + last.time + ' changed it:' }),
          changeLine(write.key, literal(last.old), literal(last.new)));
      }
      const stored = current.override;
      body.append(el('p', { text: 'It is now ' + show(current.flag.value) + ' from the ' + current.flag.layer
        + ' layer' + (stored ? ' (runtime override version ' + stored.version + ', set by ' + overrideActor(stored)
        + ' at ' + stored.time + ')' : '') + '.' }));
    }
    body.append(el('p', { text: 'Your change was not written: ' + (write.reset ? 'reset the override'
      : 'set it to ' + write.shown) + '.' }));
    const version = current ? current.flag.version : write.version;
    pending = { conflict: Object.assign({}, write, { version }) };
    openDialog('conflict');
  }

  async function reapply() {
    const current = pending && pending.conflict;
    pending = null;
    $('conflict').close();
    if (current) await send(current);
  }

  function keepTheirs() {
    pending = null;
    $('conflict').close();
    const flag = state.editing;
    if (flag && flag.key === state.selected) renderEditor(flag, true);
  }

  // ---- evaluate as a context -------------------------------------------------------------------------------

  function describeContext(context) {
    const attributes = Object.assign({}, context);
    const key = attributes.targetingKey;
    delete attributes.targetingKey;
    const rest = Object.keys(attributes).length ? ' ' + JSON.stringify(attributes) : '';
    return (key ? 'targeting key ' + JSON.stringify(key) : 'a context') + rest;
  }

  async function applyContext() {
    setText('context-error', '');
    let attributes;
    const text = $('context-attributes').value.trim();
    try {
      attributes = text ? JSON.parse(text) : {};
    } catch (error) {
      setText('context-error', 'Attributes are not valid JSON: ' + error.message);
      return;
    }
    if (attributes === null || typeof attributes !== 'object' || Array.isArray(attributes)) {
      setText('context-error', 'Attributes must be a JSON object, such as {"plan": "pro"}.');
      return;
    }
    const key = $('context-key').value.trim();
    const context = Object.assign({}, attributes);
    if (key) context.targetingKey = key;
    state.context = Object.keys(context).length ? context : null;
    await loadList();
  }

  async function clearContext() {
    $('context-key').value = '';
    $('context-attributes').value = '{}';
    setText('context-error', '');
    state.context = null;
    await loadList();
  }

  function scheduleContextReload() {
    if (state.contextTimer) return;
    state.contextTimer = setTimeout(() => {
      state.contextTimer = null;
      loadList();
    }, 50);
  }

  // ---- history ---------------------------------------------------------------------------------------------

  async function loadAudit() {
    setText('history-status', 'Loading…');
    const result = await api('/console/api/audit?limit=1000');
    if (!result.ok) {
      setText('history-status', problem(result));
      return;
    }
    state.audit = result.data.records.toReversed();
    renderAudit();
  }

  /** Text in double quotes with quotes, backslashes and every character outside printable ASCII escaped, as the
   *  log writes it (Swift's `Message.quoted`): `"ana\u200b"`. */
  function quoted(text) {
    return '"' + text.replace(/["\\]|[^\x20-\x7e]/g, (c) => {
      if (c === '"' || c === '\\') return '\\' + c;
      return c === '\n' ? '\\n' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
    }) + '"';
  }

  /** A name as `switchboard log` shows it (Swift's `PersonName.shown`): as it is when it reads as itself, else quoted:
   *  one with an invisible character, a space at an end, a quote or a parenthesis could pass for another name. */
  function shownName(name) {
    const misleading = name === '' || /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}"()]/u.test(name)
      || /(?! )\p{Zs}/u.test(name) || name.startsWith(' ') || / \p{M}*$/u.test(name);
    return misleading ? quoted(name) : name;
  }

  /** Who made a write, as `switchboard log` shows it: `ana (claimed "mallory")`, `cli:bob (unverified)`. */
  function auditActor(record) {
    const notes = record.verified ? [] : ['unverified'];
    if (record.claimed_actor) notes.push('claimed ' + quoted(record.claimed_actor));
    const name = shownName(record.actor);
    return notes.length ? name + ' (' + notes.join(', ') + ')' : name;
  }

  /** Who set the override in force: its name, marked `(unverified)` when its write's record says nobody checked it. */
  function overrideActor(stored) {
    const name = shownName(stored.actor);
    return stored.verified === false ? name + ' (unverified)' : name;
  }

  function renderAudit() {
    const key = $('history-key').value.trim().toLowerCase();
    const actor = $('history-actor').value.trim().toLowerCase();
    const records = state.audit.filter((record) => (!key || record.key.toLowerCase().includes(key))
      && (!actor || record.actor.toLowerCase().includes(actor)));
    const body = $('history-rows');
    clear(body);
    for (const record of records.slice(0, 500)) {
      const actions = el('td');
      if (state.byKey.has(record.key) && mayWrite(record.key)) {
        actions.append(el('button', { type: 'button', text: 'Revert',
          'aria-label': 'Revert ' + record.key + ' to ' + literal(record.old), onclick: () => revert(record) }));
      }
      body.append(el('tr', null, el('td', null, el('time', { datetime: record.time, title: record.time,
        text: relativeTime(record.time) })), el('td', { text: auditActor(record) }),
        el('td', { class: 'change', text: record.key }),
        el('td', null, historyChange(record)), actions));
    }
    setText('history-status', records.length + ' change' + (records.length === 1 ? '' : 's')
      + (records.length > 500 ? ', the newest 500 shown' : '') + '.');
  }

  /** A record's change, as `switchboard log` writes it: an override set to expire says until when (a change of
   *  only its expiry would otherwise read as `"dark" → "dark"`). */
  function historyChange(record) {
    const line = changeLine(record.event === 'expired' ? 'expired' : '', literal(record.old), literal(record.new));
    if (record.event !== 'expired' && record.expires_at) {
      line.append(' ', el('span', { class: 'help', text: 'until ' + record.expires_at }));
    }
    return line;
  }

  function revert(record) {
    const flag = state.byKey.get(record.key);
    if (!flag) return;
    if (record.old === null || record.old === undefined) {
      confirmWrite({ key: flag.key, version: flag.version, old: flag.value, reset: true });
    } else {
      confirmWrite({ key: flag.key, version: flag.version, old: flag.value, body: { value: record.old },
        shown: show(record.old) });
    }
  }

  function showView(name) {
    const history = name === 'history';
    const wasHistory = !$('history-view').hidden;
    $('flags-view').hidden = history;
    $('history-view').hidden = !history;
    $('tab-flags').setAttribute('aria-pressed', String(!history));
    $('tab-history').setAttribute('aria-pressed', String(history));
    if (history && !wasHistory) loadAudit();
  }

  // ---- health and the live event stream --------------------------------------------------------------------

  function renderHealth(health) {
    if (!health) return;
    const banner = $('degraded');
    const degraded = health.status === 'degraded';
    banner.hidden = !degraded;
    if (!degraded) return;
    setText('degraded-text', health.storeError
      ? 'The runtime store cannot be read; the last known values are served.'
      : 'The last edit of the definitions does not validate; the last good definitions are still served.');
    const list = $('degraded-list');
    clear(list);
    for (const line of health.reloadErrors || []) list.append(el('li', { text: line }));
    if (health.storeError) list.append(el('li', { text: health.storeError }));
  }

  function setLive(text, on) {
    const live = $('live');
    live.textContent = text;
    live.classList.toggle('on', Boolean(on));
  }

  async function follow() {
    if (state.stream) state.stream.abort();
    const controller = new AbortController();
    state.stream = controller;
    let first = true;
    while (!controller.signal.aborted) {
      try {
        const response = await fetch('/console/api/events', { headers: headers(), cache: 'no-store',
          credentials: 'omit', signal: controller.signal });
        if (response.status === 401 || response.status === 403) return signOut();
        if (!response.ok || !response.body) throw new Error('status ' + response.status);
        setLive('live', true);
        // Whatever happened while the stream was down: read everything once.
        if (!first) await loadList();
        first = false;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            handleFrame(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      setLive('reconnecting…', false);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  function handleFrame(frame) {
    let name = 'message';
    let data = '';
    for (const line of frame.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (!data) return;
    let payload;
    try { payload = JSON.parse(data); } catch { return; }
    if (name === 'status') renderHealth(payload);
    else if (name === 'change') applyChange(payload);
  }

  function applyChange(change) {
    if (change.refetch || (change.removed && change.removed.length)) return loadList();
    if (state.context) {
      scheduleContextReload();
    } else {
      for (const flag of change.flags) {
        if (!update(flag, true)) return loadList();
      }
    }
    if (state.selected && change.flags.some((flag) => flag.key === state.selected)) {
      if (state.context) explain(state.selected);
      else refreshSelected();
    }
    if (!$('history-view').hidden) loadAudit();
  }

  async function refreshSelected() {
    // Keep what someone is typing: the explanation follows the change, the text in the field stays.
    const active = document.activeElement;
    const typed = active && active.id === 'edit-value' && active.type !== 'checkbox' ? active.value : null;
    await explain(state.selected);
    const field = $('edit-value');
    if (typed !== null && field) {
      field.value = typed;
      field.focus();
    }
  }

  // ---- wiring ----------------------------------------------------------------------------------------------

  function wire() {
    $('sign-in-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = $('token').value.trim();
      if (!token) {
        setText('sign-in-error', $('open-read-only').hidden ? 'Enter a token.'
          : 'Enter a token, or open the console read-only without one.');
        return;
      }
      signIn(token);
    });
    $('open-read-only').addEventListener('click', () => signIn(''));
    $('sign-in-provider').addEventListener('click', signInWithProvider);
    $('sign-out').addEventListener('click', signOut);
    $('search').addEventListener('input', listChanged);
    for (const id of ['filter-namespace', 'filter-kind', 'filter-type', 'filter-layer', 'filter-stale']) {
      $(id).addEventListener('change', listChanged);
    }
    for (const button of document.querySelectorAll('#flag-table button.sort')) {
      button.addEventListener('click', () => sortBy(button.dataset.sort));
    }
    $('clear-filters').addEventListener('click', () => {
      $('search').value = '';
      for (const id of ['filter-namespace', 'filter-kind', 'filter-type', 'filter-layer']) $(id).value = '';
      $('filter-stale').checked = false;
      listChanged();
    });
    for (const button of document.querySelectorAll('.flag-tab')) {
      button.addEventListener('click', () => {
        if (state.selected) history.replaceState(null, '', flagHash(state.selected, button.dataset.tab));
        showTab(button.dataset.tab);
      });
    }
    window.addEventListener('hashchange', route);
    $('reset-all').addEventListener('click', confirmResetAll);
    $('context-form').addEventListener('submit', (event) => {
      event.preventDefault();
      applyContext();
    });
    $('context-clear').addEventListener('click', clearContext);
    $('detail-close').addEventListener('click', closeDetail);
    $('editor').addEventListener('submit', (event) => {
      event.preventDefault();
      review();
    });
    $('editor-reset').addEventListener('click', () => {
      const flag = state.editing;
      if (flag && flag.key === state.selected) {
        confirmWrite({ key: flag.key, version: flag.version, old: flag.value, reset: true });
      }
    });
    $('confirm-ok').addEventListener('click', confirmPending);
    $('confirm-cancel').addEventListener('click', cancelPending);
    $('confirm').addEventListener('cancel', (event) => {
      event.preventDefault();
      cancelPending();
    });
    $('conflict-reapply').addEventListener('click', reapply);
    $('conflict-keep').addEventListener('click', keepTheirs);
    $('conflict').addEventListener('cancel', (event) => {
      event.preventDefault();
      keepTheirs();
    });
    $('tab-flags').addEventListener('click', () => {
      location.hash = state.selected ? flagHash(state.selected, state.tab) : state.listHash;
      showView('flags');
    });
    $('tab-history').addEventListener('click', () => {
      location.hash = '#/history';
      showView('history');
    });
    $('history-key').addEventListener('input', renderAudit);
    $('history-actor').addEventListener('input', renderAudit);
    $('history-refresh').addEventListener('click', loadAudit);
    state.observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && state.shown < state.filtered.length) showMore();
    }, { rootMargin: '400px' });
    state.observer.observe($('more'));
    document.addEventListener('keydown', (event) => {
      const target = event.target;
      const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement
        || target instanceof HTMLSelectElement;
      if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        if (!$('detail').hidden || !$('history-view').hidden) location.hash = state.listHash;
        showView('flags');
        $('search').focus();
      } else if (event.key === 'Escape' && !$('detail').hidden && !$('confirm').open && !$('conflict').open
        && (!typing || $('detail').contains(target))) {
        // From anywhere in the panel, the editor's field included (the dialogs close themselves on Escape).
        event.preventDefault();
        closeDetail();
      }
    });
  }

  wire();
  start();
})();
