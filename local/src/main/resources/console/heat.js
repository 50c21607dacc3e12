// The Heat tab: Contributor Insights, per second and by tenant, with the last five minutes.
//
// The server pushes one `heat` frame a second (already cut to its top groups, each with its hottest partitions, and
// the five-minute history of its top groups, kept server-side so that a page opened after a burst still draws it);
// the page keeps only the latest and draws it at most once per animation frame, so a burst of frames (a reconnect, a
// slow tab) costs one render.
//
// Each figure is shown twice: units accepted (consumed, as Contributor Insights' "most accessed" counts them) and
// units offered (accepted plus what the throttled requests would have consumed), each against the partition's limit:
// a key asked for 143 units a second against a limit of 100 reads "offered 143%", even though at most 100% is served.

import { call } from './api.js';
import { $, el, plural, visible } from './dom.js';
import { showError } from './status.js';

/** Groups drawn per list, and partitions per group: the server sends at most 10 of each; this is the page's cap. */
const HEAT_ROWS = 10;
const HEAT_PARTITIONS = 10;
const heat = { frame: null, pending: false, open: new Set() };

export function showHeat(frame) {
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
    $('#heat-history').replaceChildren();
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
  renderHistory(frame.history);
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
      bar('read', g.readUnits, g.hottestReadPercent, g.offeredReadUnits, g.hottestOfferedReadPercent, 'RCU/s', 'hottest partition'),
      bar('write', g.writeUnits, g.hottestWritePercent, g.offeredWriteUnits, g.hottestOfferedWritePercent, 'WCU/s', 'hottest partition')),
    throttles(g.throttles, g.throttledTotal),
    details);
}

function renderHeatPartition(p) {
  return el('li', { class: 'heat-partition', 'data-partition': p.key, 'data-shard': String(p.shard) },
    el('code', {}, p.shard > 0 ? `#${String(p.shard).padStart(2, '0')} ${p.key}` : p.key),
    el('div', { class: 'heat-bars' },
      bar('read', p.readUnits, p.readPercent, p.offeredReadUnits, p.offeredReadPercent, 'RCU/s', 'of the partition limit'),
      bar('write', p.writeUnits, p.writePercent, p.offeredWriteUnits, p.offeredWritePercent, 'WCU/s', 'of the partition limit')),
    throttles(p.throttles, p.throttledTotal));
}

/**
 * Units per second against the limit: the fill is the accepted share, the outline behind it the offered share (both
 * full at 100%); the bar turns red when what is offered reaches the limit. The label says both percents.
 */
function bar(unit, units, percent, offeredUnits, offeredPercent, label, of) {
  const share = percent == null ? null : Math.max(0, percent);
  const offered = offeredPercent == null ? share : Math.max(0, offeredPercent);
  const fill = el('span', { class: 'heat-fill' });
  fill.style.width = `${share == null ? 0 : Math.min(100, share)}%`;
  const ask = el('span', { class: 'heat-offered' });
  ask.style.width = `${offered == null ? 0 : Math.min(100, offered)}%`;
  const text = share == null ? `${units} ${label}`
    : offered > share ? `${units} ${label} · offered ${offered}% · accepted ${share}%` : `${units} ${label} · ${share}%`;
  return el('span', {
    class: `heat-bar heat-${unit}${offered != null && offered >= 100 ? ' over' : offered != null && offered >= 80 ? ' near' : ''}`,
    'data-unit': unit,
    'data-percent': share == null ? '' : String(share),
    'data-offered-percent': offered == null ? '' : String(offered),
    'data-offered-units': String(offeredUnits ?? units),
    title: share == null ? 'the engine enforces no limit'
      : `offered ${offered}% ${of} (${offeredUnits ?? units} ${label} asked), accepted ${share}%`,
  },
  el('span', { class: 'heat-track' }, ask, fill),
  el('span', { class: 'heat-value' }, text));
}

// ---- The last five minutes: one sparkline per group, offered against accepted, with its throttles

