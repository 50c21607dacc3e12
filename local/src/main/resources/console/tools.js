// Table tools: what every table browser does, done the API's way. Items are edited, duplicated and deleted through
// the console's checked endpoints (only what the API could have written, conditionally on the version read); scans
// and queries send attribute names and values, and the server's expression builder writes the expression. Like the
// rest of the page, everything shown is text (textContent), never markup.

import { call } from './api.js';
import { $, el, plural, visible } from './dom.js';
import { itemAction as act, parseAttributes } from './items.js';
import { keys } from './keys.js';

const json = (body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const FILTER_OPERATORS = ['=', '<>', '<', '<=', '>', '>=', 'begins_with', 'contains', 'exists', 'not_exists'];

/** The last read's form, where its shown page started (null: the first) and where the next page starts. */
const read = { form: null, from: null, cursor: null };

// ---- Item: load, edit, duplicate, delete ------------------------------------------------------------------

function itemKey() {
  return { partition: $('#item-partition').value, sort: $('#item-sort').value };
}

/** Says how an action went, with its status, so a refusal reads as plainly as a success. */
function itemResult(status, text) {
  const result = $('#item-result');
  result.dataset.status = String(status);
  result.className = `wide ${status >= 400 ? 'error' : 'muted'}`;
  result.textContent = visible(text);
}

const itemAction = (action, body, done) => act(action, body, done, itemResult);

export async function loadItem(partition, sort) {
  $('#item-partition').value = partition;
  $('#item-sort').value = sort;
  try {
    const { item } = await call(`item?partition=${encodeURIComponent(partition)}&sort=${encodeURIComponent(sort)}`);
    const attributes = { ...item };
    delete attributes[keys.partition];
    delete attributes[keys.sort];
    $('#item-version').value = attributes.version?.N ?? '';
    $('#item-attributes').value = JSON.stringify(attributes, null, 2);
    itemResult(200, `loaded ${partition} / ${sort}${attributes.version ? ` at version ${attributes.version.N}` : ''}`);
  } catch (e) {
    itemResult(e.status ?? 400, `load refused (${e.status ?? 'error'}): ${e.message}`);
  }
}

async function saveItem() {
  const attributes = parseAttributes($('#item-attributes').value, itemResult);
  if (attributes === undefined) return;
  const { partition, sort } = itemKey();
  const saved = await itemAction('edit', { partition, sort, version: Number($('#item-version').value), attributes },
    (r) => `saved ${r.partition} / ${r.sort} at version ${r.version}`);
  if (saved) {
    const message = $('#item-result').textContent;
    await loadItem(partition, sort);
    itemResult(200, message);
  }
}

function duplicateItem() {
  return itemAction('duplicate', itemKey(), (r) => `duplicated as ${r.partition} / ${r.sort}`);
}

/** A delete asks once more on the button itself, rather than in a dialog that blocks the page. */
let deleteArmed = null;
async function deleteItem() {
  const button = $('#item-delete');
  if (!deleteArmed) {
    button.textContent = 'Confirm delete';
    deleteArmed = setTimeout(() => { deleteArmed = null; button.textContent = 'Delete'; }, 5000);
    return;
  }
  clearTimeout(deleteArmed);
  deleteArmed = null;
  button.textContent = 'Delete';
  const { partition, sort } = itemKey();
  const deleted = await itemAction('delete', { partition, sort, version: Number($('#item-version').value) },
    (r) => `deleted ${r.partition} / ${r.sort}`);
  if (deleted) $('#item-attributes').value = '';
}

// ---- Scan and query ---------------------------------------------------------------------------------------

function addFilter(filter = {}) {
  const operator = el('select', { class: 'filter-operator', ariaLabel: 'filter operator' },
    ...FILTER_OPERATORS.map((o) => el('option', { value: o }, o)));
  operator.value = filter.operator ?? '=';
  const type = el('select', { class: 'filter-type', ariaLabel: 'value type' },
    el('option', { value: 'S' }, 'string'), el('option', { value: 'N' }, 'number'), el('option', { value: 'BOOL' }, 'boolean'));
  type.value = filter.type ?? 'S';
  const remove = el('button', { type: 'button', class: 'filter-remove' }, 'remove');
  const row = el('li', { class: 'filter' },
    el('input', { class: 'filter-attribute', ariaLabel: 'filter attribute', placeholder: 'attribute', value: filter.attribute ?? '' }),
    operator,
    el('input', { class: 'filter-value', ariaLabel: 'filter value', placeholder: 'value', value: filter.value ?? '' }),
    type, remove);
  remove.addEventListener('click', () => row.remove());
  $('#read-filters').append(row);
}

function readForm() {
  const form = {
    target: $('#read-target').value,
    mode: $('#read-mode').value,
    filters: [...document.querySelectorAll('#read-filters li')].map((li) => ({
      attribute: li.querySelector('.filter-attribute').value.trim(),
      operator: li.querySelector('.filter-operator').value,
      value: li.querySelector('.filter-value').value,
      type: li.querySelector('.filter-type').value,
    })),
    projection: $('#read-projection').value.split(',').map((a) => a.trim()).filter((a) => a),
    limit: Number($('#read-limit').value) || 25,
    // As typed (an empty or unreadable field is sent as ''): the server refuses a budget that is not a whole number
    // from 1 to 100,000, and reads nothing.
    budget: $('#read-budget').value === '' ? '' : Number($('#read-budget').value),
  };
  if (form.mode === 'query') {
    form.partition = $('#read-partition').value;
    form.descending = $('#read-descending').checked;
    if ($('#read-sort-operator').value) {
      form.sortOperator = $('#read-sort-operator').value;
      form.sortValue = $('#read-sort-value').value;
      form.sortHigh = $('#read-sort-high').value;
    }
  }
  return form;
}

/** Puts a kept read back into the form, as it was when it ran. */
function fillForm(form) {
  $('#read-target').value = form.target ?? 'table';
  $('#read-mode').value = form.mode ?? 'query';
  $('#read-partition').value = form.partition ?? '';
  $('#read-sort-operator').value = form.sortOperator ?? '';
  $('#read-sort-value').value = form.sortValue ?? '';
  $('#read-sort-high').value = form.sortHigh ?? '';
  $('#read-descending').checked = form.descending === true;
  $('#read-projection').value = (form.projection ?? []).join(', ');
  $('#read-limit').value = String(form.limit ?? 25);
  $('#read-budget').value = String(form.budget ?? 5000);
  $('#read-filters').replaceChildren();
  (form.filters ?? []).forEach(addFilter);
  showReadFields();
}

function showReadFields() {
  const scan = $('#read-mode').value === 'scan';
  for (const label of document.querySelectorAll('[data-read="query"]')) label.hidden = scan;
  $('#scan-warning').hidden = !scan;
}

async function runRead(form, cursor = null) {
  const error = $('#read-error');
  try {
    const page = await call('read', json({ ...form, ...(cursor ? { cursor } : {}), deployed: $('#deployed').checked }));
    error.hidden = true;
    read.form = form;
    read.from = cursor;
    read.cursor = page.cursor;
    $('#read-next').disabled = !page.cursor;
    showPage(page);
  } catch (e) {
    error.hidden = false;
    error.dataset.status = String(e.status ?? 400);
    error.textContent = visible(`${e.status ?? 'error'}: ${e.message}`);
  }
  loadQueries();
}

/** What the page cost and why it stopped, in words; and where Next resumes. */
function showPage(page) {
  const summary = $('#read-summary');
  summary.dataset.count = String(page.count);
  summary.dataset.scannedCount = String(page.scannedCount);
  summary.dataset.calls = String(page.calls);
  summary.dataset.consumed = page.consumed ?? '';
  summary.dataset.stopped = page.stopped;
  const next = page.cursor ? `Next resumes after ${page.resumesAfter}` : 'no more pages';
  summary.textContent = `${page.operation}${page.index ? ` on ${page.index}` : ''} · ${plural(page.count, 'match', 'matches')}`
    + ` of ${page.limit} · ${plural(page.scannedCount, 'item')} read of a budget of ${page.budget}`
    + ` · ${plural(page.calls, 'call')} · consumed ${page.consumed ?? '—'} RCU · stopped: ${page.stopped} · ${next}`;
  showSnippets(page.snippets);
  const e = page.expressions;
  $('#read-expressions').hidden = false;
  $('#read-expressions').textContent = visible([
    e.keyCondition ? `KeyConditionExpression ${e.keyCondition}` : null,
    e.filter ? `FilterExpression ${e.filter}` : null,
    e.projection ? `ProjectionExpression ${e.projection}` : null,
    e.names ? `ExpressionAttributeNames ${JSON.stringify(e.names)}` : null,
    e.values ? `ExpressionAttributeValues ${JSON.stringify(e.values)}` : null,
  ].filter((l) => l).join('\n'));
  showItems('#read-items', page.items);
}

/** Items as rows of a result table; a row with a key loads into the item editor. */
function showItems(table, items) {
  $(`${table} tbody`).replaceChildren(...items.map((item) => {
    const { [keys.partition]: partition, [keys.sort]: sort, ...rest } = item;
    const row = el('tr', { 'data-partition': partition?.S ?? '', 'data-sort': sort?.S ?? '' },
      el('td', {}, partition?.S ?? ''), el('td', {}, sort?.S ?? ''), el('td', { class: 'attributes' }, JSON.stringify(rest)));
    if (partition && sort) {
      row.title = 'load into the item editor';
      row.addEventListener('click', () => loadItem(partition.S, sort.S));
    }
    return row;
  }));
  if (!items.length) {
    $(`${table} tbody`).append(el('tr', {}, el('td', { colSpan: 3, class: 'muted' }, 'no items: change the key or the filters')));
  }
}

/** The page's read in code, for the engine or the deployed table. */
function showSnippets(snippets, prefix = 'read') {
  for (const language of ['java', 'cli', 'python', 'javascript']) {
    $(`#${prefix}-${language}`).textContent = visible(snippets[language]);
  }
  $(`#${prefix}-snippets`).hidden = false;
}

/** The deployed-table box changed: the shown page's snippets again, without reading. */
async function refreshSnippets() {
  const deployed = $('#deployed').checked;
  try {
    if (read.form) {
      const form = { ...read.form, ...(read.from ? { cursor: read.from } : {}), deployed };
      showSnippets(await call('read/snippets', json(form)));
    }
    if (statement.form) {
      const form = { ...statement.form, ...(statement.from ? { nextToken: statement.from } : {}), deployed };
      showSnippets(await call('statement/snippets', json(form)), 'statement');
    }
  } catch (e) {
    showQueryError(e);
  }
}

// ---- PartiQL ----------------------------------------------------------------------------------------------

/** The last statement's form, where its shown page started (null: the first) and its NextToken. */
const statement = { form: null, from: null, next: null };

async function runStatement(form, token = null) {
  const error = $('#statement-error');
  try {
    const page = await call('statement', json({ ...form, ...(token ? { nextToken: token } : {}), deployed: $('#deployed').checked }));
    error.hidden = true;
    Object.assign(statement, { form, from: token, next: page.nextToken });
    $('#statement-next').disabled = !page.nextToken;
    const summary = $('#statement-summary');
    summary.dataset.count = String(page.count);
    summary.dataset.consumed = page.consumed ?? '';
    summary.textContent = `ExecuteStatement · ${plural(page.count, 'item')} · consumed ${page.consumed ?? '—'} RCU`
      + ` · ${page.nextToken ? 'Next resumes at its NextToken' : 'no more pages'}`;
    showItems('#statement-items', page.items);
    showSnippets(page.snippets, 'statement');
  } catch (e) {
    error.hidden = false;
    error.dataset.status = String(e.status ?? 400);
    error.textContent = visible(`${e.status ?? 'error'}: ${e.message}`);
  }
}

/** Opens one partition of the index as a query, from the left pane's index list. */
function openIndexPartition(partition) {
  fillForm({ target: keys.index, mode: 'query', partition, filters: [], projection: [], limit: 25, budget: Number($('#read-budget').value) || 5000 });
  runRead(readForm());
  $('#tools').scrollIntoView({ block: 'start' });
}

// ---- Saved and recent queries -----------------------------------------------------------------------------

function describe(form) {
  const where = form.mode === 'scan' ? `Scan ${form.target}` : `Query ${form.target} ${form.partition ?? ''}`;
  const filters = (form.filters ?? []).map((f) => `${f.attribute} ${f.operator} ${f.value ?? ''}`.trim());
  return [where, ...filters, form.projection?.length ? `→ ${form.projection.join(', ')}` : null].filter((x) => x).join(' · ');
}

function queryItem(form, name) {
  const run = el('button', { type: 'button', class: 'query-run' }, 'run');
  run.addEventListener('click', () => { fillForm(form); runRead(readForm()); });
  const li = el('li', name ? { 'data-name': name } : {}, run,
    name ? el('strong', {}, name) : null, el('span', { class: 'query-text' }, describe(form)));
  if (name) {
    const remove = el('button', { type: 'button', class: 'query-delete' }, 'delete');
    remove.addEventListener('click', async () => {
      try {
        await call(`queries?name=${encodeURIComponent(name)}`, { method: 'DELETE' });
      } catch (e) {
        showQueryError(e);
      }
      loadQueries();
    });
    li.append(remove);
  }
  return li;
}

async function loadQueries() {
  try {
    const queries = await call('queries');
    $('#queries-kept').textContent = visible(`(kept ${queries.kept})`);
    $('#saved-queries').replaceChildren(...queries.saved.map((q) => queryItem(q.query, q.name)));
    if (!queries.saved.length) $('#saved-queries').append(el('li', { class: 'muted' }, 'none saved: run a read, name it, and Save'));
    $('#recent-queries').replaceChildren(...queries.recent.map((q) => queryItem(q)));
    if (!queries.recent.length) $('#recent-queries').append(el('li', { class: 'muted' }, 'no reads yet'));
  } catch (e) {
    showQueryError(e);
  }
}

function showQueryError(e) {
  const error = $('#read-error');
  error.hidden = false;
  error.dataset.status = String(e.status ?? 400);
  error.textContent = visible(`${e.status ?? 'error'}: ${e.message}`);
}

async function saveQuery() {
  try {
    await call('queries', json({ name: $('#query-name').value.trim(), query: readForm() }));
    $('#read-error').hidden = true;
  } catch (e) {
    showQueryError(e);
  }
  loadQueries();
}

// ---- Start ------------------------------------------------------------------------------------------------

document.addEventListener('DOMContentLoaded', () => {
  $('#item-form').addEventListener('submit', (e) => { e.preventDefault(); loadItem($('#item-partition').value, $('#item-sort').value); });
  $('#item-save').addEventListener('click', saveItem);
  $('#item-duplicate').addEventListener('click', duplicateItem);
  $('#item-delete').addEventListener('click', deleteItem);
  $('#read-form').addEventListener('submit', (e) => { e.preventDefault(); runRead(readForm()); });
  $('#read-next').addEventListener('click', () => { if (read.cursor) runRead(read.form, read.cursor); });
  $('#read-add-filter').addEventListener('click', () => addFilter());
  $('#deployed').addEventListener('change', refreshSnippets);
  $('#statement-form').addEventListener('submit', (e) => {
    e.preventDefault();
    runStatement({ statement: $('#statement-text').value, limit: Number($('#statement-limit').value) || 25 });
  });
  $('#statement-next').addEventListener('click', () => { if (statement.next) runStatement(statement.form, statement.next); });
  $('#read-mode').addEventListener('change', showReadFields);
  $('#query-save').addEventListener('click', saveQuery);
  // The index list is re-rendered on every change, so one listener on its container serves every partition.
  $('#index-partitions').addEventListener('click', (e) => {
    const button = e.target.closest('.index-partition');
    if (button) openIndexPartition(button.dataset.partition);
  });
  showReadFields();
  loadQueries();
});
