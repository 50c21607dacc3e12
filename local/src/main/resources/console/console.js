// The oneread local console. Everything it shows is data from the console's own JSON endpoints, rendered as
// text (textContent, never innerHTML), with invisible and bidirectional characters shown as \uXXXX escapes so
// that no name can pass for another.

import './tools.js';

const api = (path) => `/_console/api/${path}`;
/** Rows a collection page shows: the console's endpoint allows up to 2,000. */
const PAGE = 2000;
const $ = (selector, root = document) => root.querySelector(selector);

/** Characters a person cannot see, or that reorder what they see: shown as escapes. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/gu;
export function visible(text) {
  return String(text).replace(INVISIBLE, (c) => {
    if (c === '\n' || c === '\t') return c;
    const code = c.codePointAt(0).toString(16).toUpperCase();
    return code.length <= 4 ? `\\u${code.padStart(4, '0')}` : `\\u{${code}}`;
  });
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name.startsWith('data-')) node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child == null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(visible(child)));
  }
  return node;
}

export async function call(path, options = {}) {
  const response = await fetch(api(path), options);
  const body = response.headers.get('content-type')?.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const error = new Error(body?.detail ?? `HTTP ${response.status}`);
    error.refused = body?.refused ?? [];
    error.status = response.status;
    throw error;
  }
  return body;
}

/**
 * `work` run at most one at a time: asks while it waits or runs merge into one more run after it, so a burst of
 * events costs one or two runs, never one each. `wait` says when a run starts (a delay, the next frame).
 */
function coalesce(work, wait = (run) => setTimeout(run, 0)) {
  let waiting = false;
  let running = false;
  let again = false;
  async function run() {
    waiting = false;
    running = true;
    try {
      await work();
    } catch (e) {
      showError(e);
    } finally {
      running = false;
      if (again) {
        again = false;
        ask();
      }
    }
  }
  function ask() {
    if (running) again = true;
    else if (!waiting) {
      waiting = true;
      wait(run);
    }
  }
  return ask;
}

/**
 * Live changes are drawn every 100 ms at most: a frame each would draw up to 60 times a second for a bulk load
 * that nobody reads that fast, each draw costing the page's main thread a layout and a paint.
 */
const LIVE_MS = 100;
const everyLiveInterval = (run) => setTimeout(run, LIVE_MS);

/** The next animation frame, or 100 ms when there is none (a hidden tab draws no frames). */
function nextFrame(run) {
  let ran = false;
  const once = () => {
    if (!ran) {
      ran = true;
      run();
    }
  };
  requestAnimationFrame(once);
  setTimeout(once, 100);
}

const state = {
  selected: null, // the selected request's entry
  requests: [],
};

// ---- Partitions -------------------------------------------------------------------------------------------

async function loadPartitions() {
  const filter = $('#filter').value.trim();
  const data = await call(`partitions?filter=${encodeURIComponent(filter)}`);
  // While the table is counted (in the background, at start and on Rescan), the counts are those so far.
  const counting = data.counting ? ` · counting… ${plural(data.counting.items, 'item')} so far` : '';
  $('#table-name').textContent = visible(`table ${data.table}${counting}`);
  if (data.counting) setTimeout(refreshPartitionsSoon, 1000);
  const list = $('#partitions');
  // A refresh re-renders both lists; a shard list the user opened stays open, so a write elsewhere never folds it.
  const openTenants = openKeys(list, 'li.tenant', 'data-tenant');
  const openIndexKeys = openKeys($('#index-partitions'), 'li.index-key', 'data-key');
  list.replaceChildren();
  for (const tenant of data.tenants) {
    // The shard count is the plan's (HotTenantShards); the partitions found only say how many hold data.
    const sharded = tenant.partitions.filter((p) => p.shard > 0);
    const shardInfo = tenant.shards > 0
      ? ` · ${plural(tenant.shards, 'shard')} · ${sharded.length} ${sharded.length === 1 ? 'holds' : 'hold'} data` : '';
    const title = el('button', { class: 'tenant-name', 'data-tenant': tenant.tenant, title: 'open the whole collection' },
      tenant.tenant);
    title.addEventListener('click', () => openCollection({ tenant: tenant.tenant }));
    const meta = el('span', { class: 'muted' },
      ` ${plural(tenant.items, 'item')} · ${formatBytes(tenant.bytes)}${shardInfo}`);
    const item = el('li', { class: 'tenant', 'data-tenant': tenant.tenant, 'data-shards': String(tenant.shards) },
      title, meta);
    if (tenant.partitions.length > 1 || sharded.length || tenant.shards > 0) {
      const shards = el('ul', { class: 'shards' });
      for (const p of tenant.partitions) {
        const label = p.shard > 0 ? `#${String(p.shard).padStart(2, '0')}` : 'unsharded';
        const b = el('button', { class: 'shard', 'data-partition': p.partition, 'data-shard': String(p.shard) }, label);
        b.addEventListener('click', () => openCollection({ partition: p.partition, tenant: tenant.tenant }));
        shards.append(el('li', {}, b, el('span', { class: 'muted' }, ` ${plural(p.items, 'item')} · ${formatBytes(p.bytes)}`)));
      }
      item.append(el('details', { open: openTenants.has(tenant.tenant) },
        el('summary', {}, plural(tenant.partitions.length, 'partition')), shards));
    }
    list.append(item);
  }
  if (!data.tenants.length) {
    list.append(el('li', { class: 'muted empty' }, filter
      ? `No workspace id contains "${filter}". Clear the filter to see them all.`
      : 'No item collections yet. Create a workspace (POST /workspaces), run `oneread-local seed`, or import fixtures.'));
  }
  // The secondary index's partitions, in their own group: each key with its shards folded under it.
  const index = $('#index-partitions');
  index.replaceChildren(...(data.index ?? []).map((group) => el('li', { class: 'index-key', 'data-key': group.key },
    el('strong', {}, group.key),
    el('span', { class: 'muted' }, ` ${plural(group.items, 'entry', 'entries')} · ${plural(group.partitions.length, 'shard')}`),
    el('details', { open: openIndexKeys.has(group.key) }, el('summary', {}, 'shards'),
      el('ul', { class: 'shards' }, ...group.partitions.map((p) =>
        el('li', {}, el('button', { type: 'button', class: 'index-partition', 'data-partition': p.partition,
          title: 'open this index partition as a query' }, p.partition), el('span', { class: 'muted' }, ` ${p.items}`))))))));
  if (!(data.index ?? []).length) index.append(el('li', { class: 'muted empty' }, 'No index entries: projects appear here by status.'));
}

