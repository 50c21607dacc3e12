// The tabs, Data and Heat: one shows, the others' panes hide.

import { redrawHeat } from './heat.js';

function showTab(name) {
  for (const tab of document.querySelectorAll('#tabs .tab')) {
    tab.setAttribute('aria-selected', String(tab.dataset.tab === name));
    tab.tabIndex = tab.dataset.tab === name ? 0 : -1;
  }
  for (const pane of document.querySelectorAll('[data-pane]')) pane.hidden = pane.dataset.pane !== name;
  document.body.dataset.tab = name;
  if (name === 'heat') redrawHeat();
}

export function startTabs() {
  const tabs = [...document.querySelectorAll('#tabs .tab')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => showTab(tab.dataset.tab));
    // The tab pattern: arrow keys move between tabs and show the one they land on.
    tab.addEventListener('keydown', (e) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
      if (!step) return;
      const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
      showTab(next.dataset.tab);
      next.focus();
    });
  }
}
