// The Data tab's request log: every request with its DynamoDB calls and their cost against the budget, filtered by
// route, status class and tenant; the selected request's writes are highlighted in the open collection.

import { call } from './api.js';
import { highlight } from './collection.js';
import { $, el, plural, reconcile } from './dom.js';
import { renderDiff, state } from './log.js';
import { roving } from './roving.js';
import { coalesce, everyLiveInterval, nextFrame } from './schedule.js';
import { showError } from './status.js';

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
  item.setAttribute('role', 'option');
  item.setAttribute('aria-selected', String(entry === state.selected));
  if (entry === state.selected) item.classList.add('selected');
  entryOf.set(item, entry);
  return item;
}

/** Each entry's <li> to its request: the list's clicks and keys find the entry from the element. */
const entryOf = new WeakMap();
/** Each request's <li>, made once: an entry listed again (a filter cleared, the list grown) is the same element. */
const itemOf = new WeakMap();

function itemFor(entry) {
  let item = itemOf.get(entry);
  if (!item) {
    item = renderRequest(entry);
    itemOf.set(entry, item);
  }
  return item;
}

// ---- Log filters: route, status class, tenant; applied to the entries, so a live request is filtered as it comes in

function knowRoute(route) {
  if (!route || [...$('#log-route').options].some((o) => o.value === route)) return;
  $('#log-route').append(el('option', { value: route }, route));
}

/** The filters as chosen now: whether an entry passes them. */
function logFilter() {
  const route = $('#log-route').value;
  const status = $('#log-status').value;
  const tenant = $('#log-tenant').value.trim();
  return (entry) => (!route || (entry.route ?? '') === route)
    && (!status || String(entry.status)[0] === status)
    && (!tenant || (entry.workspace ?? '') === tenant);
}

/** Entries the page keeps for the item panel's history: as many as the server's log (RequestLog.CAPACITY). */
const LOG_ENTRIES = 2000;

/**
 * Entries the list holds while its top is in view: more than a 2,160 px screen shows (about 70), few enough that a
 * live batch restyles and lays out a short list. Scrolling toward the list's end adds LOG_STEP more at a time, up to
 * LOG_ROWS; back at the top it is short again. Off-screen entries were skipped by content-visibility before, which
 * cost every batch a second style and layout pass as entries moved in and out of its margin.
 */
const LOG_FIRST = 100;
const LOG_STEP = 100;
const LOG_ROWS = 500;
let listed = LOG_FIRST;
/** The pane scrolled less than this (about an entry) is at its top, where the live entries arrive. */
const LOG_TOP_PX = 24;

export function addRequest(entry) {
  state.requests.unshift(entry);
  if (state.requests.length > LOG_ENTRIES) state.requests.length = LOG_ENTRIES;
  knowRoute(entry.route);
  showArrived();
}

/** The list drawn again: the newest `listed` entries that pass the filters, the elements already listed kept. */
function drawLog() {
  const passes = logFilter();
  const wanted = [];
  for (const entry of state.requests) {
    if (wanted.length === listed) break;
    if (passes(entry)) wanted.push(itemFor(entry));
  }
  reconcile($('#requests'), wanted);
  showRequestsEmpty();
}

/** The requests arrived since the last draw, drawn together: a burst costs one change to the list, not one each. */
const showArrived = coalesce(drawLog, everyLiveInterval);

/** The list's length follows the scroll: LOG_FIRST again at its top, LOG_STEP more within two screens of its end. */
function fitLogToScroll() {
  const pane = $('#log-pane');
  const atTop = pane.scrollTop < LOG_TOP_PX;
  const nearEnd = pane.scrollTop + 2 * pane.clientHeight >= pane.scrollHeight;
  const wanted = atTop ? LOG_FIRST : nearEnd ? Math.min(LOG_ROWS, listed + LOG_STEP) : listed;
  if (wanted === listed) return;
  listed = wanted;
  drawLog();
}

/** The log's empty state says how to fill it. */
function showRequestsEmpty() {
  const empty = $('#requests').children.length === 0;
  if ($('#requests-empty').hidden === empty) $('#requests-empty').hidden = !empty;
}

function select(entry) {
  const previous = state.selected;
  state.selected = entry;
  // The two entries whose mark changes, listed now or not: an element listed again later keeps its mark.
  for (const changed of [previous, entry]) {
    const item = changed && itemOf.get(changed);
    if (!item) continue;
    item.classList.toggle('selected', changed === entry);
    item.setAttribute('aria-selected', String(changed === entry));
  }
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

async function loadRequests() {
  const data = await call('requests');
  state.requests = data.requests;
  for (const entry of data.requests) knowRoute(entry.route);
  drawLog();
}

/** The log emptied (its Clear button, or another page's): the list, the detail and the history go with it. */
export function clearRequests() {
  state.requests = [];
  $('#requests').replaceChildren();
  $('#request-detail').hidden = true;
  showRequestsEmpty();
}

export function startRequests() {
  // A listbox, one Tab stop: the arrow keys move among the entries, Enter or Space (or a click) opens one's detail.
  const open = (li) => select(entryOf.get(li));
  roving($('#requests'), 'li.request', open);
  $('#requests').addEventListener('click', (e) => {
    const li = e.target.closest('li.request');
    if (li) open(li);
  });
  for (const id of ['#log-route', '#log-status']) $(id).addEventListener('change', drawLog);
  $('#log-tenant').addEventListener('input', drawLog);
  $('#log-pane').addEventListener('scroll', coalesce(fitLogToScroll, nextFrame), { passive: true });
  $('#clear-log').addEventListener('click', () => call('requests', { method: 'DELETE' }).catch(showError));
  loadRequests().catch(showError);
}
