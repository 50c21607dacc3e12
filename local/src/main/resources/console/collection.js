// The Data tab's collection view: the open item collection, and which of its items is selected (panel.js shows it).
//
// The open collection may hold a million items, so the page holds a window of it: one run of rows in the server's
// order, at a known position (`base`) in the whole, at most KEEP rows, loaded a FETCH at a time around what is on
// screen. The scrollbar speaks of the whole collection: its height is the counted size times ROW (scaled down past
// what a browser lays out), and a position far from the run loads the page that holds it (`at`, which the server
// finds by its marks, CollectionPositions); near it, the run grows by the next page (`after`) or the one before.
// Rows far from the view are dropped. The "go to" box seeks (`find`): a key-conditioned Query on the server, not a
// search of the rows loaded. The run is kept current by the rows the `changed` events carry (inserted where they
// sort, replaced, removed); the count, by the partition list's counts, which follow every write.

import { call } from './api.js';
import { $, el, formatBytes, formatCount, plural, reconcile, setStyle, setText, visible } from './dom.js';
import { state } from './log.js';
import { closePanel, panelOpen, showItem, startPanel } from './panel.js';
import { coalesce, everyLiveInterval, nextFrame } from './schedule.js';

/** Rows a fetch asks for: a screen at 1920 px (about 50 rows) and the margins both ways, and some. */
const FETCH = 300;
/** Rows kept in the page at most, whatever the scroll: the view and a few fetches each way; the rest dropped. */
const KEEP = 1500;
/** A row's height in px, fixed (console.css sets the same on #collection rows). */
const ROW = 22;
/** Rows rendered above and below the visible ones: a few screens, so a fast scroll does not show blanks. */
const MARGIN = 100;
/**
 * The scroll area's height at most, in px: Chromium lays out up to about 33.5 million, Firefox about 17.9
 * million. Past it, positions map to the scrollbar in proportion (a pixel of scroll is more than a row).
 */
const MAX_HEIGHT = 15_000_000;
/** Sort keys longer than this (an idempotency record's is 69) are shortened in the middle; full in the title. */
const KEY_CHARS = 32;

const collection = {
  view: null, // {tenant}, {partition} or {index}
  generation: 0, // bumped when another view opens, or the run is replaced: a page fetched for the one before is dropped
  rows: [], // the run: consecutive rows of the collection, from position `base`
  byKey: new Map(),
  base: 0,
  next: null, // the cursor of the page after the run's last row (null: none, or dropped with the rows after it)
  atEnd: false, // the run's last row is the collection's last
  partitions: [],
  total: 0, // the server's count, then the partition list's, as writes move it
  reset: true, // the next fetch starts again from the first page
  goal: null, // a fetch asked for: {at}, {find}, {end}; else the view's edges say what to load
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

/** The scroll area's height, and how many rows a pixel of scroll is worth past MAX_HEIGHT (1 px = 1/ROW row below). */
function geometry() {
  const natural = collection.total * ROW;
  const height = Math.min(natural, MAX_HEIGHT);
  const scale = natural > height && height > viewport.height ? (natural - viewport.height) / (height - viewport.height) : 1;
  return { height, scale };
}

/** The position (a fraction of a row) at the top of the view. */
function topPosition() {
  return (viewport.top * geometry().scale) / ROW;
}

/** Scrolls so that position `at` is the top row of the view. */
function scrollToPosition(at) {
  scrollCollection((at * ROW) / geometry().scale);
}

const keyOf = (partition, sort) => `${partition}\u0000${sort}`;
const rowKey = (row) => keyOf(row.partition, row.sort);

/**
 * The server's order (Console.collection): a table's idempotency records last, then by sort key, then by
 * partition; an index's entries by index sort key, then index partition.
 */
function compareRows(a, b) {
  if (collection.view?.index) {
    return compareText(a.indexSort ?? '', b.indexSort ?? '') || compareText(a.indexPartition ?? '', b.indexPartition ?? '')
      || compareText(a.partition, b.partition) || compareText(a.sort, b.sort);
  }
  const bookkeeping = (row) => (row.kind === 'idempotency' ? 1 : 0);
  return bookkeeping(a) - bookkeeping(b) || compareText(a.sort, b.sort) || compareText(a.partition, b.partition);
}

/** UTF-16 code unit order, as Java's String.compareTo. */
function compareText(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether two reads of a row are the same: every field the server sent, and those derived from them, in any order
 * (a row from the change feed lists its attributes as the engine's record does, a fetched one as the SDK's item).
 */
function sameRow(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => Object.hasOwn(b, name) && sameRow(a[name], b[name]));
}

/** Where `row` stands in the run, or would be inserted. */
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
    view, rows: [], byKey: new Map(), base: 0, partitions: view.partition ? [view.partition] : [], total: 0,
    next: null, atEnd: false, reset: true, goal: null, selected: null,
  });
  collection.generation += 1;
  collection.pending.clear();
  closePanel();
  delete $('#collection-title').dataset.view; // set again once the first page is in
  scrollCollection(0);
  syncCollection();
}

