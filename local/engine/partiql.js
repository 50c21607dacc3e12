'use strict'
// PartiQL's ExecuteStatement, which dynalite lacks (it answers UnknownOperationException): the statement is parsed and
// translated into the one call DynamoDB makes for it, and that call is served by the guard as a client's would be
// (guard.js: the partition limits, the heat, the index lag, the change feed, the consumed capacity), so a statement
// costs and throttles exactly as its plain call does. BatchExecuteStatement runs its statements so, one by one.
// docs/decisions/0004-partiql-in-the-guard.md lists the forms.
//
// DynamoDB's rules followed here (Developer Guide, "PartiQL - a SQL-compatible query language for Amazon DynamoDB"):
// - SELECT (ql-reference.select.html): an equality on the partition key makes it a Query (its sort key conditions
//   the key condition, every other predicate a filter); without one "the SELECT statement can result in a full table
//   scan": a Scan, every predicate a filter. The full primary key of a table, and nothing else, is read as GetItem:
//   one item, billed as a GetItem (a Query of one item bills the same, and both bill one minimum read when absent).
//   ORDER BY needs a WHERE clause on the partition key (a Query's ScanIndexForward).
// - INSERT (ql-reference.insert.html): "If the DynamoDB table already has an item with the same primary key as the
//   primary key of the item being inserted, DuplicateItemException is returned": a PutItem on attribute_not_exists.
// - UPDATE (ql-reference.update.html): the WHERE clause "must resolve to a single primary key value"; an UPDATE is
//   not an upsert: a missing item fails with ConditionalCheckFailedException (an UpdateItem on attribute_exists);
//   further predicates are conditions on the item.
// - DELETE (ql-reference.delete.html): the full primary key; further predicates are conditions; a missing item is
//   no error (a plain DeleteItem).
// Parameters (ExecuteStatement's Parameters) fill the statement's ? in order; literals are 'strings' (quote doubled
// inside), numbers, true/false, null, {'map': ...}, [lists] and <<sets>>. Attribute and table names are bare or in
// "double quotes".
const { send } = require('./inner')

const PREFIX = 'com.amazonaws.dynamodb.v20120810#'
const TOKEN = /\s*(?:("(?:[^"]|"")*")|('(?:[^']|'')*')|(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|([A-Za-z_][A-Za-z0-9_$]*)|(<=|>=|<>|!=|<<|>>|[-+?{}[\](),:.=<>*]))/y
const COMPARISONS = new Set(['=', '<', '<=', '>', '>=', '<>', '!='])
const SORT_KEY_OPERATORS = new Set(['=', '<', '<=', '>', '>=', 'BETWEEN', 'begins_with'])
const RETURNING = { 'ALL OLD': 'ALL_OLD', 'MODIFIED OLD': 'UPDATED_OLD', 'ALL NEW': 'ALL_NEW', 'MODIFIED NEW': 'UPDATED_NEW' }

/** A statement the engine answers with DynamoDB's error instead of a call: HTTP 400, {__type, message}. */
class StatementError extends Error {
  constructor (type, message) {
    super(message)
    this.type = type
  }
}

const malformed = (why) => new StatementError('ValidationException', `Statement wasn't well formed, can't be processed: ${why}`)
// A form DynamoDB runs and this engine does not translate: DynamoDB's error type, and a message that says so.
const untranslated = (form) => new StatementError('ValidationException',
  `The oneread local engine does not translate this PartiQL form: ${form} (docs/decisions/0004-partiql-in-the-guard.md)`)

function tokenize (text) {
  const tokens = []
  TOKEN.lastIndex = 0
  let at = 0
  while (at < text.length) {
    if (/^\s*;?\s*$/.test(text.slice(at))) break
    TOKEN.lastIndex = at
    const m = TOKEN.exec(text)
    if (!m) throw malformed(`unexpected character at ${at}`)
    at = TOKEN.lastIndex
    if (m[1]) tokens.push({ kind: 'name', text: m[1].slice(1, -1).replace(/""/g, '"') })
    else if (m[2]) tokens.push({ kind: 'string', text: m[2].slice(1, -1).replace(/''/g, "'") })
    else if (m[3]) tokens.push({ kind: 'number', text: m[3] })
    else if (m[4]) tokens.push({ kind: 'word', text: m[4] })
    else tokens.push({ kind: 'punct', text: m[5] })
  }
  return tokens
}

