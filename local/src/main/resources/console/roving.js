// A long list as one Tab stop (WAI-ARIA's "roving tabindex"): its entries are reached with the arrow keys, Home and
// End, and only one of them is in the Tab order, so a log of 500 requests costs a keyboard user one Tab, not 500.
// It works on the list's element alone (the entries may be re-rendered or arrive live by any module), and imports
// nothing.

const KEYS = { ArrowDown: 1, ArrowUp: -1, Home: 'first', End: 'last' };

/** An entry shown, as far as the list goes: not hidden (a log filter), not in a closed <details> (a shard list). */
function shown(item, list) {
  for (let node = item; node && node !== list; node = node.parentElement) {
    if (node.hidden) return false;
    const parent = node.parentElement;
    if (parent?.tagName === 'DETAILS' && !parent.open && node.tagName !== 'SUMMARY') return false;
  }
  return true;
}

/**
 * Makes the entries of `list` (its descendants that match `selector`) one Tab stop: the entry last focused, or until
 * one is, the first shown. ArrowDown and ArrowUp move to the next and previous shown entry, Home and End to the first
 * and last; on a <summary>, ArrowRight opens its <details> and ArrowLeft closes it; Enter and Space call `activate`
 * with the entry, when given (a button or a summary does its own). Entries added later join as they come.
 */
export function roving(list, selector, activate = null) {
  let current = null;
  let chosen = false; // whether the user focused an entry: until then the stop follows the first entry shown
  const first = () => {
    for (const item of list.querySelectorAll(selector)) if (shown(item, list)) return item;
    return null;
  };

  function stopAt(item) {
    if (current && current !== item) current.tabIndex = -1;
    current = item;
    if (item) item.tabIndex = 0;
  }

  /** After any change to the list: new entries out of the Tab order, and exactly one stop among those shown. */
  function settle(records) {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        if (node.matches(selector)) node.tabIndex = -1;
        for (const item of node.querySelectorAll(selector)) item.tabIndex = -1;
      }
    }
    const keep = chosen && current?.isConnected && list.contains(current) && shown(current, list);
    if (!keep) chosen = false;
    stopAt(keep ? current : first());
  }

  list.addEventListener('focusin', (e) => {
    const item = e.target.closest(selector);
    if (!item || !list.contains(item)) return;
    chosen = true;
    stopAt(item);
  });
  list.addEventListener('keydown', (e) => {
    const item = e.target.closest(selector);
    if (!item || !list.contains(item) || e.altKey || e.ctrlKey || e.metaKey) return;
    if (activate && (e.key === 'Enter' || e.key === ' ')) {
      e.preventDefault();
      activate(item);
      return;
    }
    if (item.tagName === 'SUMMARY' && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      e.preventDefault();
      item.parentElement.open = e.key === 'ArrowRight';
      return;
    }
    const step = KEYS[e.key];
    if (!step) return;
    e.preventDefault();
    const items = [...list.querySelectorAll(selector)].filter((i) => shown(i, list));
    const at = items.indexOf(item);
    const next = step === 'first' ? items[0] : step === 'last' ? items.at(-1) : items[at + step];
    if (!next) return;
    stopAt(next);
    next.focus();
  });
  new MutationObserver(settle).observe(list, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden', 'open'] });
  settle([{ addedNodes: [...list.children] }]);
}