/** A `reloaded` event, a gap in the stream: the open view is fetched again where it is, once however many ask. */
export function reloadCollection() {
  if (!collection.view) return;
  collection.reset = true;
  syncCollection();
}

function viewQuery(view) {
  if (view.index) return `index=${encodeURIComponent(view.index)}`;
  return view.partition ? `partition=${encodeURIComponent(view.partition)}` : `tenant=${encodeURIComponent(view.tenant)}`;
}

/**
 * What to fetch for the view now, or null: the run covers it. A goal asked for first (a seek, an end); else the
 * rows on screen and the margin: the next page or the one before when they touch the run, else the page at
 * their position.
 */
function wanted() {
  const c = collection;
  if (c.reset) return c.goal ?? { at: Math.max(0, Math.floor(topPosition()) - MARGIN) };
  if (c.goal) return c.goal;
  const top = Math.floor(topPosition());
  const first = Math.max(0, top - MARGIN);
  const last = Math.min(c.total, top + Math.ceil(viewport.height / ROW) + 1 + MARGIN);
  const end = c.base + c.rows.length;
  if (first >= c.base && (last <= end || c.atEnd)) return null;
  if (!c.rows.length || last < c.base - FETCH || first > end + FETCH) return { at: first };
  if (last > end && !c.atEnd) return c.next ? { after: c.next } : { at: end };
  if (first < c.base) return { at: Math.max(0, c.base - FETCH), before: true };
  return null;
}

