// The header's status: the event stream's state ("live", "reconnecting…"), or for a while an error in its place.

import { $, visible } from './dom.js';

/** How long an error stays in place of the connection's state before "live" (or "reconnecting…") returns. */
const ERROR_SHOWN_MS = 5000;
/** The page's event stream, once connected: its state is what the status says when no error shows. */
let stream = null;
let errorTimer = null;

export function showConnection() {
  clearTimeout(errorTimer);
  $('#status').textContent = stream?.readyState === EventSource.OPEN ? 'live' : 'reconnecting…';
}

// An error is news, not the connection's state: it shows for a while, then the state comes back (at once when
// the stream reconnects), so a page left open all day does not say "error" long after it is live again.
export function showError(e) {
  $('#status').textContent = visible(`error: ${e.message}`);
  clearTimeout(errorTimer);
  errorTimer = setTimeout(showConnection, ERROR_SHOWN_MS);
}

/** The stream whose state the status shows. */
export function watch(events) {
  stream = events;
}
