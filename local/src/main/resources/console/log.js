// The request log as the page keeps it, which the log pane lists and the item panel reads for an item's history,
// and a write's diff, which both show.

import { el } from './dom.js';

export const state = {
  selected: null, // the selected request's entry
  requests: [],
};

/** One write as a table of attributes, before and after. */
export function renderDiff(write) {
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