/** The keys ({@code attribute}) of the {@code selector} items in {@code list} whose shard list is open. */
function openKeys(list, selector, attribute) {
  return new Set([...list.querySelectorAll(`${selector}:has(> details[open])`)].map((li) => li.getAttribute(attribute)));
}

/** "1 entry", "2 entries": every count on the page goes through here. */
function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

function formatBytes(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

// ---- Collection -------------------------------------------------------------------------------------------
// The open collection is a model in the page: its rows in the server's order, loaded a page at a time, then kept
// current by the rows the `changed` events carry (inserted where they sort, replaced, removed), never fetched
// again per write. Only the rows on screen, and a margin, are in the DOM: a row's place is its index times ROW.

/** A row's height in px, fixed (console.css sets the same on #collection rows). */
const ROW = 22;
/** Rows rendered above and below the visible ones: a few screens, so a fast scroll does not show blanks. */
const MARGIN = 100;
/** Pages load by themselves up to this many rows; past it, as the view scrolls towards the last row loaded. */
const AUTO_ROWS = 20000;
/** Sort keys longer than this (an idempotency record's is 69) are shortened in the middle; full in the title. */
const KEY_CHARS = 32;
/** The table's key attributes (KeyCodec.PARTITION_KEY, SORT_KEY): a row carries their values apart. */
const PARTITION_KEY = 'EntityRef';
const SORT_KEY = 'Detail';

const collection = {
  view: null, // {tenant} or {partition}
  generation: 0, // bumped when another view opens: a page fetched for the one before is dropped
  rows: [],
  byKey: new Map(),
  partitions: [],
  total: 0, // the server's count, kept by the changes while pages are still to load
  frontier: null, // the last row of the last page loaded
  complete: false,
  reset: true, // the next fetch starts again from the first page
  liveSince: null, // while a fetch is in flight: the changes since it began, which win over what it brings
  pending: new Map(), // changes received, applied at the next frame
  selected: null, // the selected row's key
  rendered: new WeakMap(), // row -> its <tr>: a row object is replaced, never changed, so a cached <tr> is current
};

/**
 * The scroller's position and height as last seen (on scroll, on resize): read from here, not from the element,
 * so applying changes never forces the browser to lay the page out in the middle of a task.
 */
const viewport = { top: 0, height: 0 };

function scrollCollection(top) {
  const scroller = $('#collection-scroll');
  scroller.scrollTop = top;
  viewport.top = Math.max(0, top);
}

const keyOf = (partition, sort) => `${partition}\u0000${sort}`;
const rowKey = (row) => keyOf(row.partition, row.sort);

/** The server's order (Console.collection): idempotency records last, then by sort key, then by partition. */
function compareRows(a, b) {
  const bookkeeping = (row) => (row.kind === 'idempotency' ? 1 : 0);
  return bookkeeping(a) - bookkeeping(b) || compareText(a.sort, b.sort) || compareText(a.partition, b.partition);
}

/** UTF-16 code unit order, as Java's String.compareTo. */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Where `row` stands in the model, or would be inserted. */
function position(row) {
  const rows = collection.rows;
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareRows(rows[middle], row) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function openCollection(view) {
  Object.assign(collection, {
    view, rows: [], byKey: new Map(), partitions: view.partition ? [view.partition] : [], total: 0,
    frontier: null, next: null, complete: false, reset: true, selected: null,
  });
  collection.generation += 1;
  collection.pending.clear();
  $('#item-panel').hidden = true;
  delete $('#collection-title').dataset.view; // set again once the first page is in
  scrollCollection(0);
  syncCollection();
}

/** A `reloaded` event, a gap in the stream: the open view is fetched again, once however many ask. */
function reloadCollection() {
  if (!collection.view) return;
  collection.reset = true;
  syncCollection();
}

function viewQuery(view) {
  return view.partition ? `partition=${encodeURIComponent(view.partition)}` : `tenant=${encodeURIComponent(view.tenant)}`;
}

/** One fetch at a time, merged: the first page after a reset, else the next page while one is left to load. */
const syncCollection = coalesce(async () => {
  const c = collection;
  if (!c.view || (!c.reset && c.complete)) return;
  const { generation, view } = c;
  const reset = c.reset;
  c.reset = false;
  // The rows up to the last one loaded are exactly the server's (the changes keep them so): the next page
  // starts after as many.
  // A page is asked for by the previous page's `next` cursor (`after`).
  const cursor = !reset && c.next ? `&after=${encodeURIComponent(c.next)}` : '';
  c.liveSince = new Map();
  let data;
  try {
    data = await call(`collection?${viewQuery(view)}${cursor}&limit=${PAGE}`);
  } catch (e) {
    if (generation === c.generation) c.reset ||= reset;
    throw e;
  } finally {
    if (generation === c.generation) c.liveSince = null;
  }
  if (generation !== c.generation) return; // another view opened meanwhile: its own fetch follows this one
  const live = c.liveSince ?? new Map();
  if (reset) {
    c.rows = [];
    c.byKey = new Map();
  }
  for (const row of data.rows) {
    if (!live.has(rowKey(row))) put(rowKey(row), row);
  }
  c.partitions = [...new Set([...data.partitions, ...(reset ? [] : c.partitions)])];
  for (const item of live.values()) {
    if (inView(item)) apply(item);
  }
  c.total = data.total;
  c.frontier = data.rows.at(-1) ?? c.frontier;
  c.next = data.next ?? null;
  c.complete = !c.next;
  if (reset) {
    $('#collection-title').textContent = visible(view.partition ?? view.tenant);
    $('#collection-title').dataset.view = view.partition ?? view.tenant;
  }
  showCollection();
  if (!c.complete && c.rows.length < AUTO_ROWS) syncCollection();
});

/** Puts a row in the model where it sorts, in place of the key's row before. */
function put(key, row) {
  const c = collection;
  const old = c.byKey.get(key);
  if (old) c.rows.splice(position(old), 1);
  c.rows.splice(position(row), 0, row);
  c.byKey.set(key, row);
  return old;
}

/** One changed item: its row as the write left it, or null once deleted. */
function apply({ partition, sort, row }) {
  const c = collection;
  const key = keyOf(partition, sort);
  if (!row) {
    const old = c.byKey.get(key);
    if (!old) return;
    c.rows.splice(position(old), 1);
    c.byKey.delete(key);
    c.total -= 1;
    return;
  }
  if (!c.partitions.includes(partition)) c.partitions.push(partition); // a shard the view had not listed yet
  const old = put(key, row);
  // Past the last page loaded, a row unknown here may be one of the pages still to load: counted when they come.
  if (!old && (c.complete || !c.frontier || compareRows(row, c.frontier) <= 0)) c.total += 1;
}

/** A change for the open view: a row it shows, or a row of its partition (of its tenant, for a whole tenant). */
function inView(item) {
  const view = collection.view;
  if (!view) return false;
  if (collection.byKey.has(keyOf(item.partition, item.sort))) return true;
  if (!item.row) return false;
  return view.partition ? item.partition === view.partition : item.row.tenant === view.tenant;
}

function queueChanges(items) {
  for (const item of items) collection.pending.set(keyOf(item.partition, item.sort), item);
  flushChanges();
}

/** The changes queued, applied every LIVE_MS at most; the view keeps its place when rows arrive above it. */
const flushChanges = coalesce(() => {
  const c = collection;
  if (!c.pending.size) return;
  const items = [...c.pending.values()];
  c.pending.clear();
  const top = Math.floor(viewport.top / ROW);
  const anchor = viewport.top > 0 ? c.rows[top] : null;
  let selectedChanged = false;
  for (const item of items) {
    c.liveSince?.set(keyOf(item.partition, item.sort), item);
    if (!inView(item)) continue;
    apply(item);
    selectedChanged ||= keyOf(item.partition, item.sort) === c.selected;
  }
  if (anchor) scrollCollection(viewport.top + (position(anchor) - top) * ROW);
  showCollection();
  if (selectedChanged && !$('#item-panel').hidden) showItem();
}, everyLiveInterval);

function count() {
  return collection.complete ? collection.rows.length : Math.max(collection.total, collection.rows.length);
}

function showCollection() {
  const c = collection;
  $('#collection-summary').textContent = `${plural(count(), 'item')} in ${plural(c.partitions.length, 'partition')}`
    + (c.complete ? '' : ` · ${c.rows.length} loaded, more as you scroll`);
  renderWindow();
}

/** The rows on screen and a margin; the rest of the height is margin above the table and a spacer below it. */
function renderWindow() {
  const c = collection;
  const top = Math.floor(viewport.top / ROW);
  const first = Math.max(0, top - MARGIN);
  const last = Math.min(c.rows.length, top + Math.ceil(viewport.height / ROW) + 1 + MARGIN);
  $('#collection').style.marginTop = `${first * ROW}px`;
  $('#collection-after').style.height = `${(c.rows.length - last) * ROW}px`;
  const body = $('#collection tbody');
  const trs = c.rows.slice(first, last).map(rowElement);
  const children = body.children;
  if (trs.length !== children.length || trs.some((tr, i) => children[i] !== tr)) body.replaceChildren(...trs);
  for (const tr of trs) {
    const selected = tr.dataset.key === c.selected;
    tr.classList.toggle('selected', selected);
    tr.setAttribute('aria-selected', String(selected));
  }
  highlight();
  if (!c.complete && c.frontier && last + MARGIN >= position(c.frontier)) syncCollection();
}

function rowElement(row) {
  let tr = collection.rendered.get(row);
  if (!tr) {
    tr = renderRow(row);
    tr.dataset.key = rowKey(row);
    collection.rendered.set(row, tr);
  }
  return tr;
}

/** One line an item: key, kind, name, status, version, updated, size; each long value cut, whole in its title. */
function renderRow(row) {
  const a = row.attributes ?? {};
  const scalar = (name) => (a[name] ? String(Object.values(a[name])[0]) : '');
  const updated = scalar('updatedAt');
  const cell = (text, attributes = {}) => el('td', { title: visible(text), ...attributes }, text);
  return el('tr', { class: `kind-${row.kind}`, 'data-partition': row.partition, 'data-sort': row.sort, 'data-kind': row.kind },
    el('td', { class: 'key', title: visible(`${row.partition} / ${row.sort}${row.createdAt ? `\ncreated ${row.createdAt}` : ''}`) },
      shortKey(row.sort)),
    cell(row.kind),
    cell(scalar('name')),
    cell(scalar('status')),
    cell(scalar('version'), { class: 'number' }),
    el('td', { title: updated }, shortTime(updated)),
    el('td', { class: 'number', title: `${row.size} bytes` }, formatBytes(row.size)));
}

function shortKey(sort) {
  const chars = Array.from(sort);
  return chars.length <= KEY_CHARS ? sort : `${chars.slice(0, 20).join('')}…${chars.slice(-8).join('')}`;
}

/** Today's times as the time of day, older ones as the date. */
function shortTime(iso) {
  if (!iso) return '';
  return iso.slice(0, 10) === new Date().toISOString().slice(0, 10) ? iso.slice(11, 19) : iso.slice(0, 10);
}

/** An item's attributes without the type wrappers. */
function plain(attributes) {
  const value = (v) => {
    const [type, x] = Object.entries(v)[0];
    if (type === 'M') return plain(x);
    if (type === 'L') return x.map(value);
    if (type === 'N') return String(Number(x)) === x ? Number(x) : x; // a number JSON cannot hold stays text
    if (type === 'NS') return x.map((n) => (String(Number(n)) === n ? Number(n) : n));
    if (type === 'NULL') return null;
    return x;
  };
  return Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, value(v)]));
}