/** A recursive-descent reader of the forms above; parameters are taken in the order their ? appear. */
class Parser {
  constructor (text, parameters) {
    this.tokens = tokenize(text)
    this.at = 0
    this.parameters = parameters
    this.used = 0
  }

  peek (offset = 0) { return this.tokens[this.at + offset] }
  next () {
    const t = this.tokens[this.at++]
    if (!t) throw malformed('unexpected end of statement')
    return t
  }

  isWord (word, offset = 0) {
    const t = this.peek(offset)
    return !!t && t.kind === 'word' && t.text.toUpperCase() === word
  }

  isPunct (text) {
    const t = this.peek()
    return !!t && t.kind === 'punct' && t.text === text
  }

  word (word) {
    if (!this.isWord(word)) throw malformed(`expected ${word}`)
    this.at++
  }

  punct (text) {
    if (!this.isPunct(text)) throw malformed(`expected ${text}`)
    this.at++
  }

  end () {
    if (this.peek()) throw malformed(`unexpected ${this.peek().text}`)
    if (this.used !== this.parameters.length) {
      throw new StatementError('ValidationException', 'Number of parameters in request and statement don\'t match.')
    }
  }

  identifier () {
    const t = this.next()
    if (t.kind !== 'name' && t.kind !== 'word') throw malformed('expected an identifier')
    return t.text
  }

  /** A document path: name, name.sub, name[0]; as [{name} | {index}]. */
  path () {
    const path = [{ name: this.identifier() }]
    for (;;) {
      if (this.isPunct('.')) {
        this.at++
        path.push({ name: this.identifier() })
      } else if (this.isPunct('[')) {
        this.at++
        const t = this.next()
        if (t.kind !== 'number' || !/^\d+$/.test(t.text)) throw malformed('expected a list index')
        path.push({ index: Number(t.text) })
        this.punct(']')
      } else return path
    }
  }

  /** A value: a parameter or a literal, as a DynamoDB AttributeValue. */
  value () {
    const t = this.next()
    if (t.kind === 'punct' && t.text === '?') {
      if (this.used >= this.parameters.length) {
        throw new StatementError('ValidationException', 'Number of parameters in request and statement don\'t match.')
      }
      return this.parameters[this.used++]
    }
    if (t.kind === 'string') return { S: t.text }
    if (t.kind === 'number') return { N: t.text }
    if (t.kind === 'punct' && t.text === '-') {
      const n = this.next()
      if (n.kind !== 'number') throw malformed('expected a number after -')
      return { N: '-' + n.text }
    }
    if (t.kind === 'word' && /^(true|false)$/i.test(t.text)) return { BOOL: t.text.toLowerCase() === 'true' }
    if (t.kind === 'word' && /^null$/i.test(t.text)) return { NULL: true }
    if (t.kind === 'punct' && t.text === '{') return { M: this.entries() }
    if (t.kind === 'punct' && t.text === '[') return { L: this.list(']') }
    if (t.kind === 'punct' && t.text === '<<') return set(this.list('>>'))
    if (t.kind === 'word' && this.isPunct('(')) throw untranslated(`the function ${t.text} in a value`)
    throw malformed(`unexpected ${t.text}`)
  }

  entries () {
    const map = {}
    while (!this.isPunct('}')) {
      const t = this.next()
      if (t.kind !== 'string' && t.kind !== 'name') throw malformed('expected a quoted attribute name')
      this.punct(':')
      map[t.text] = this.value()
      if (!this.isPunct('}')) this.punct(',')
    }
    this.at++
    return map
  }

  list (close) {
    const values = []
    while (!this.isPunct(close)) {
      values.push(this.value())
      if (!this.isPunct(close)) this.punct(',')
    }
    this.at++
    return values
  }

  /** FROM/INTO/UPDATE's target: "table" or "table"."index". */
  target () {
    const table = this.identifier()
    if (!this.isPunct('.')) return { table, index: null }
    this.at++
    return { table, index: this.identifier() }
  }

  /** WHERE p [AND p ...]: each predicate {path, op, values}; OR, NOT, IN and the rest are not translated. */
  where () {
    const predicates = [this.predicate()]
    while (this.isWord('AND')) {
      this.at++
      predicates.push(this.predicate())
    }
    if (this.isWord('OR')) throw untranslated('OR')
    return predicates
  }

