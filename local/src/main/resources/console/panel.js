// The Data tab's side panel: the selected item of the open collection, as DynamoDB JSON and as JSON, and its writes
// from the request log. The collection view says which item is selected and hands over its row; the panel never
// reads the collection itself (it imports nothing of collection.js).

import { $, el, visible } from './dom.js';
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

export function panelOpen() {
  return !$('#item-panel').hidden;
}

export function closePanel() {
  $('#item-panel').hidden = true;
}

/** Shows the item of this key in the panel: `row` as the collection holds it, or null once deleted. */
export function showItem(partition, sort, row) {
  const panel = $('#item-panel');
  panel.hidden = false;
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

/** The close button: the panel hides, and the focus goes back to the rows it was opened from. */
export function startPanel() {
  $('#item-close').addEventListener('click', () => { closePanel(); $('#collection-scroll').focus(); });
}