function highlight() {
  const touched = new Set((state.selected?.touched ?? []).map((t) => `${t.partition}\u0000${t.sort ?? ''}`));
  const partitionsOnly = new Set((state.selected?.touched ?? []).filter((t) => !t.sort).map((t) => t.partition));
  for (const tr of document.querySelectorAll('#collection tbody tr')) {
    const hit = touched.has(`${tr.dataset.partition}\u0000${tr.dataset.sort}`) || partitionsOnly.has(tr.dataset.partition);
    tr.classList.toggle('touched', hit);
  }
}

// ---- Selected item: a side panel with the item as DynamoDB JSON and as JSON, and its writes from the log

function selectRow(key, open) {
  const c = collection;
  c.selected = key;
  const index = c.byKey.has(key) ? position(c.byKey.get(key)) : -1;
  if (index >= 0) {
    // Into view: below the sticky header at the top, or as the last row at the bottom.
    const top = index * ROW;
    if (top < viewport.top) scrollCollection(top);
    else if (top + 2 * ROW > viewport.top + viewport.height) scrollCollection(top + 2 * ROW - viewport.height);
  }
  renderWindow();
  if (open || !$('#item-panel').hidden) showItem();
}

function moveSelection(step) {
  const c = collection;
  if (!c.rows.length) return;
  const current = c.byKey.get(c.selected);
  const index = current ? position(current) + step : Math.floor(viewport.top / ROW);
  selectRow(rowKey(c.rows[Math.max(0, Math.min(c.rows.length - 1, index))]), false);
}

