// The left pane: the table's item collections by tenant, each with its shards, and the index's keys. A tenant or a
// shard opens its collection (collection.js); an index key (a status) opens as one collection over all its shards,
// merged by index sort key (collection.js); one index partition opens as a query in the table tools (tools.js).

import { call } from './api.js';
import { countsChanged, openCollection } from './collection.js';
import { $, el, formatBytes, plural, visible } from './dom.js';
import { coalesce } from './schedule.js';
import { showError } from './status.js';

async function loadPartitions() {
  const filter = $('#filter').value.trim();
  const data = await call(`partitions?filter=${encodeURIComponent(filter)}`);
  // While the table is counted (in the background, at start and on Rescan), the counts are those so far.
  const counting = data.counting ? ` · counting… ${plural(data.counting.items, 'item')} so far` : '';
  $('#table-name').textContent = visible(`table ${data.table}${counting}`);
  if (data.counting) setTimeout(refreshPartitionsSoon, 1000);
  const list = $('#partitions');
  const refocus = keepFocus($('#partitions-pane'));
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
  // The secondary index's keys, in their own group, each once: its name opens all its shards as one collection,
  // its shards are folded under it. Under a workspace filter, the entries of that workspace's projects.
  const index = $('#index-partitions');
  index.replaceChildren(...(data.index ?? []).map((group) => el('li', { class: 'index-key', 'data-key': group.key },
    indexKeyButton(group.key),
    el('span', { class: 'muted' }, ` ${plural(group.items, 'entry', 'entries')} · ${plural(group.partitions.length, 'shard')}`),
    el('details', { open: openIndexKeys.has(group.key) }, el('summary', {}, 'shards'),
      el('ul', { class: 'shards' }, ...group.partitions.map((p) =>
        el('li', {}, el('button', { type: 'button', class: 'index-partition', 'data-partition': p.partition,
          title: 'open this index partition as a query' }, p.partition), el('span', { class: 'muted' }, ` ${p.items}`))))))));
  if (!(data.index ?? []).length) {
    index.append(el('li', { class: 'muted empty' }, filter
      ? `No index entries for a workspace id that contains "${filter}".`
      : 'No index entries: projects appear here by status.'));
  }
  refocus();
  countsChanged(data, filter);
}

function indexKeyButton(key) {
  const button = el('button', { type: 'button', class: 'index-key-open', 'data-key': key,
    title: 'open every shard of this key as one collection, by index sort key' }, el('strong', {}, key));
  button.addEventListener('click', () => openCollection({ index: key }));
  return button;
}

/**
 * The button focused in `pane`, by its data attribute, to focus again once the lists are rendered anew: a refresh
 * (every 500 ms under writes) would otherwise take a keyboard user's place away with the node that held it.
 */
function keepFocus(pane) {
  const focused = pane.contains(document.activeElement) ? document.activeElement : null;
  const name = ['data-tenant', 'data-partition', 'data-key'].find((a) => focused?.hasAttribute(a));
  if (!name) return () => {};
  const selector = `button.${focused.classList[0]}[${name}="${CSS.escape(focused.getAttribute(name))}"]`;
  return () => { if (!pane.contains(document.activeElement)) pane.querySelector(selector)?.focus(); };
}

/** The keys ({@code attribute}) of the {@code selector} items in {@code list} whose shard list is open. */
function openKeys(list, selector, attribute) {
  return new Set([...list.querySelectorAll(`${selector}:has(> details[open])`)].map((li) => li.getAttribute(attribute)));
}

/** The partition list, read again at most every 500 ms and one read at a time, however fast writes or keys come. */
export const refreshPartitionsSoon = coalesce(loadPartitions, (run) => setTimeout(run, 500));

export function startPartitions() {
  $('#filter').addEventListener('input', refreshPartitionsSoon);
  $('#rescan').addEventListener('click', () => call('rescan', { method: 'POST' }).catch(showError));
  loadPartitions().catch(showError);
}