/** One fetch at a time, merged: what `wanted` says, until the view is covered. */
const syncCollection = coalesce(async () => {
  const c = collection;
  const goal = c.view && wanted();
  if (!goal) return;
  const { generation, view } = c;
  const wasReset = c.reset;
  c.reset = false;
  if (goal === c.goal) c.goal = null;
  let query = `collection?${viewQuery(view)}&limit=${goal.before ? c.base - goal.at || 1 : FETCH}`;
  if (goal.after) query += `&after=${encodeURIComponent(goal.after)}`;
  else if (goal.find !== undefined) query += `&find=${encodeURIComponent(goal.find)}`;
  else if (goal.end) query += `&end=${goal.end}`;
  else if (goal.at > 0) query += `&at=${goal.at}`; // at 0: the first page, which needs no position
  c.liveSince = new Map();
  let data;
  try {
    data = await call(query);
  } catch (e) {
    if (generation === c.generation) c.reset ||= wasReset;
    if (superseded(goal)) return;
    if (goal.find !== undefined && e.status >= 400 && e.status < 500) {
      findLoaded(goal.find); // not a key: a name, looked for in the rows loaded
      return;
    }
    throw e;
  } finally {
    if (generation === c.generation) c.liveSince = null;
  }
  if (generation !== c.generation) return; // another view opened meanwhile: its own fetch follows this one
  if (superseded(goal)) {
    c.reset ||= wasReset;
    return;
  }
  const live = c.liveSince ?? new Map();
  const fresh = data.rows.filter((row) => !live.has(rowKey(row))).map((row) => indexed(row));
  c.partitions = [...new Set([...data.partitions, ...(wasReset ? [] : c.partitions)])];
  c.total = data.total;
  if (goal.after) {
    for (const row of fresh) if (!c.byKey.has(rowKey(row))) { c.rows.push(row); c.byKey.set(rowKey(row), row); }
    c.next = data.next ?? null;
    c.atEnd = !data.next;
  } else if (goal.before && data.position + data.rows.length >= c.base) {
    const before = fresh.filter((row) => !c.byKey.has(rowKey(row)));
    for (const row of before) c.byKey.set(rowKey(row), row);
    c.rows = [...before, ...c.rows];
    c.base = Math.max(0, c.base - before.length);
  } else {
    // A page elsewhere: the run starts again there. A row the run held, unchanged, stays the same row, so that its
    // drawn line stays in the table: a reload (a reconnect's catch-up, a rescan) redraws what changed, not the window.
    const held = c.byKey;
    c.rows = fresh.map((row) => {
      const kept = held.get(rowKey(row));
      return kept && sameRow(kept, row) ? kept : row;
    });
    c.byKey = new Map(c.rows.map((row) => [rowKey(row), row]));
    c.base = data.position ?? 0;
    c.next = data.next ?? null;
    c.atEnd = !data.next;
  }
  for (const item of live.values()) {
    if (inView(item)) apply(item);
  }
  if (wasReset && !$('#collection-title').dataset.view) {
    const name = view.index ?? view.partition ?? view.tenant;
    $('#collection-title').textContent = visible(view.index ? `${name} · ${plural(c.partitions.length, 'shard')}` : name);
    $('#collection-title').dataset.view = name;
  }
  if (goal.find !== undefined) sought(data);
  if (goal.end === 'newest') scrollToPosition(Math.max(0, c.base + c.rows.length - Math.floor(viewport.height / ROW) + 1));
  if (goal.end === 'oldest') scrollToPosition(0);
  evict();
  showCollection();
  // A fetched page drawn, for whoever listens (a test waits for a reload's answer by it).
  document.dispatchEvent(new CustomEvent('oneread:page-applied'));
});

/**
 * Whether a seek's answer came after its text was typed further: the box seeks at each pause in typing, and on a
 * busy machine the answer for "the" can come after "the one" is typed. Applied, it would move the run to where "THE"
 * sorts as a key, and the name "the one", which is looked for in the rows loaded, would not be found there. The
 * newer text's own seek follows.
 */
function superseded(goal) {
  return goal.find !== undefined && goal.find !== $('#collection-find').value.trim();
}

/** An index entry's place in the index, from its projected attributes when the server did not say. */
function indexed(row) {
  if (!collection.view?.index || row.indexSort) return row;
  const a = row.attributes ?? {};
  const partition = a[keys.indexPartition]?.S;
  const shard = partition ? Number(partition.slice(partition.lastIndexOf('#') + 1)) : 0;
  return { ...row, indexPartition: partition, indexSort: a[keys.indexSort]?.S, indexShard: shard };
}

/** Rows past KEEP dropped, the farthest from the view first; the cursor past the run goes with its last row. */
function evict() {
  const c = collection;
  if (c.rows.length <= KEEP) return;
  const top = Math.floor(topPosition()) - c.base;
  const from = Math.max(0, Math.min(c.rows.length - KEEP, top - Math.floor((KEEP - viewport.height / ROW) / 2)));
  const dropped = [...c.rows.slice(0, from), ...c.rows.slice(from + KEEP)];
  if (from + KEEP < c.rows.length) {
    c.next = null;
    c.atEnd = false;
  }
  c.rows = c.rows.slice(from, from + KEEP);
  c.base += from;
  for (const row of dropped) c.byKey.delete(rowKey(row));
}