/** The first row whose key or name holds the text, selected and scrolled to. */
function findRow(text) {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return;
  const row = collection.rows.find((r) => r.sort.toLowerCase().includes(wanted)
    || String(Object.values(r.attributes?.name ?? {})[0] ?? '').toLowerCase().includes(wanted));
  $('#collection-find').classList.toggle('not-found', !row);
  if (row) selectRow(rowKey(row), false);
}

/** JSON with one attribute a line, each value on its line whole: an item reads at a glance, and parses back. */
function attributePerLine(item) {
  const lines = Object.entries(item).map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

function showItem() {
  const row = collection.byKey.get(collection.selected);
  const panel = $('#item-panel');
  panel.hidden = false;
  const [partition, sort] = (collection.selected ?? '\u0000').split('\u0000');
  $('#item-title').textContent = visible(`${partition} / ${sort}`);
  const dynamo = row ? { [PARTITION_KEY]: { S: row.partition }, [SORT_KEY]: { S: row.sort }, ...row.attributes } : null;
  const json = row ? { [PARTITION_KEY]: row.partition, [SORT_KEY]: row.sort, ...plain(row.attributes) } : null;
  $('#item-dynamodb').textContent = row ? visible(attributePerLine(dynamo)) : '(deleted)';
  $('#item-plain').textContent = row ? visible(attributePerLine(json)) : '(deleted)';
  const history = state.requests.flatMap((entry) => {
    const writes = (entry.writes ?? []).filter((w) => w.partition === partition && w.sort === sort);
    return writes.length ? [el('li', { class: 'history-entry', 'data-id': String(entry.id) },
      el('p', {}, `${entry.at ?? ''} ${entry.method} ${entry.path} → ${entry.status}`), ...writes.map(renderDiff))] : [];
  });
  $('#item-history').replaceChildren(...(history.length ? history
    : [el('li', { class: 'muted' }, 'no write to this item in the request log')]));
}

// ---- Request log ------------------------------------------------------------------------------------------

function renderRequest(entry) {
  const over = entry.budget?.over;
  const totals = entry.totals ?? { calls: 0, capacity: '0' };
  const item = el('li', {
    class: `request${over ? ' over-budget' : ''}${entry.agree === false ? ' disagree' : ''}`,
    'data-id': String(entry.id),
    'data-route': entry.route ?? '',
    'data-status-class': String(entry.status)[0],
    'data-workspace': entry.workspace ?? '',
  },
    el('span', { class: `status s${String(entry.status)[0]}` }, String(entry.status ?? '·')),
    el('span', { class: 'method' }, entry.method),
    entry.source ? el('span', { class: 'source muted' }, ` from ${entry.source}${entry.items != null ? `: ${plural(entry.items, 'item')}` : ''} `) : null,
    el('span', { class: 'path' }, entry.path),
    el('span', { class: 'muted' }, ` ${entry.function ?? ''} · ${entry.durationMs ?? ''} ms`),
    el('span', { class: 'cost', title: 'calls and capacity units, as the X-Dynamo-* headers say' },
      `${totals.calls} call${totals.calls === 1 ? '' : 's'} · ${totals.capacity} CU`),
    over ? el('span', { class: 'flag' }, `over budget: ${over}`) : null,
    entry.problem ? el('span', { class: 'problem' }, ` ${entry.problem.title ?? ''}`) : null);
  item.tabIndex = 0;
  item.addEventListener('click', () => select(entry));
  item.addEventListener('keydown', (e) => onListKey(e, item, () => select(entry)));
  knowRoute(entry.route);
  item.hidden = !shown(item);
  return item;
}

/**
 * Keyboard for a list whose items take the focus: Enter or Space does what a click does, the arrow keys move to
 * the next or previous shown item, Home and End to the first and last.
 */
function onListKey(e, item, activate) {
  const siblings = () => [...item.parentElement.children].filter((li) => !li.hidden && li.tabIndex >= 0);
  const move = {
    ArrowDown: () => item.nextElementSibling, ArrowUp: () => item.previousElementSibling,
    Home: () => siblings()[0], End: () => siblings().at(-1),
  }[e.key];
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    activate();
  } else if (move) {
    e.preventDefault();
    let next = move();
    while (next && next.hidden) next = e.key === 'ArrowUp' ? next.previousElementSibling : next.nextElementSibling;
    next?.focus();
  }
}

