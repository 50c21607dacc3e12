// The oneread local console's entry: it starts each view and feeds them the server's live events. Everything it
// shows is data from the console's own JSON endpoints, rendered as text (dom.js).
//
// One module per view (partitions, collection, requests, builder, heat, tools), above the helpers they share (dom,
// api, keys, schedule, status, log, roving, keyboard); no module imports this one, and no import cycle joins them
// (ConsoleModulesTest).

import { api, call } from './api.js';
import { loadPatterns, startBuilder } from './builder.js';
import { changedElsewhere, queueChanges, reloadCollection, startCollection } from './collection.js';
import { $, visible } from './dom.js';
import { showHeat, startHeat } from './heat.js';
import { startKeyboard } from './keyboard.js';
import { loadKeys } from './keys.js';
import { refreshPartitionsSoon, startPartitions } from './partitions.js';
import { addRequest, clearRequests, startRequests } from './requests.js';
import { showConnection, showError, watch } from './status.js';
import { startTabs } from './tabs.js';
import './tools.js';

function connect() {
  const events = new EventSource(api('events'));
  watch(events);
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
  events.addEventListener('cleared', clearRequests);
  events.addEventListener('changed', (e) => {
    const { partitions, tenants, items } = JSON.parse(e.data);
    refreshPartitionsSoon();
    if (items) queueChanges(items);
    else changedElsewhere(partitions, tenants);
  });
  events.addEventListener('heat', (e) => showHeat(JSON.parse(e.data)));
  events.addEventListener('reloaded', () => {
    refreshPartitionsSoon();
    reloadCollection();
  });
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

/** The header's fixture import: the file's items through the console's checks, each refusal in the status's title. */
async function importFixtures(e) {
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
}

function start() {
  $('#import-fixtures').addEventListener('change', importFixtures);
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', () => copy(button));
  }
  startTabs();
  startCollection();
  startBuilder();
  startHeat();
  startPartitions();
  startRequests();
  startKeyboard();
  connect();
}

// The key attribute names first (the views show items under them), and the builder's access patterns.
document.addEventListener('DOMContentLoaded', () => Promise.all([loadKeys(), loadPatterns()]).then(start).catch(showError));