/** The seek's answer: the row found selected and scrolled to the top of the view; not found marks the box. */
function sought(data) {
  const c = collection;
  $('#collection-find').classList.toggle('not-found', !data.found);
  scrollToPosition(Math.max(0, c.base - 1));
  if (data.found && c.rows.length) selectRow(rowKey(c.rows[0]), false);
}

/** Puts a row in the run where it sorts, in place of the key's row before. */
function put(key, row) {
  const c = collection;
  const old = c.byKey.get(key);
  if (old) c.rows.splice(position(old), 1);
  c.rows.splice(position(row), 0, row);
  c.byKey.set(key, row);
  return old;
}

/** One changed item: its row as the write left it, or null once deleted (or gone from the index key shown). */
function apply({ partition, sort, row: written }) {
  const c = collection;
  const key = keyOf(partition, sort);
  const row = written && indexed(written);
  const gone = !row || (c.view.index && !c.partitions.includes(row.indexPartition));
  if (gone) {
    const old = c.byKey.get(key);
    if (!old) return;
    c.rows.splice(position(old), 1);
    c.byKey.delete(key);
    c.total = Math.max(0, c.total - 1);
    return;
  }
  if (!c.view.index && !c.partitions.includes(partition)) c.partitions.push(partition); // a shard not listed yet
  if (c.byKey.has(key)) {
    put(key, row);
    return;
  }
  // A row the run does not hold: in it where it sorts inside the run, or at an end the run reaches; beyond, it
  // belongs to rows not loaded (the count still moves: the partition list's counts follow every write).
  if (!c.rows.length) return;
  const inside = compareRows(row, c.rows[0]) > 0 && compareRows(row, c.rows.at(-1)) < 0;
  const atHead = compareRows(row, c.rows[0]) < 0 && c.base === 0;
  const atTail = compareRows(row, c.rows.at(-1)) > 0 && c.atEnd;
  if (inside || atHead || atTail) {
    put(key, row);
    c.total += 1;
  }
}

/** A change for the open view: a row it shows, or a row of its partitions (of its tenant, for a whole tenant). */
function inView(item) {
  const view = collection.view;
  if (!view) return false;
  if (collection.byKey.has(keyOf(item.partition, item.sort))) return true;
  if (!item.row) return false;
  if (view.index) return collection.partitions.includes(item.row.attributes?.[keys.indexPartition]?.S);
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
  const top = Math.floor(topPosition()) - c.base;
  const anchor = viewport.top > 0 ? c.rows[top] : null;
  let selectedChanged = false;
  for (const item of items) {
    c.liveSince?.set(keyOf(item.partition, item.sort), item);
    if (!inView(item)) continue;
    apply(item);
    selectedChanged ||= keyOf(item.partition, item.sort) === c.selected;
  }
  if (anchor && c.byKey.get(rowKey(anchor)) === anchor) scrollToPosition(c.base + position(anchor) + (topPosition() % 1));
  showCollection();
  if (selectedChanged && panelOpen()) showSelected();
  // Which rows this batch applied, for whoever listens (the bulk benchmark times a create's row by it): an event,
  // not a performance mark, so a console left open for days keeps nothing.
  document.dispatchEvent(new CustomEvent('oneread:rows-applied', { detail: { sorts: items.map((i) => i.sort) } }));
}, everyLiveInterval);

/**
 * The partition list's counts, read again after writes: the open view's count follows them (a row created past
 * the rows loaded is counted there, not here).
 */
export function countsChanged(data, filter) {
  const c = collection;
  const view = c.view;
  if (!view || c.reset) return;
  let total = null;
  if (view.index) {
    if (!filter) total = (data.index ?? []).find((g) => g.key === view.index)?.items ?? 0;
  } else {
    const tenant = data.tenants.find((t) => t.tenant === (view.tenant ?? data.tenants.find((x) => x.partitions.some((p) => p.partition === view.partition))?.tenant));
    if (tenant) {
      total = view.partition ? tenant.partitions.find((p) => p.partition === view.partition)?.items ?? 0 : tenant.items;
    } else if (!filter) total = 0;
  }
  if (total !== null && total !== c.total && !data.counting) {
    c.total = total;
    showCollection();
  }
}

