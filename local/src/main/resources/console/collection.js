// The Data tab's collection view: the open item collection, and the side panel of its selected item.
//
// The open collection is a model in the page: its rows in the server's order, loaded a page at a time, then kept
// current by the rows the `changed` events carry (inserted where they sort, replaced, removed), never fetched
// again per write. Only the rows on screen, and a margin, are in the DOM: a row's place is its index times ROW.

import { call } from './api.js';
import { $, el, formatBytes, plural, visible } from './dom.js';
import { keys } from './keys.js';
import { renderDiff, state } from './log.js';
import { coalesce, everyLiveInterval, nextFrame } from './schedule.js';

/** Rows a collection page shows: the console's endpoint allows up to 2,000. */
const PAGE = 2000;

/** A row's height in px, fixed (console.css sets the same on #collection rows). */
const ROW = 22;
/** Rows rendered above and below the visible ones: a few screens, so a fast scroll does not show blanks. */
const MARGIN = 100;
/** Pages load by themselves up to this many rows; past it, as the view scrolls towards the last row loaded. */
const AUTO_ROWS = 20000;
/** Sort keys longer than this (an idempotency record's is 69) are shortened in the middle; full in the title. */
const KEY_CHARS = 32;

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

export function openCollection(view) {
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
export function reloadCollection() {
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

export function queueChanges(items) {
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
  // Which rows this batch applied, for whoever listens (the bulk benchmark times a create's row by it): an event,
  // not a performance mark, so a console left open for days keeps nothing.
  document.dispatchEvent(new CustomEvent('oneread:rows-applied', { detail: { sorts: items.map((i) => i.sort) } }));
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
export function renderRow(row) {
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

export function highlight() {
  const touched = new Set((state.selected?.touched ?? []).map((t) => `${t.partition}\u0000${t.sort ?? ''}`));
  const partitionsOnly = new Set((state.selected?.touched ?? []).filter((t) => !t.sort).map((t) => t.partition));
  for (const tr of document.querySelectorAll('#collection tbody tr')) {
    const hit = touched.has(`${tr.dataset.partition}\u0000${tr.dataset.sort}`) || partitionsOnly.has(tr.dataset.partition);
    tr.classList.toggle('touched', hit);
  }
}

// ---- The selected item: a side panel with the item as DynamoDB JSON and as JSON, and its writes from the log

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
  // A row carries its key apart from its attributes: the item shows it under the table's key attribute names.
  const dynamo = row ? { [keys.partition]: { S: row.partition }, [keys.sort]: { S: row.sort }, ...row.attributes } : null;
  const json = row ? { [keys.partition]: row.partition, [keys.sort]: row.sort, ...plain(row.attributes) } : null;
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

/** A `changed` event without rows: only a write to what is on screen fetches it again. */
export function changedElsewhere(partitions, tenants) {
  // A partition shown, or for a whole tenant, that tenant (whose write may be to a shard not shown yet). Writes
  // elsewhere leave the open collection alone.
  const view = collection.view;
  if (view && (partitions.some((p) => collection.partitions.includes(p)) || (!view.partition && tenants.includes(view.tenant)))) {
    reloadCollection();
  }
}

export function startCollection() {
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
}