  predicate () {
    if (this.isWord('NOT')) throw untranslated('NOT')
    if (this.isPunct('(')) throw untranslated('a parenthesized condition')
    if (this.isWord('BEGINS_WITH') && this.peek(1) && this.peek(1).text === '(') {
      this.at += 2
      const path = this.path()
      this.punct(',')
      const prefix = this.value()
      this.punct(')')
      return { path, op: 'begins_with', values: [prefix] }
    }
    const t = this.peek()
    if (t && t.kind === 'word' && this.peek(1) && this.peek(1).text === '(') throw untranslated(`the function ${t.text}`)
    const path = this.path()
    if (this.isWord('BETWEEN')) {
      this.at++
      const low = this.value()
      this.word('AND')
      return { path, op: 'BETWEEN', values: [low, this.value()] }
    }
    if (this.isWord('IN')) throw untranslated('IN')
    if (this.isWord('IS')) throw untranslated('IS')
    const op = this.next()
    if (op.kind !== 'punct' || !COMPARISONS.has(op.text)) throw malformed(`unexpected ${op.text}`)
    return { path, op: op.text === '!=' ? '<>' : op.text, values: [this.value()] }
  }

  returning () {
    if (!this.isWord('RETURNING')) return undefined
    this.at++
    const which = `${this.identifier().toUpperCase()} ${this.identifier().toUpperCase()}`
    this.punct('*')
    if (!RETURNING[which]) throw malformed(`unexpected RETURNING ${which}`)
    return RETURNING[which]
  }
}

function set (values) {
  if (values.length && values.every((v) => v.S !== undefined)) return { SS: values.map((v) => v.S) }
  if (values.length && values.every((v) => v.N !== undefined)) return { NS: values.map((v) => v.N) }
  if (values.length && values.every((v) => v.B !== undefined)) return { BS: values.map((v) => v.B) }
  throw malformed('a set holds strings, numbers or binaries, at least one')
}

function parse (statement, parameters) {
  const p = new Parser(statement, parameters)
  const verb = p.peek() && p.peek().kind === 'word' ? p.next().text.toUpperCase() : ''
  const parsed = PARSERS[verb] ? PARSERS[verb](p) : null
  if (!parsed) throw malformed(`a statement starts with SELECT, INSERT, UPDATE or DELETE, not ${verb || 'this'}`)
  p.end()
  return parsed
}

const PARSERS = {
  SELECT (p) {
    let projection = null
    if (p.isPunct('*')) p.at++
    else {
      projection = [p.path()]
      while (p.isPunct(',')) {
        p.at++
        projection.push(p.path())
      }
    }
    p.word('FROM')
    const target = p.target()
    const where = p.isWord('WHERE') ? (p.at++, p.where()) : []
    let order = null
    if (p.isWord('ORDER')) {
      p.at++
      p.word('BY')
      const path = p.path()
      const descending = p.isWord('DESC')
      if (descending || p.isWord('ASC')) p.at++
      if (p.isPunct(',')) throw untranslated('ORDER BY more than one key')
      order = { path, descending }
    }
    return { verb: 'SELECT', ...target, projection, where, order }
  },

  INSERT (p) {
    p.word('INTO')
    const target = p.target()
    p.word('VALUE')
    if (!p.isPunct('{')) throw malformed('INSERT ... VALUE takes one item, {...}')
    return { verb: 'INSERT', ...target, item: p.value().M }
  },

  UPDATE (p) {
    const target = p.target()
    const sets = []
    const removes = []
    // SET a = 1 SET b = 2 (ql-reference.update.html's examples) or SET a = 1, b = 2; REMOVE c[, d] alike.
    while (p.isWord('SET') || p.isWord('REMOVE')) {
      const remove = p.next().text.toUpperCase() === 'REMOVE'
      do {
        if (p.isPunct(',')) p.at++
        const path = p.path()
        if (remove) removes.push(path)
        else {
          p.punct('=')
          const t = p.peek()
          if (t && (t.kind === 'name' || (t.kind === 'word' && !/^(true|false|null)$/i.test(t.text) && !(p.peek(1) && p.peek(1).text === '(')))) {
            throw untranslated('an attribute path or arithmetic in SET')
          }
          const value = p.value()
          if (p.peek() && p.peek().kind === 'punct' && /^[-+*]$/.test(p.peek().text)) throw untranslated('arithmetic in SET')
          sets.push({ path, value })
        }
      } while (p.isPunct(','))
    }
    if (!sets.length && !removes.length) throw malformed('expected SET or REMOVE')
    p.word('WHERE')
    return { verb: 'UPDATE', ...target, sets, removes, where: p.where(), returning: p.returning() }
  },

  DELETE (p) {
    p.word('FROM')
    const target = p.target()
    p.word('WHERE')
    return { verb: 'DELETE', ...target, where: p.where(), returning: p.returning() }
  },
}

