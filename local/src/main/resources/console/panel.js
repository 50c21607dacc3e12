// The Data tab's side panel: the selected item of the open collection, as DynamoDB JSON and as JSON, and its writes
// from the request log; and an editor of that item, where it is read. The collection view says which item is
// selected and hands over its row; the panel never reads the collection itself (it imports nothing of collection.js).
//
// The editor writes through the console's checked endpoints (item/edit, item/duplicate, item/delete), the ones the
// Table tools' item form uses: the same checks and refusals, an edit and a delete conditional on the version the
// panel showed. Opening the panel costs no request: the row the collection holds is the item as last written.

import { $, el, visible } from './dom.js';
import { itemAction, parseAttributes } from './items.js';
import { keys } from './keys.js';
import { renderDiff, state } from './log.js';

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

/** JSON with one attribute a line, each value on its line whole: an item reads at a glance, and parses back. */
function attributePerLine(item) {
  const lines = Object.entries(item).map(([name, value]) => `  ${JSON.stringify(name)}: ${JSON.stringify(value)}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/**
 * What the panel shows: the item's key and row (null once deleted); while the editor is open, the version it was
 * opened at, and the item selected meanwhile, shown once the editor closes (an edit is never dropped by a click).
 */
const panel = { partition: null, sort: null, row: null, editing: null, waiting: null };

const versionOf = (row) => row?.attributes?.version?.N ?? null;
/** A version for the server's form: none (left out) when the item has none, which the server then names. */
const versionField = (version) => (version == null ? undefined : Number(version));

export function panelOpen() {
  return !$('#item-panel').hidden;
}

export function closePanel() {
  closeEditor();
  panel.waiting = null;
  $('#item-panel').hidden = true;
}

/**
 * Shows the item of this key in the panel: `row` as the collection holds it, or null once deleted. While the
 * editor is open on another item, that one stays and this one waits; on the same item, the editor keeps what is
 * typed and says when the item changed since.
 */
export function showItem(partition, sort, row) {
  if (panel.editing && (partition !== panel.partition || sort !== panel.sort)) {
    panel.waiting = { partition, sort, row };
    return;
  }
  if (!panelOpen() || partition !== panel.partition || sort !== panel.sort) showResult(null);
  $('#item-panel').hidden = false;
  Object.assign(panel, { partition, sort, row });
  $('#item-title').textContent = visible(`${partition} / ${sort}`);
  const version = versionOf(row);
  $('#panel-version').textContent = row ? (version ? `version ${version}` : 'no version') : 'deleted';
  $('#panel-version').dataset.version = version ?? '';
  for (const id of ['#panel-edit', '#panel-duplicate', '#panel-delete']) $(id).disabled = !row;
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
  if (panel.editing) showStale();
}

// ---- The editor ---------------------------------------------------------------------------------------------

/** The outcome of an action, with its HTTP status: a refusal reads as plainly as a success, the server's words. */
function showResult(status, text = '') {
  const result = $('#panel-result');
  if (status == null) delete result.dataset.status;
  else result.dataset.status = String(status);
  result.className = status >= 400 ? 'error' : 'muted';
  result.textContent = visible(text);
}

/** One of the console's item actions, its outcome in the panel; the response, or null once its refusal is shown. */
const act = (action, body, done) => itemAction(action, body, done, showResult);

/** The editor on the item shown: its attributes in DynamoDB JSON, the key left out, at the version shown. */
function openEditor() {
  if (!panel.row) return;
  cancelDelete();
  panel.editing = { version: versionOf(panel.row) };
  $('#panel-attributes').value = JSON.stringify(panel.row.attributes, null, 2);
  $('#panel-editor-version').textContent = panel.editing.version ?? '(none)';
  $('#panel-view').hidden = true;
  $('#panel-actions').hidden = true;
  $('#panel-editor').hidden = false;
  showStale();
  showResult(null);
  const text = $('#panel-attributes');
  text.focus();
  text.setSelectionRange(0, 0); // the item read from its top
  text.scrollTop = 0;
}

/** Closes the editor without writing; the item selected meanwhile, if any, is shown then. */
function closeEditor() {
  if (!panel.editing) return;
  panel.editing = null;
  $('#panel-editor').hidden = true;
  $('#panel-view').hidden = false;
  $('#panel-actions').hidden = false;
  const waiting = panel.waiting;
  panel.waiting = null;
  if (waiting) showItem(waiting.partition, waiting.sort, waiting.row);
}

/** Says, while editing, that the item was written since the editor opened: the save will be refused. */
function showStale() {
  const note = $('#panel-stale');
  const now = versionOf(panel.row);
  const stale = panel.editing && (!panel.row || now !== panel.editing.version);
  note.hidden = !stale;
  if (stale) {
    note.textContent = panel.row
      ? `Written since you opened the editor: now at version ${now}. A save at version ${panel.editing.version} will be refused; cancel and edit again to start from it.`
      : 'Deleted since you opened the editor: a save will be refused.';
  }
}

async function save() {
  const attributes = parseAttributes($('#panel-attributes').value, showResult);
  if (attributes === undefined) return;
  const { partition, sort } = panel;
  const saved = await act('edit', { partition, sort, version: versionField(panel.editing?.version), attributes },
    (r) => `saved ${r.partition} / ${r.sort} at version ${r.version}`);
  if (saved && panel.editing && partition === panel.partition && sort === panel.sort) {
    closeEditor();
    $('#panel-edit').focus();
  }
}

function duplicate() {
  return act('duplicate', { partition: panel.partition, sort: panel.sort }, (r) => `duplicated as ${r.partition} / ${r.sort}`);
}

/** A delete asks once more, in the panel (not a dialog that blocks the page), its confirm button focused. */
function askDelete() {
  if (!panel.row) return;
  $('#panel-confirm-text').textContent = visible(`Delete ${panel.partition} / ${panel.sort} at version ${versionOf(panel.row) ?? '(none)'}?`);
  $('#panel-confirm').hidden = false;
  $('#panel-delete-confirm').focus();
}

/** True when a delete was waiting for its confirmation, now dropped. */
function cancelDelete() {
  const asked = !$('#panel-confirm').hidden;
  $('#panel-confirm').hidden = true;
  return asked;
}

async function confirmDelete() {
  cancelDelete();
  const { partition, sort } = panel;
  await act('delete', { partition, sort, version: versionField(versionOf(panel.row)) }, (r) => `deleted ${r.partition} / ${r.sort}`);
  $('#item-close').focus();
}

/**
 * Escape steps back one level from anywhere in the panel: a delete waiting for its confirmation is dropped, an open
 * editor is closed without saving, else the panel closes and the focus goes back to the rows.
 */
function escape(e) {
  if (e.key !== 'Escape') return;
  if (cancelDelete()) $('#panel-delete').focus();
  else if (panel.editing) {
    closeEditor();
    $('#panel-edit').focus();
  } else {
    closePanel();
    $('#collection-scroll').focus();
  }
  e.preventDefault();
  e.stopPropagation();
}

export function startPanel() {
  $('#item-close').addEventListener('click', () => { closePanel(); $('#collection-scroll').focus(); });
  $('#panel-edit').addEventListener('click', openEditor);
  $('#panel-duplicate').addEventListener('click', duplicate);
  $('#panel-delete').addEventListener('click', askDelete);
  $('#panel-delete-confirm').addEventListener('click', confirmDelete);
  $('#panel-delete-cancel').addEventListener('click', () => { cancelDelete(); $('#panel-delete').focus(); });
  $('#panel-editor').addEventListener('submit', (e) => { e.preventDefault(); save(); });
  $('#panel-cancel').addEventListener('click', () => { closeEditor(); $('#panel-edit').focus(); });
  $('#item-panel').addEventListener('keydown', escape);
}
