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

const state = {
  view: null, // {tenant} or {partition}
  viewPartitions: [],
  selected: null, // the selected request's entry
  requests: [],
};

// ---- Partitions -------------------------------------------------------------------------------------------

async function loadPartitions() {
  const filter = $('#filter').value.trim();
  const data = await call(`partitions?filter=${encodeURIComponent(filter)}`);
  $('#table-name').textContent = visible(`table ${data.table}`);
  const list = $('#partitions');
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
      item.append(el('details', {}, el('summary', {}, plural(tenant.partitions.length, 'partition')), shards));
    }
    list.append(item);
  }
  if (!data.tenants.length) list.append(el('li', { class: 'muted' }, 'no item collections'));
  // The secondary index's partitions, in their own group: each key with its shards folded under it.
  const index = $('#index-partitions');
  index.replaceChildren(...(data.index ?? []).map((group) => el('li', { class: 'index-key', 'data-key': group.key },
    el('strong', {}, group.key),
    el('span', { class: 'muted' }, ` ${plural(group.items, 'entry', 'entries')} · ${plural(group.partitions.length, 'shard')}`),
    el('details', {}, el('summary', {}, 'shards'),
      el('ul', { class: 'shards' }, ...group.partitions.map((p) =>
        el('li', {}, el('button', { type: 'button', class: 'index-partition', 'data-partition': p.partition,
          title: 'open this index partition as a query' }, p.partition), el('span', { class: 'muted' }, ` ${p.items}`))))))));
  if (!(data.index ?? []).length) index.append(el('li', { class: 'muted' }, 'no index entries'));
}

/** "1 entry", "2 entries": every count on the page goes through here. */
function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

function formatBytes(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

// ---- Collection -------------------------------------------------------------------------------------------

async function openCollection(view, offset = 0) {
  state.view = view;
  const query = view.partition ? `partition=${encodeURIComponent(view.partition)}` : `tenant=${encodeURIComponent(view.tenant)}`;
  const data = await call(`collection?${query}&offset=${offset}&limit=${PAGE}`);
  state.viewPartitions = data.partitions;
  $('#collection-title').textContent = visible(view.partition ?? view.tenant);
  $('#collection-title').dataset.view = view.partition ?? view.tenant;
  $('#collection-summary').textContent =
    `${plural(data.total, 'item')} in ${plural(data.partitions.length, 'partition')}`;
  const body = $('#collection tbody');
  const rows = data.rows.map(renderRow);
  body.replaceChildren(...rows);
  const more = $('#collection-more');
  more.replaceChildren();
  if (offset + data.rows.length < data.total) {
    const next = el('button', {}, `next ${plural(Math.min(PAGE, data.total - offset - data.rows.length), 'item')}`);
    next.addEventListener('click', () => openCollection(view, offset + data.rows.length));
    more.append(next);
  }
  if (offset > 0) {
    const previous = el('button', {}, 'previous page');
    previous.addEventListener('click', () => openCollection(view, Math.max(0, offset - PAGE)));
    more.prepend(previous);
  }
  highlight();
}

function renderRow(row) {
  const attributes = el('code', {}, compact(row.attributes));
  return el('tr', { class: `kind-${row.kind}`, 'data-partition': row.partition, 'data-sort': row.sort, 'data-kind': row.kind },
    el('td', {}, row.partition),
    el('td', {}, row.sort),
    el('td', {}, row.kind),
    el('td', {}, row.createdAt ?? ''),
    el('td', { class: 'number' }, String(row.size)),
    el('td', { class: 'attributes' }, attributes));
}

/** An item's attributes without the type wrappers, for reading at a glance. */
function compact(attributes) {
  const plain = (v) => {
    const [type, value] = Object.entries(v)[0];
    if (type === 'M') return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, plain(x)]));
    if (type === 'L') return value.map(plain);
    if (type === 'N') return Number(value);
    return value;
  };
  return Object.entries(attributes).map(([k, v]) => `${k}: ${JSON.stringify(plain(v))}`).join('  ');
}