/** ExpressionAttributeNames and ExpressionAttributeValues, filled as expressions are written. */
class Placeholders {
  constructor () {
    this.names = {}
    this.values = {}
    this.byName = new Map()
    this.count = 0
  }

  path (path) {
    return path.map((s, i) => {
      if (s.index !== undefined) return `[${s.index}]`
      if (!this.byName.has(s.name)) {
        const placeholder = `#n${this.byName.size}`
        this.byName.set(s.name, placeholder)
        this.names[placeholder] = s.name
      }
      return (i ? '.' : '') + this.byName.get(s.name)
    }).join('')
  }

  value (value) {
    const placeholder = `:v${this.count++}`
    this.values[placeholder] = value
    return placeholder
  }

  condition (predicates) {
    return predicates.map((c) => {
      const path = this.path(c.path)
      if (c.op === 'begins_with') return `begins_with(${path}, ${this.value(c.values[0])})`
      if (c.op === 'BETWEEN') return `${path} BETWEEN ${this.value(c.values[0])} AND ${this.value(c.values[1])}`
      return `${path} ${c.op} ${this.value(c.values[0])}`
    }).join(' AND ')
  }

  /** The request's placeholders, each only when used (DynamoDB refuses an empty or an unused map). */
  into (request) {
    if (Object.keys(this.names).length) request.ExpressionAttributeNames = this.names
    if (Object.keys(this.values).length) request.ExpressionAttributeValues = this.values
    return request
  }
}

const isAttribute = (c, name) => c.path.length === 1 && c.path[0].name === name

/** The key equalities of a single-item statement, and the rest of its WHERE clause. */
function singleItem (schema, where) {
  const key = {}
  const rest = []
  for (const c of where) {
    const k = schema.keys.find((name) => isAttribute(c, name) && c.op === '=' && !key[name])
    if (k) key[k] = c.values[0]
    else rest.push(c)
  }
  if (schema.keys.some((k) => !key[k])) {
    throw new StatementError('ValidationException', 'Where clause does not contain a mandatory equality on all key attributes')
  }
  return { key, rest }
}

/** The call DynamoDB makes for a parsed statement: {operation, input, items(answer)}. */
function plan (parsed, schema, request) {
  if (parsed.verb !== 'SELECT' && parsed.index) throw malformed('only a SELECT reads an index')
  const names = new Placeholders()
  const common = { TableName: parsed.table }
  if (request.ReturnConsumedCapacity !== undefined) common.ReturnConsumedCapacity = request.ReturnConsumedCapacity
  if (parsed.verb === 'INSERT') {
    const hash = names.path([{ name: schema.keys[0] }])
    return {
      operation: 'PutItem',
      input: names.into({ ...common, Item: parsed.item, ConditionExpression: `attribute_not_exists(${hash})` }),
      items: () => [],
    }
  }
  if (parsed.verb === 'UPDATE' || parsed.verb === 'DELETE') {
    const { key, rest } = singleItem(schema, parsed.where)
    const input = { ...common, Key: key }
    const conditions = []
    if (parsed.verb === 'UPDATE') {
      const clauses = []
      if (parsed.sets.length) clauses.push('SET ' + parsed.sets.map((s) => `${names.path(s.path)} = ${names.value(s.value)}`).join(', '))
      if (parsed.removes.length) clauses.push('REMOVE ' + parsed.removes.map((r) => names.path(r)).join(', '))
      input.UpdateExpression = clauses.join(' ')
      conditions.push(`attribute_exists(${names.path([{ name: schema.keys[0] }])})`)
    }
    if (rest.length) conditions.push(names.condition(rest))
    if (conditions.length) input.ConditionExpression = conditions.join(' AND ')
    if (parsed.returning) input.ReturnValues = parsed.returning
    return {
      operation: parsed.verb === 'UPDATE' ? 'UpdateItem' : 'DeleteItem',
      input: names.into(input),
      items: (out) => (out.Attributes ? [out.Attributes] : []),
    }
  }
  return select(parsed, schema, request, names, common)
}

