// The table's key attribute names, as the server's key codec declares them (GET /_console/api/keys): the page
// writes none of them itself (ConsoleKeysTest). Loaded once, before any view starts.

import { call } from './api.js';

/** partition and sort (the table's key), index (the secondary index's name), indexPartition and indexSort. */
export const keys = {};

/** Loads the names, and writes them into every label, header and option of the page that names one. */
export async function loadKeys() {
  Object.assign(keys, await call('keys'));
  for (const node of document.querySelectorAll('[data-key-name]')) {
    const name = keys[node.dataset.keyName];
    if (node instanceof HTMLOptionElement) node.value = name;
    node.textContent = `${node.dataset.keyPrefix ?? ''}${name}`;
  }
}
