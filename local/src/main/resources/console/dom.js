// The console's DOM helper: every view builds its nodes here, as text (textContent, never innerHTML), with invisible
// and bidirectional characters shown as \uXXXX escapes so that no name can pass for another. It imports nothing.

export const $ = (selector, root = document) => root.querySelector(selector);

/** Characters a person cannot see, or that reorder what they see: shown as escapes. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}]/gu;
export function visible(text) {
  return String(text).replace(INVISIBLE, (c) => {
    if (c === '\n' || c === '\t') return c;
    const code = c.codePointAt(0).toString(16).toUpperCase();
    return code.length <= 4 ? `\\u${code.padStart(4, '0')}` : `\\u{${code}}`;
  });
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name.startsWith('data-')) node.setAttribute(name, value);
    else node[name] = value;
  }
  for (const child of children) {
    if (child == null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(visible(child)));
  }
  return node;
}

/**
 * Makes `parent`'s children `wanted`, moving as few as it can: the children still wanted stay where they are, the
 * others go, the new ones are inserted in their places. A row inserted into a window, a log entry arriving at its
 * top or a scroll of a few rows then costs the style and layout of those nodes alone; taking every child out and
 * putting it back (replaceChildren) restyled and laid out the whole list, which at load average 8 made a frame of
 * 200 ms and more. One pass over the children, reading no layout.
 */
export function reconcile(parent, wanted) {
  const keep = new Set(wanted);
  let next = parent.firstElementChild;
  for (const node of wanted) {
    while (next && next !== node && !keep.has(next)) {
      const gone = next;
      next = next.nextElementSibling;
      gone.remove();
    }
    if (next === node) next = next.nextElementSibling;
    else parent.insertBefore(node, next);
  }
  while (next) {
    const gone = next;
    next = next.nextElementSibling;
    gone.remove();
  }
}

/**
 * Sets `node`'s text when it differs: an assignment of the same text still replaces the text node, which the next
 * frame lays out and paints again; a live view setting its counts at every batch would pay that for nothing.
 */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Sets one inline style property when it differs, for the same reason as setText. */
export function setStyle(node, property, value) {
  if (node.style[property] !== value) node.style[property] = value;
}

/** "1 entry", "2 entries": every count on the page goes through here. */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

/** Counts with thousands separators, "62,000": one formatter, built once (toLocaleString builds one per call). */
const COUNT = new Intl.NumberFormat('en');
export const formatCount = (count) => COUNT.format(count);

export function formatBytes(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}
