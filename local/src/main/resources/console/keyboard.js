// The page's keyboard beyond each view's own keys: the long lists other modules render as one Tab stop each, and
// Escape from anywhere in the side panel. It works on the elements alone, so the modules that fill them need not
// know it.

import { $ } from './dom.js';
import { roving } from './roving.js';

/** The lists with an entry per collection, index key or hot key: arrows within, one Tab stop each. */
const LISTS = ['#partitions', '#index-partitions', '#heat-accessed', '#heat-throttled'];

export function startKeyboard() {
  for (const list of LISTS) roving($(list), 'button, summary, a[href]');
  // Escape on any element of the panel closes it as its close button does, which gives the focus back to the
  // collection, on the row that opened it. A control that needs Escape for itself prevents the default first.
  $('#item-panel').addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    e.preventDefault();
    $('#item-close').click();
  });
}