// ---- Log filters: route, status class, tenant; applied to the rows, so a live request is filtered as it comes in

function knowRoute(route) {
  if (!route || [...$('#log-route').options].some((o) => o.value === route)) return;
  $('#log-route').append(el('option', { value: route }, route));
}

function shown(li) {
  const route = $('#log-route').value;
  const status = $('#log-status').value;
  const tenant = $('#log-tenant').value.trim();
  return (!route || li.dataset.route === route)
    && (!status || li.dataset.statusClass === status)
    && (!tenant || li.dataset.workspace === tenant);
}

function applyLogFilters() {
  for (const li of document.querySelectorAll('#requests li.request')) li.hidden = !shown(li);
}

/** Entries the page keeps for the item panel's history: as many as the server's log (RequestLog.CAPACITY). */
const LOG_ENTRIES = 2000;

/** Requests the list shows; older ones stay in state.requests, for an item's history. */
const LOG_ROWS = 500;
const arrived = [];

function addRequest(entry) {
  state.requests.unshift(entry);
  if (state.requests.length > LOG_ENTRIES) state.requests.length = LOG_ENTRIES;
  arrived.push(entry);
  showArrived();
}

/** The requests arrived since the last draw, drawn together: a burst costs one change to the list, not one each. */
const showArrived = coalesce(() => {
  const entries = arrived.splice(0).slice(-LOG_ROWS).reverse();
  const list = $('#requests');
  list.prepend(...entries.map(renderRequest));
  while (list.children.length > LOG_ROWS) list.lastElementChild.remove();
  showRequestsEmpty();
}, everyLiveInterval);

/** The log's empty state says how to fill it. */
function showRequestsEmpty() {
  $('#requests-empty').hidden = $('#requests').children.length > 0;
}

function select(entry) {
  state.selected = entry;
  for (const li of document.querySelectorAll('#requests li')) li.classList.toggle('selected', li.dataset.id === String(entry.id));
  const detail = $('#request-detail');
  detail.hidden = false;
  // replaceChildren would show a null as the text "null": the parts a request lacks are left out.
  detail.replaceChildren(...[
    el('h3', {}, `${entry.method} ${entry.path} → ${entry.status}`),
    el('p', { class: 'headers' },
      `X-Dynamo-Calls ${entry.headers?.calls ?? '—'} · X-Dynamo-Capacity ${entry.headers?.capacity ?? '—'} · `
      + `log totals ${plural(entry.totals?.calls, 'call')}, ${entry.totals?.capacity} CU · `
      + (entry.agree ? 'they agree' : 'they DISAGREE')),
    entry.budget ? el('p', { class: entry.budget.over ? 'flag' : 'muted' },
      `budget: ${entry.budget.description} (${plural(entry.budget.calls, 'call')}, ${entry.budget.capacity} CU)`
      + (entry.budget.over ? ` — over: ${entry.budget.over}` : ' — within')) : null,
    entry.problem ? el('p', { class: 'problem' },
      `${entry.problem.title ?? ''}${entry.problem.detail ? `: ${entry.problem.detail}` : ''}`) : null,
    el('ol', { class: 'calls' }, ...(entry.calls ?? []).map(renderCall)),
    ...(entry.writes ?? []).map(renderDiff)].filter((part) => part != null));
  highlight();
}