function highlight() {
  const touched = new Set((state.selected?.touched ?? []).map((t) => `${t.partition}\u0000${t.sort ?? ''}`));
  const partitionsOnly = new Set((state.selected?.touched ?? []).filter((t) => !t.sort).map((t) => t.partition));
  for (const tr of document.querySelectorAll('#collection tbody tr')) {
    const hit = touched.has(`${tr.dataset.partition}\u0000${tr.dataset.sort}`) || partitionsOnly.has(tr.dataset.partition);
    tr.classList.toggle('touched', hit);
  }
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
    el('span', { class: `status s${String(entry.status)[0]}` }, String(entry.status)),
    el('span', { class: 'method' }, entry.method),
    el('span', { class: 'path' }, entry.path),
    el('span', { class: 'muted' }, ` ${entry.function ?? ''} · ${entry.durationMs ?? ''} ms`),
    el('span', { class: 'cost', title: 'calls and capacity units, as the X-Dynamo-* headers say' },
      `${totals.calls} call${totals.calls === 1 ? '' : 's'} · ${totals.capacity} CU`),
    over ? el('span', { class: 'flag' }, `over budget: ${over}`) : null,
    entry.problem ? el('span', { class: 'problem' }, ` ${entry.problem.title ?? ''}`) : null);
  item.addEventListener('click', () => select(entry));
  knowRoute(entry.route);
  item.hidden = !shown(item);
  return item;
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

function addRequest(entry) {
  state.requests.unshift(entry);
  $('#requests').prepend(renderRequest(entry));
  while ($('#requests').children.length > 500) $('#requests').lastElementChild.remove();
}

function select(entry) {
  state.selected = entry;
  for (const li of document.querySelectorAll('#requests li')) li.classList.toggle('selected', li.dataset.id === String(entry.id));
  const detail = $('#request-detail');
  detail.hidden = false;
  detail.replaceChildren(
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
    ...(entry.writes ?? []).map(renderDiff));
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
  $('#requests').replaceChildren(...data.requests.slice(0, 500).map(renderRequest));
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
    renderHeat(heat.frame);
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
  for (const tab of document.querySelectorAll('#tabs .tab')) tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
  for (const pane of document.querySelectorAll('[data-pane]')) pane.hidden = pane.dataset.pane !== name;
  document.body.dataset.tab = name;
  if (name === 'heat') renderHeat(heat.frame);
}

// ---- Live updates -----------------------------------------------------------------------------------------

let partitionsTimer = null;
function refreshPartitionsSoon() {
  clearTimeout(partitionsTimer);
  partitionsTimer = setTimeout(() => loadPartitions().catch(showError), 100);
}

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
  events.addEventListener('open', showConnection);
  events.addEventListener('error', () => { $('#status').textContent = 'reconnecting…'; });
  events.addEventListener('request', (e) => addRequest(JSON.parse(e.data)));
  events.addEventListener('cleared', () => { state.requests = []; $('#requests').replaceChildren(); $('#request-detail').hidden = true; });
  events.addEventListener('changed', (e) => {
    const { partitions, tenants } = JSON.parse(e.data);
    refreshPartitionsSoon();
    // Only a write to what is on screen reloads it: a partition shown, or for a whole tenant, that tenant (whose
    // write may be to a shard not shown yet). Writes to other workspaces leave the open collection alone.
    const shown = partitions.some((p) => state.viewPartitions.includes(p))
      || (!state.view?.partition && tenants.includes(state.view?.tenant));
    if (state.view && shown) {
      openCollection(state.view).catch(showError);
    }
  });
  events.addEventListener('heat', (e) => showHeat(JSON.parse(e.data)));
  events.addEventListener('reloaded', () => {
    refreshPartitionsSoon();
    if (state.view) openCollection(state.view).catch(showError);
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
  $('#pattern').addEventListener('change', showPatternFields);
  // The snippets shown follow the toggle at once; running a query is left to the Run button.
  $('#deployed').addEventListener('change', () => { if ($('#expr-cli').textContent) build(false); });
  $('#builder-form').addEventListener('submit', (e) => { e.preventDefault(); build(false); });
  $('#run').addEventListener('click', () => build(true));
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', () => copy(button));
  }
  for (const tab of document.querySelectorAll('#tabs .tab')) tab.addEventListener('click', () => showTab(tab.dataset.tab));
  showPatternFields();
  call(`heat?top=${HEAT_ROWS}`).then((frame) => { if (!heat.frame) showHeat(frame); }).catch(showError);
  loadPartitions().catch(showError);
  loadRequests().catch(showError);
  connect();
});
