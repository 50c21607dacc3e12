// The console's checked item actions (item/edit, item/duplicate, item/delete), which the side panel and the Table
// tools' item form both call: one place says how an outcome reads, a refusal in the server's own words.

import { call } from './api.js';

/**
 * One action; `show(status, text)` says how it went, `done(response)` words a success. The response, or null once
 * the refusal is shown.
 */
export async function itemAction(action, body, done, show) {
  try {
    const response = await call(`item/${action}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    show(200, done(response));
    return response;
  } catch (e) {
    show(e.status ?? 400, `${action} refused (${e.status ?? 'error'}): ${e.message}`);
    return null;
  }
}

/** The attributes typed, parsed; undefined once `show` said they are not JSON (nothing is sent then). */
export function parseAttributes(text, show) {
  try {
    return JSON.parse(text);
  } catch (e) {
    show(400, `the attributes are not JSON: ${e.message}`);
    return undefined;
  }
}