function renderCall(call) {
  const e = call.expressions ?? {};
  const lines = [
    `${call.operation} ${call.table}${call.index ? ` index ${call.index}` : ''}`,
    call.key ? `Key ${JSON.stringify(call.key)}` : `partition ${call.partition}`,
    e.keyCondition ? `KeyConditionExpression ${e.keyCondition}` : null,
    e.condition ? `ConditionExpression ${e.condition}` : null,
    e.update ? `UpdateExpression ${e.update}` : null,
    e.filter ? `FilterExpression ${e.filter}` : null,
    e.projection ? `ProjectionExpression ${e.projection}` : null,
    e.names ? `ExpressionAttributeNames ${JSON.stringify(e.names)}` : null,
    e.values ? `ExpressionAttributeValues ${JSON.stringify(e.values)}` : null,
    call.itemsRead != null ? `items read ${call.itemsRead}, returned ${call.itemsReturned}` : null,
    `capacity ${call.capacity ?? '—'}${call.capacityEstimated ? ' (estimated: a refused write is billed, DynamoDB reports none)' : ''}`,
    call.error ? `error ${call.error}` : null,
    call.localOnly ? `local engine only, not counted against the budget: ${call.localOnly}` : null,
  ].filter((l) => l != null);
  return el('li', { class: 'call' }, el('pre', {}, lines.join('\n')));
}

function renderDiff(write) {
  const before = write.before ?? {};
  const after = write.after ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const rows = names.map((name) => {
    const b = before[name] ? JSON.stringify(before[name]) : '';
    const a = after[name] ? JSON.stringify(after[name]) : '';
    const change = b === a ? 'same' : !b ? 'added' : !a ? 'removed' : 'changed';
    return el('tr', { class: `diff-${change}` }, el('td', {}, name), el('td', {}, b), el('td', {}, a));
  });
  return el('div', { class: 'diff' },
    el('h4', {}, `${write.operation} ${write.partition} / ${write.sort}`
      + (write.before == null ? ' (no item before, or not seen by the console)' : '')
      + (write.after == null ? ' (deleted)' : '')),
    el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'attribute'), el('th', {}, 'before'), el('th', {}, 'after'))),
      el('tbody', {}, ...rows)));
}

async function loadRequests() {
  const data = await call('requests');
  state.requests = data.requests;
  $('#requests').replaceChildren(...data.requests.slice(0, LOG_ROWS).map(renderRequest));
  showRequestsEmpty();
}

// ---- Builder ----------------------------------------------------------------------------------------------

function form() {
  const limit = Number($('#limit').value);
  return {
    pattern: $('#pattern').value,
    workspace: $('#workspace').value.trim(),
    projectId: $('#project-id').value.trim(),
    partition: $('#partition').value,
    operator: $('#operator').value,
    value: $('#sort-value').value,
    high: $('#sort-high').value,
    descending: $('#descending').checked,
    deployed: $('#deployed').checked,
    limit: Number.isFinite(limit) ? limit : 20,
  };
}

function showPatternFields() {
  const pattern = $('#pattern').value;
  for (const label of document.querySelectorAll('#builder-form [data-for]')) {
    const wanted = label.dataset.for;
    label.hidden = !(wanted === 'custom' ? pattern === 'custom'
      : wanted === 'project' ? pattern === 'project' : pattern !== 'custom');
  }
}

async function build(run) {
  const error = $('#builder-error');
  error.hidden = true;
  try {
    const data = await call(run ? 'expr/run' : 'expr', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form()),
    });
    $('#expr-expression').textContent = visible(data.expression);
    $('#expr-java').textContent = visible(data.java);
    $('#expr-cli').textContent = visible(data.cli);
    const result = $('#run-result');
    result.replaceChildren();
    if (run) {
      result.append(
        el('p', { class: 'capacity' }, `${plural(data.count, 'item')} returned, ${data.scannedCount} read · consumed ${data.consumed} RCU · predicted ${data.predicted} RCU from item sizes`),
        el('table', {}, el('tbody', {}, ...data.items.map(renderRow))));
    }
  } catch (e) {
    error.textContent = visible(e.message);
    error.hidden = false;
  }
}


// ---- Heat -------------------------------------------------------------------------------------------------
// Contributor Insights, per second and by tenant: the server pushes one `heat` frame a second (already cut to its
// top groups, each with its hottest partitions); the page keeps only the latest and draws it at most once per
// animation frame, so a burst of frames (a reconnect, a slow tab) costs one render.

/** Groups drawn per list, and partitions per group: the server sends at most 10 of each; this is the page's cap. */
const HEAT_ROWS = 10;
const HEAT_PARTITIONS = 10;
const heat = { frame: null, pending: false, open: new Set() };

function showHeat(frame) {
  heat.frame = frame;
  if (heat.pending) return;
  heat.pending = true;
  requestAnimationFrame(() => {
    heat.pending = false;
    // A hidden tab keeps only the frame: showTab draws it when the tab opens.
    if (!$('#heat-pane').hidden) renderHeat(heat.frame);
  });
}

function renderHeat(frame) {
  const summary = $('#heat-summary');
  if (!frame?.available) {
    summary.textContent = visible(frame?.reason ?? 'no reading yet');
    $('#heat-accessed').replaceChildren();
    $('#heat-throttled').replaceChildren();
    return;
  }
  const limits = frame.limits;
  summary.textContent = visible(`${plural(frame.groups, 'group')} · ${plural(frame.partitions, 'partition')} · over ${frame.seconds} s`
    + (limits ? ` · limit per partition ${limits.read} RCU/s, ${limits.write} WCU/s (scale ${frame.scale})` : ' · no limits enforced'));
  summary.dataset.at = String(frame.at);
  const table = $('#heat-table-throttles');
  const tableReasons = Object.entries(frame.tableThrottledTotal ?? {});
  table.hidden = tableReasons.length === 0;
  table.replaceChildren(...(tableReasons.length ? [el('span', {}, 'table caps: '),
    ...tableReasons.map(([reason, total]) => throttleBadge(reason, frame.tableThrottles?.[reason] ?? 0, total))] : []));
  renderHeatList($('#heat-accessed'), 'accessed', frame.mostAccessed ?? [], 'nothing read or written in the last interval');
  renderHeatList($('#heat-throttled'), 'throttled', frame.mostThrottled ?? [], 'nothing throttled since the engine started');
}

