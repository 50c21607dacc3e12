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

/** "1 entry", "2 entries": every count on the page goes through here. */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

export function formatBytes(bytes) {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}
