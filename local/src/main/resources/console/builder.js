// The Data tab's expression builder: an access pattern or a key condition, built by the server's expression
// builder into the expression, the Java SDK v2 request, the aws CLI command, boto3 and the JavaScript SDK v3, and run on the local table. Its
// access patterns are the server's list of operations (GET /_console/api/patterns): the page writes none itself.

import { call } from './api.js';
import { renderRow } from './collection.js';
import { $, el, plural, visible } from './dom.js';

/** The access patterns offered, as served: each one's name, route and inputs (the form's fields it reads). */
let patterns = [];

/** Loads the patterns, and offers each after the key condition: its name and route. */
export async function loadPatterns() {
  ({ patterns } = await call('patterns'));
  $('#pattern').append(...patterns.map((p) => el('option', { value: p.name }, `${p.name} (${p.route})`)));
}

function form() {
  const limit = Number($('#limit').value);
  return {
    pattern: $('#pattern').value,
    workspace: $('#workspace').value.trim(),
    projectId: $('#project-id').value.trim(),
    partition: $('#partition').value,
    operator: $('#operator').value,
    value: $('#sort-value').value,
    high: $('#sort-high').value,
    descending: $('#descending').checked,
    deployed: $('#deployed').checked,
    limit: Number.isFinite(limit) ? limit : 20,
  };
}

/** Shows the fields the chosen pattern reads (its inputs), or the key condition's. */
function showPatternFields() {
  const chosen = patterns.find((p) => p.name === $('#pattern').value);
  for (const label of document.querySelectorAll('#builder-form [data-for]')) {
    const wanted = label.dataset.for;
    label.hidden = !(chosen ? chosen.inputs.includes(wanted) : wanted === 'custom');
  }
}

async function build(run) {
  const error = $('#builder-error');
  error.hidden = true;
  try {
    const data = await call(run ? 'expr/run' : 'expr', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form()),
    });
    $('#expr-expression').textContent = visible(data.expression);
    $('#expr-java').textContent = visible(data.java);
    $('#expr-cli').textContent = visible(data.cli);
    $('#expr-python').textContent = visible(data.python);
    $('#expr-javascript').textContent = visible(data.javascript);
    const result = $('#run-result');
    result.replaceChildren();
    if (run) {
      result.append(
        el('p', { class: 'capacity' }, `${plural(data.count, 'item')} returned, ${data.scannedCount} read · consumed ${data.consumed} RCU · predicted ${data.predicted} RCU from item sizes`),
        el('table', {}, el('tbody', {}, ...data.items.map(renderRow))));
    }
  } catch (e) {
    error.textContent = visible(e.message);
    error.hidden = false;
  }
}

export function startBuilder() {
  $('#pattern').addEventListener('change', showPatternFields);
  // The snippets shown follow the toggle at once; running a query is left to the Run button.
  $('#deployed').addEventListener('change', () => { if ($('#expr-cli').textContent) build(false); });
  $('#builder-form').addEventListener('submit', (e) => { e.preventDefault(); build(false); });
  $('#run').addEventListener('click', () => build(true));
  showPatternFields();
}