function renderHeatList(list, name, groups, empty) {
  const rows = groups.slice(0, HEAT_ROWS).map((g, i) => renderHeatGroup(g, i + 1, name));
  list.replaceChildren(...(rows.length ? rows : [el('li', { class: 'muted heat-empty' }, empty)]));
}

function groupId(g) {
  return `${g.kind}\u0000${g.index ?? ''}\u0000${g.name}`;
}

function renderHeatGroup(g, rank, list) {
  const id = `${list}\u0000${groupId(g)}`;
  const throttledNow = Object.values(g.throttles ?? {}).reduce((a, b) => a + b, 0);
  const throttledTotal = Object.values(g.throttledTotal ?? {}).reduce((a, b) => a + b, 0);
  const attributes = {
    class: `heat-group kind-${g.kind}${throttledNow > 0 ? ' throttled-now' : ''}`,
    'data-rank': String(rank),
    'data-kind': g.kind,
    'data-units': String(g.readUnits + g.writeUnits),
    'data-throttles': String(throttledNow),
    'data-throttled-total': String(throttledTotal),
  };
  if (g.kind === 'tenant') attributes['data-tenant'] = g.name;
  else attributes['data-key'] = g.name;
  if (g.index) attributes['data-index'] = g.index;
  const advice = g.recommendation;
  const partitions = (g.partitions ?? []).slice(0, HEAT_PARTITIONS);
  const details = el('details', { class: 'heat-partitions' },
    el('summary', {}, plural(g.partitionCount, 'partition')
      + (g.partitionCount > partitions.length ? ` (the ${partitions.length} hottest shown)` : '')),
    el('ul', {}, ...partitions.map(renderHeatPartition)));
  details.open = heat.open.has(id);
  details.addEventListener('toggle', () => { if (details.open) heat.open.add(id); else heat.open.delete(id); });
  return el('li', attributes,
    el('div', { class: 'heat-head' },
      el('span', { class: 'heat-rank' }, `${rank}.`),
      el('strong', { class: 'heat-name' }, g.name),
      g.index ? el('span', { class: 'muted' }, ` index ${g.index}`) : null,
      advice ? el('span', {
        class: 'heat-advice',
        'data-recommended-shards': String(advice.recommendedShards),
        title: `hot-tenant report as of ${advice.asOf}: now ${plural(advice.currentShards, 'shard')}`,
      }, `report: ${plural(advice.recommendedShards, 'shard')}`) : null,
      el('span', { class: 'muted heat-requests' }, `${g.requests} req/s`)),
    el('div', { class: 'heat-bars' },
      bar('read', g.readUnits, g.hottestReadPercent, 'RCU/s', 'hottest partition'),
      bar('write', g.writeUnits, g.hottestWritePercent, 'WCU/s', 'hottest partition')),
    throttles(g.throttles, g.throttledTotal),
    details);
}

function renderHeatPartition(p) {
  return el('li', { class: 'heat-partition', 'data-partition': p.key, 'data-shard': String(p.shard) },
    el('code', {}, p.shard > 0 ? `#${String(p.shard).padStart(2, '0')} ${p.key}` : p.key),
    el('div', { class: 'heat-bars' },
      bar('read', p.readUnits, p.readPercent, 'RCU/s', 'of the partition limit'),
      bar('write', p.writeUnits, p.writePercent, 'WCU/s', 'of the partition limit')),
    throttles(p.throttles, p.throttledTotal));
}

/** Units per second against the limit: the bar is the share of the limit, full (and red) at 100% or more. */
function bar(unit, units, percent, label, of) {
  const share = percent == null ? null : Math.max(0, percent);
  const fill = el('span', { class: 'heat-fill' });
  fill.style.width = `${share == null ? 0 : Math.min(100, share)}%`;
  return el('span', {
    class: `heat-bar heat-${unit}${share != null && share >= 100 ? ' over' : share != null && share >= 80 ? ' near' : ''}`,
    'data-unit': unit,
    'data-percent': share == null ? '' : String(share),
    title: share == null ? 'the engine enforces no limit' : `${share}% ${of}`,
  },
  el('span', { class: 'heat-track' }, fill),
  el('span', { class: 'heat-value' }, `${units} ${label}${share == null ? '' : ` · ${share}%`}`));
}

function throttles(perSecond = {}, total = {}) {
  const reasons = Object.keys(total).sort();
  if (!reasons.length) return null;
  return el('div', { class: 'heat-throttles' }, ...reasons.map((r) => throttleBadge(r, perSecond[r] ?? 0, total[r])));
}

function throttleBadge(reason, rate, total) {
  return el('span', { class: `heat-reason${rate > 0 ? ' now' : ''}`, 'data-reason': reason, 'data-rate': String(rate), 'data-count': String(total) },
    `${reason} ${rate}/s (${total} since start)`);
}

function showTab(name) {
  for (const tab of document.querySelectorAll('#tabs .tab')) {
    tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
    tab.tabIndex = tab.dataset.tab === name ? 0 : -1;
  }
  for (const pane of document.querySelectorAll('[data-pane]')) pane.hidden = pane.dataset.pane !== name;
  document.body.dataset.tab = name;
  if (name === 'heat') renderHeat(heat.frame);
}

// ---- Live updates -----------------------------------------------------------------------------------------

/** The partition list, read again at most every 500 ms and one read at a time, however fast writes or keys come. */
const refreshPartitionsSoon = coalesce(loadPartitions, (run) => setTimeout(run, 500));