function select (parsed, schema, request, names, common) {
  const index = parsed.index ? schema.indexes.find((i) => i.name === parsed.index) : null
  if (parsed.index && !index) {
    throw new StatementError('ValidationException', `The table does not have the specified index: ${parsed.index}`)
  }
  const [hash, range] = (index || schema).keys
  const hashCondition = parsed.where.find((c) => isAttribute(c, hash) && c.op === '=')
  const rangeCondition = range && parsed.where.find((c) => isAttribute(c, range) && SORT_KEY_OPERATORS.has(c.op))
  const rest = parsed.where.filter((c) => c !== hashCondition && c !== rangeCondition)
  const projection = parsed.projection ? { ProjectionExpression: parsed.projection.map((p) => names.path(p)).join(', ') } : {}
  const reads = request.ConsistentRead !== undefined ? { ConsistentRead: request.ConsistentRead } : {}
  if (parsed.order && !hashCondition) {
    throw new StatementError('ValidationException', 'Must have WHERE clause in the statement when using ORDER BY clause.')
  }
  const fullKey = !index && hashCondition && (!range || (rangeCondition && rangeCondition.op === '='))
  if (fullKey && !rest.length && !parsed.order) {
    const Key = { [hash]: hashCondition.values[0] }
    if (range) Key[range] = rangeCondition.values[0]
    return { operation: 'GetItem', input: names.into({ ...common, Key, ...projection, ...reads }), items: (out) => (out.Item ? [out.Item] : []) }
  }
  const input = { ...common, ...projection, ...reads }
  if (index) input.IndexName = index.name
  if (request.Limit !== undefined) input.Limit = request.Limit
  if (request.NextToken !== undefined) input.ExclusiveStartKey = startKey(request.NextToken)
  if (hashCondition) {
    input.KeyConditionExpression = names.condition([hashCondition, rangeCondition].filter(Boolean))
    if (parsed.order) {
      if (!isAttribute(parsed.order, hash) && !isAttribute(parsed.order, range)) {
        throw new StatementError('ValidationException', 'Order by is only supported on the key attributes of the table or index.')
      }
      input.ScanIndexForward = !parsed.order.descending
    }
  }
  if (rest.length) input.FilterExpression = names.condition(rest)
  return { operation: hashCondition ? 'Query' : 'Scan', input: names.into(input), items: (out) => out.Items || [], paged: true }
}

// NextToken carries the underlying call's LastEvaluatedKey, opaque to the client as DynamoDB's is.
function nextToken (lastKey) {
  return Buffer.from(JSON.stringify(lastKey), 'utf8').toString('base64')
}

function startKey (token) {
  try {
    const key = JSON.parse(Buffer.from(String(token), 'base64').toString('utf8'))
    if (key && typeof key === 'object' && !Array.isArray(key)) return key
  } catch { /* answered below */ }
  throw new StatementError('ValidationException', 'Invalid NextToken')
}

/** The guard's answer to a translated call, caught instead of sent: {status, headers, body}. */
function captured () {
  let resolve
  const done = new Promise((r) => { resolve = r })
  const res = {
    headersSent: false,
    writeHead (status, headers) {
      this.status = status
      this.headers = headers
      this.headersSent = true
    },
    end (body) { resolve({ status: this.status, headers: this.headers, body: String(body) }) },
  }
  return { res, done }
}

const CONDITION_FAILED = PREFIX + 'ConditionalCheckFailedException'

/**
 * Runs one statement: its translation is served by serve(headers, body, res), the guard's own entry, with the target
 * of the call it became. Answers {status, headers, data, table}: data is ExecuteStatement's answer or its error.
 * With batch, a SELECT must name a full primary key (BatchExecuteStatement reads single items).
 */
async function runStatement (request, clientHeaders, schemaOf, serve, batch) {
  let translated
  try {
    if (typeof request.Statement !== 'string') throw new StatementError('ValidationException', 'Statement is required')
    if (request.Parameters !== undefined && !Array.isArray(request.Parameters)) {
      throw new StatementError('ValidationException', 'Parameters must be a list of attribute values')
    }
    const parsed = parse(request.Statement, request.Parameters || [])
    const schema = await schemaOf(parsed.table)
    if (!schema) throw new StatementError('ResourceNotFoundException', 'Requested resource not found')
    translated = plan(parsed, schema, request)
    if (batch && parsed.verb === 'SELECT' && translated.operation !== 'GetItem') {
      throw new StatementError('ValidationException', 'A SELECT in a batch must name the full primary key of the table')
    }
  } catch (err) {
    if (!(err instanceof StatementError)) throw err
    return { status: 400, headers: {}, data: { __type: PREFIX + err.type, message: err.message }, table: null }
  }
  const table = translated.input.TableName
  const { res, done } = captured()
  await serve({ ...clientHeaders, 'x-amz-target': 'DynamoDB_20120810.' + translated.operation }, JSON.stringify(translated.input), res)
  const answer = await done
  const headers = { 'content-type': answer.headers['Content-Type'], 'x-amzn-requestid': answer.headers['x-amzn-RequestId'] }
  let out
  try { out = JSON.parse(answer.body) } catch { out = null }
  if (answer.status !== 200 || !out) {
    // ql-reference.insert.html: a duplicate primary key is DuplicateItemException, not the condition that found it.
    if (translated.operation === 'PutItem' && out && out.__type === CONDITION_FAILED) {
      out = { __type: PREFIX + 'DuplicateItemException', message: 'Duplicate primary key exists in table' }
    }
    return { status: answer.status, headers, data: out || answer.body, table }
  }
  const result = { Items: translated.items(out) }
  if (translated.paged && out.LastEvaluatedKey) {
    result.NextToken = nextToken(out.LastEvaluatedKey)
    result.LastEvaluatedKey = out.LastEvaluatedKey
  }
  if (out.ConsumedCapacity) result.ConsumedCapacity = out.ConsumedCapacity
  return { status: 200, headers, data: result, table }
}