const SVG = 'http://www.w3.org/2000/svg';
const SPARK = { width: 300, height: 36 };
/** The least top of a sparkline's scale, in percent of the limit: the 100% line stays below the top. */
const LIMIT_HEADROOM = 120;

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function renderHistory(history) {
  const list = $('#heat-history');
  const groups = history?.groups ?? [];
  $('#heat-history-span').textContent = history?.points ? `(${plural(history.points, 'second')} kept, one point a second)` : '';
  if (!groups.length) {
    list.replaceChildren(el('li', { class: 'muted heat-empty' }, 'nothing read, written or throttled in the last 5 minutes'));
    return;
  }
  list.replaceChildren(...groups.map((g) => renderHistoryGroup(g, history.seconds, history.unit)));
}

function renderHistoryGroup(g, seconds, unit) {
  const attributes = {
    class: `heat-history-group kind-${g.kind}${g.throttled > 0 ? ' throttled' : ''}`,
    'data-kind': g.kind,
    'data-points': String(g.offered.length),
    'data-throttled': String(g.throttled),
    'data-peak-offered-percent': g.peakOfferedPercent == null ? '' : String(g.peakOfferedPercent),
    'data-accepted-percent-at-peak': g.acceptedPercentAtPeak == null ? '' : String(g.acceptedPercentAtPeak),
  };
  if (g.kind === 'tenant') attributes['data-tenant'] = g.name;
  else attributes['data-key'] = g.name;
  if (g.index) attributes['data-index'] = g.index;
  const peak = g.peakOfferedPercent == null ? 'no limit enforced'
    : `peak offered ${g.peakOfferedPercent}% · accepted ${g.acceptedPercentAtPeak}% of a partition's limit`;
  return el('li', attributes,
    el('div', { class: 'heat-head' },
      el('strong', { class: 'heat-name' }, g.name),
      g.index ? el('span', { class: 'muted' }, ` index ${g.index}`) : null,
      el('span', { class: `heat-peak${g.peakOfferedPercent > 100 ? ' over' : ''}` }, peak),
      el('span', { class: 'muted heat-requests' }, plural(g.throttled, 'throttle'))),
    sparkline(g, seconds, unit));
}

/**
 * Offered (a line) against accepted (a filled area under it), a second each, and a tick for each second with
 * throttles, over the window, newest at the right. As shares of the hottest partition's limit, with the limit
 * dashed (the scale reaches at least 120%, so a key over it is seen over the line); in units a second, scaled to
 * the group's own peak, when the engine enforces no limit.
 */
function sparkline(g, seconds, unit) {
  const n = g.offered.length;
  const percent = unit === 'percent';
  const top = Math.max(percent ? LIMIT_HEADROOM : 1, ...g.offered, ...g.accepted);
  const x = (i) => ((seconds - n + i + 1) / seconds) * SPARK.width;
  const y = (v) => SPARK.height - (v / top) * (SPARK.height - 2);
  const line = (values) => values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const start = x(0).toFixed(1);
  const ticks = g.throttles.flatMap((t, i) => (t > 0 ? [svg('rect', { class: 'spark-throttle', x: x(i).toFixed(1), y: 0, width: 1, height: 4 })] : []));
  return svg('svg', {
    class: 'heat-spark', viewBox: `0 0 ${SPARK.width} ${SPARK.height}`, preserveAspectRatio: 'none',
    role: 'img',
    'aria-label': `${g.name}: offered and accepted a second over the last ${seconds} seconds, ${percent ? 'as shares of the limit' : 'in units'}`,
  },
  svg('polygon', { class: 'spark-accepted', points: `${start},${SPARK.height} ${line(g.accepted)} ${x(n - 1).toFixed(1)},${SPARK.height}` }),
  ...(percent ? [svg('line', { class: 'spark-limit', x1: 0, x2: SPARK.width, y1: y(100).toFixed(1), y2: y(100).toFixed(1) })] : []),
  svg('polyline', { class: 'spark-offered', points: line(g.offered) }),
  ...ticks);
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

/** Draws the latest frame: the tab, hidden while frames came, shows what is current when it opens. */
export function redrawHeat() {
  renderHeat(heat.frame);
}

export function startHeat() {
  call(`heat?top=${HEAT_ROWS}`).then((frame) => { if (!heat.frame) showHeat(frame); }).catch(showError);
}