function showCollection() {
  const c = collection;
  setText($('#collection-summary'), `${plural(c.total, c.view?.index ? 'entry' : 'item', c.view?.index ? 'entries' : undefined)} in ${plural(c.partitions.length, 'partition')}`);
  renderWindow();
}

/**
 * The rows on screen and a margin, those of the run; the rest of the height is margin above the table and a
 * spacer below it. Then whatever the view needs and the run lacks is fetched.
 */
function renderWindow() {
  const c = collection;
  const { height } = geometry();
  const at = topPosition();
  const top = Math.floor(at);
  const first = Math.max(0, top - MARGIN);
  const last = Math.min(c.total, top + Math.ceil(viewport.height / ROW) + 1 + MARGIN);
  const from = Math.max(first, c.base);
  const to = Math.min(last, c.base + c.rows.length);
  const trs = from < to ? c.rows.slice(from - c.base, to - c.base).map(rowElement) : [];
  // Unscaled, the first row drawn sits at its own place (its position times ROW); scaled, where the view is.
  const marginTop = Math.max(0, viewport.top - (at - (from < to ? from : top)) * ROW);
  setStyle($('#collection'), 'marginTop', `${marginTop}px`);
  setStyle($('#collection-after'), 'height', `${Math.max(0, height - marginTop - trs.length * ROW)}px`);
  reconcile($('#collection tbody'), trs);
  trs.forEach(markRow);
  const scroller = $('#collection-scroll');
  scroller.dataset.loaded = String(c.rows.length);
  scroller.dataset.base = String(c.base);
  scroller.dataset.total = String(c.total);
  const shownFirst = Math.min(c.total, top + 1);
  const shownLast = Math.min(c.total, top + Math.floor(viewport.height / ROW));
  setText($('#collection-position'), c.view
    ? `${formatCount(shownFirst)}–${formatCount(shownLast)} of ${formatCount(c.total)} · ${c.rows.length} in memory`
    : '');
  highlight();
  if (wanted()) syncCollection();
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
    cell(row.indexShard ? `${row.kind} · #${String(row.indexShard).padStart(2, '0')}` : row.kind,
      row.indexPartition ? { 'data-index-partition': row.indexPartition } : {}),
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

export function highlight() {
  const touched = new Set((state.selected?.touched ?? []).map((t) => `${t.partition}\u0000${t.sort ?? ''}`));
  const partitionsOnly = new Set((state.selected?.touched ?? []).filter((t) => !t.sort).map((t) => t.partition));
  // With no request selected (a bulk load's usual case) only the rows still marked are looked at.
  const rows = touched.size ? '#collection tbody tr' : '#collection tbody tr.touched';
  for (const tr of document.querySelectorAll(rows)) {
    const hit = touched.has(`${tr.dataset.partition}\u0000${tr.dataset.sort}`) || partitionsOnly.has(tr.dataset.partition);
    tr.classList.toggle('touched', hit);
  }
}

// ---- The selected item, which the side panel shows (panel.js)

function selectRow(key, open) {
  const c = collection;
  const previous = c.selected;
  c.selected = key;
  const index = c.byKey.has(key) ? c.base + position(c.byKey.get(key)) : -1;
  let scrolled = false;
  if (index >= 0) {
    // Into view: below the sticky header at the top, or as the last row at the bottom.
    const at = topPosition();
    const rows = viewport.height / ROW;
    scrolled = index < at || index + 2 > at + rows;
    if (index < at) scrollToPosition(index);
    else if (scrolled) scrollToPosition(index + 2 - rows);
  }
  // A row in view changes its mark and the previous one's; nothing else is drawn again, so that opening an item
  // while a bulk load arrives costs the panel alone.
  if (scrolled) renderWindow();
  else [previous, key].forEach(markSelected);
  if (open || panelOpen()) showSelected();
}

/** The selection's mark on the row of this key, where its <tr> is made (renderWindow marks each one it shows). */
function markSelected(key) {
  const row = collection.byKey.get(key);
  const tr = row && collection.rendered.get(row);
  if (tr) markRow(tr);
}

/** A drawn row marked selected, or not, as the selection is. */
function markRow(tr) {
  const selected = tr.dataset.key === collection.selected;
  // Written only when it changes: the window marks every row it draws, at every live batch.
  if (tr.getAttribute('aria-selected') === String(selected)) return;
  tr.classList.toggle('selected', selected);
  tr.setAttribute('aria-selected', String(selected));
}

function moveSelection(step) {
  const c = collection;
  if (!c.rows.length) return;
  const current = c.byKey.get(c.selected);
  const index = current ? position(current) + step : Math.floor(topPosition()) - c.base;
  selectRow(rowKey(c.rows[Math.max(0, Math.min(c.rows.length - 1, index))]), false);
}

/** How long typing in the "go to" box pauses before it seeks; Enter seeks at once. */
const FIND_PAUSE_MS = 150;
let findTimer = null;

/** Seeks once typing pauses: a seek a keystroke would move the rows to each prefix on the way ("t", "th", ...). */
function findSoon(text) {
  clearTimeout(findTimer);
  findTimer = setTimeout(() => findRow(text), FIND_PAUSE_MS);
}

/**
 * The "go to" box: the server seeks the first item at or after the id or key typed (a Query conditioned on the
 * sort key, in every partition of the view), and the page there replaces the run; text that is no key (a name)
 * is looked for in the rows loaded.
 */
function findRow(text) {
  if (!text.trim() || !collection.view) return;
  collection.goal = { find: text.trim() };
  syncCollection();
}

/** The first loaded row whose key or name holds the text, selected and scrolled to. */
function findLoaded(text) {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return;
  const row = collection.rows.find((r) => r.sort.toLowerCase().includes(wanted)
    || String(Object.values(r.attributes?.name ?? {})[0] ?? '').toLowerCase().includes(wanted));
  $('#collection-find').classList.toggle('not-found', !row);
  if (row) selectRow(rowKey(row), false);
}

/** The oldest end (the first page) or the newest (the newest projects, read backwards); ULIDs sort by creation. */
function goToEnd(end) {
  if (!collection.view) return;
  collection.goal = { end };
  syncCollection();
}

function showSelected() {
  const [partition, sort] = (collection.selected ?? '\u0000').split('\u0000');
  showItem(partition, sort, collection.byKey.get(collection.selected));
}

/** A `changed` event without rows: only a write to what is on screen fetches it again. */
export function changedElsewhere(partitions, tenants) {
  // A partition shown, or for a whole tenant, that tenant (whose write may be to a shard not shown yet). Writes
  // elsewhere leave the open collection alone.
  const view = collection.view;
  if (view && (view.index || partitions.some((p) => collection.partitions.includes(p))
    || (!view.partition && tenants.includes(view.tenant)))) {
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
    const ends = { Home: 'oldest', End: 'newest' };
    if (steps[e.key]) moveSelection(steps[e.key]);
    else if (ends[e.key]) goToEnd(ends[e.key]);
    else if (e.key === 'Enter' && collection.selected) selectRow(collection.selected, true);
    else if (e.key === 'Escape') closePanel();
    else return;
    e.preventDefault();
  });
  startPanel();
  $('#collection-find').addEventListener('input', (e) => findSoon(e.target.value));
  $('#collection-find').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    clearTimeout(findTimer);
    findRow(e.target.value);
  });
  $('#collection-oldest').addEventListener('click', () => goToEnd('oldest'));
  $('#collection-newest').addEventListener('click', () => goToEnd('newest'));
}