/** Serves one ExecuteStatement. */
async function executeStatement (ctx, schemaOf, serve) {
  const answer = await runStatement(ctx.data, ctx.headers, schemaOf, serve, false)
  send(ctx.res, answer.status, answer.headers, answer.data)
}

// BatchExecuteStatement's error codes (API reference, BatchStatementError), by the exception a statement alone gets.
const BATCH_ERRORS = {
  ConditionalCheckFailedException: 'ConditionalCheckFailed',
  DuplicateItemException: 'DuplicateItem',
  ValidationException: 'ValidationError',
  ResourceNotFoundException: 'ResourceNotFound',
  ProvisionedThroughputExceededException: 'ProvisionedThroughputExceeded',
  ThrottlingException: 'ThrottlingError',
  RequestLimitExceeded: 'RequestLimitExceeded',
}
const MAX_BATCH = 25

/**
 * Serves one BatchExecuteStatement (ql-reference.multiplestatements.batching.html): up to 25 statements, all reads
 * or all writes, each a single item; each is run as its own ExecuteStatement, and its failure is its own Error in
 * Responses while the others are served. ConsumedCapacity: one entry per table, its statements' units summed.
 */
async function batchExecuteStatement (ctx, schemaOf, serve) {
  const statements = ctx.data.Statements
  const refuse = (message) => send(ctx.res, 400, {}, { __type: PREFIX + 'ValidationException', message })
  if (!Array.isArray(statements) || !statements.length || statements.length > MAX_BATCH) {
    return refuse(`Statements must hold 1 to ${MAX_BATCH} statements`)
  }
  const reads = statements.filter((s) => s && /^\s*select\b/i.test(String(s.Statement))).length
  if (reads && reads !== statements.length) return refuse('Statements in a batch must be all reads or all writes')
  const responses = []
  const consumed = new Map()
  let headers = {}
  for (const statement of statements) {
    const s = statement && typeof statement === 'object' ? statement : {}
    const answer = await runStatement({
      Statement: s.Statement,
      Parameters: s.Parameters,
      ConsistentRead: s.ConsistentRead,
      ReturnConsumedCapacity: ctx.data.ReturnConsumedCapacity,
    }, ctx.headers, schemaOf, serve, true)
    headers = answer.headers['content-type'] ? answer.headers : headers
    const data = answer.data && typeof answer.data === 'object' ? answer.data : {}
    if (answer.status !== 200) {
      const type = String(data.__type || '').slice(PREFIX.length)
      responses.push({ ...(answer.table ? { TableName: answer.table } : {}), Error: { Code: BATCH_ERRORS[type] || 'InternalServerError', Message: data.message || '' } })
      continue
    }
    responses.push({ TableName: answer.table, ...(data.Items.length ? { Item: data.Items[0] } : {}) })
    if (data.ConsumedCapacity) {
      consumed.set(answer.table, (consumed.get(answer.table) || 0) + data.ConsumedCapacity.CapacityUnits)
    }
  }
  const out = { Responses: responses }
  if (ctx.data.ReturnConsumedCapacity !== undefined && ctx.data.ReturnConsumedCapacity !== 'NONE') {
    out.ConsumedCapacity = [...consumed].map(([TableName, CapacityUnits]) => ({ TableName, CapacityUnits }))
  }
  send(ctx.res, 200, headers, out)
}

module.exports = { executeStatement, batchExecuteStatement, parse, plan }