/** How long an error stays in place of the connection's state before "live" (or "reconnecting…") returns. */
const ERROR_SHOWN_MS = 5000;
let stream = null;
let errorTimer = null;

function showConnection() {
  clearTimeout(errorTimer);
  $('#status').textContent = stream?.readyState === EventSource.OPEN ? 'live' : 'reconnecting…';
}

function connect() {
  const events = new EventSource(api('events'));
  stream = events;
  let opened = false;
  events.addEventListener('open', () => {
    // A reconnect may have missed changes (a tab that fell behind is dropped): one fetch catches up.
    if (opened) {
      refreshPartitionsSoon();
      reloadCollection();
    }
    opened = true;
    showConnection();
  });
  events.addEventListener('error', () => { $('#status').textContent = 'reconnecting…'; });
  events.addEventListener('request', (e) => addRequest(JSON.parse(e.data)));
  events.addEventListener('cleared', () => {
    state.requests = [];
    arrived.length = 0;
    $('#requests').replaceChildren();
    $('#request-detail').hidden = true;
    showRequestsEmpty();
  });
  events.addEventListener('changed', (e) => {
    const { partitions, tenants, items } = JSON.parse(e.data);
    refreshPartitionsSoon();
    if (items) {
      queueChanges(items);
      return;
    }
    // Without rows, only a write to what is on screen fetches it again: a partition shown, or for a whole tenant,
    // that tenant (whose write may be to a shard not shown yet). Writes elsewhere leave the open collection alone.
    const view = collection.view;
    if (view && (partitions.some((p) => collection.partitions.includes(p)) || (!view.partition && tenants.includes(view.tenant)))) {
      reloadCollection();
    }
  });
  events.addEventListener('heat', (e) => showHeat(JSON.parse(e.data)));
  events.addEventListener('reloaded', () => {
    refreshPartitionsSoon();
    reloadCollection();
  });
}

// An error is news, not the connection's state: it shows for a while, then the state comes back (at once when
// the stream reconnects), so a page left open all day does not say "error" long after it is live again.
function showError(e) {
  $('#status').textContent = visible(`error: ${e.message}`);
  clearTimeout(errorTimer);
  errorTimer = setTimeout(showConnection, ERROR_SHOWN_MS);
}

/** Says on the button what the copy did, then puts its label back. */
async function copy(button) {
  const text = $(`#${button.dataset.copy}`).textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'copied';
  } catch {
    button.textContent = 'copy failed';
  }
  setTimeout(() => { button.textContent = 'copy'; }, 1500);
}

// ---- Start ------------------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  $('#filter').addEventListener('input', refreshPartitionsSoon);
  $('#rescan').addEventListener('click', () => call('rescan', { method: 'POST' }).catch(showError));
  for (const id of ['#log-route', '#log-status']) $(id).addEventListener('change', applyLogFilters);
  $('#log-tenant').addEventListener('input', applyLogFilters);
  $('#clear-log').addEventListener('click', () => call('requests', { method: 'DELETE' }).catch(showError));
  $('#import-fixtures').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const bookkeeping = $('#import-bookkeeping').checked ? 'include' : 'exclude';
      const report = await call(`fixtures?bookkeeping=${bookkeeping}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await file.text() });
      $('#status').textContent = `imported ${report.imported} of ${report.items}, skipped ${report.skipped.length}`;
    } catch (err) {
      showError(err);
      // Each refused item by key and reason, as text: the reasons quote what the file holds.
      $('#status').title = visible(err.refused.map((r) => `${r.partition} / ${r.sort}: ${r.reason}`).join('\n'));
    }
    e.target.value = '';
  });
  const scroller = $('#collection-scroll');
  const scrolled = coalesce(renderWindow, nextFrame);
  scroller.addEventListener('scroll', () => {
    viewport.top = scroller.scrollTop;
    scrolled();
  });
  new ResizeObserver(() => {
    viewport.height = scroller.clientHeight;
    scrolled();
  }).observe(scroller);
  $('#collection tbody').addEventListener('click', (e) => {
    const tr = e.target.closest('tr');
    if (tr) selectRow(tr.dataset.key, true);
  });
  scroller.addEventListener('keydown', (e) => {
    const steps = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20 };
    if (steps[e.key]) moveSelection(steps[e.key]);
    else if (e.key === 'Enter' && collection.selected) selectRow(collection.selected, true);
    else if (e.key === 'Escape') $('#item-panel').hidden = true;
    else return;
    e.preventDefault();
  });
  $('#item-close').addEventListener('click', () => { $('#item-panel').hidden = true; scroller.focus(); });
  $('#collection-find').addEventListener('input', (e) => findRow(e.target.value));
  $('#collection-find').addEventListener('keydown', (e) => { if (e.key === 'Enter') findRow(e.target.value); });
  $('#pattern').addEventListener('change', showPatternFields);
  // The snippets shown follow the toggle at once; running a query is left to the Run button.
  $('#deployed').addEventListener('change', () => { if ($('#expr-cli').textContent) build(false); });
  $('#builder-form').addEventListener('submit', (e) => { e.preventDefault(); build(false); });
  $('#run').addEventListener('click', () => build(true));
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', () => copy(button));
  }
  const tabs = [...document.querySelectorAll('#tabs .tab')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => showTab(tab.dataset.tab));
    // The tab pattern: arrow keys move between tabs and show the one they land on.
    tab.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      showTab(next.dataset.tab);
      next.focus();
    });
  }
  showPatternFields();
  call(`heat?top=${HEAT_ROWS}`).then((frame) => { if (!heat.frame) showHeat(frame); }).catch(showError);
  loadPartitions().catch(showError);
  loadRequests().catch(showError);
  connect();
});
