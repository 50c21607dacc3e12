// The Heat tab: Contributor Insights, per second and by tenant.
//
// The server pushes one `heat` frame a second (already cut to its top groups, each with its hottest partitions); the
// page keeps only the latest and draws it at most once per animation frame, so a burst of frames (a reconnect, a
// slow tab) costs one render.

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

/** Draws the latest frame: the tab, hidden while frames came, shows what is current when it opens. */
export function redrawHeat() {
  renderHeat(heat.frame);
}

export function startHeat() {
  call(`heat?top=${HEAT_ROWS}`).then((frame) => { if (!heat.frame) showHeat(frame); }).catch(showError);
}
