'use strict'
// The partition limits: every data operation goes through here on its way to dynalite.
//
// A request names the partitions it addresses (a table partition key value, an index's, and for a write the index
// partitions its old and new images occupy); it is refused, as DynamoDB refuses it, while one of their buckets (or
// the table's or an index's OnDemandThroughput cap) is in debt; once dynalite has served it, each is debited by what
// it consumed.
// dynalite is always asked for its ConsumedCapacity (TOTAL), and the field is removed from the answer when the
// client did not ask for it. What dynalite does not report is computed as DynamoDB computes it (capacity.js) and put
// into the answer: a write's index write units (the total, and per index for INDEXES), and the minimum read of a
// Query that reads nothing.
//
// Scan is not limited per partition: one Scan page walks many partition key values in hash order, and the only Scan
// in oneread is the index backfill job, which paces itself (JobPartitionShare). It counts against the table's caps.
//
// Old and new images: a write's back-pressure and its index write units depend on the index entries of the item it
// replaces and of the item it leaves, which neither the request nor dynalite's answer carries, so the guard reads
// them (a consistent GetItem, or one BatchGetItem for a BatchWriteItem, sent to dynalite directly, never limited nor
// counted) before and after the write, holding the item (changes.lock) from the first read to the last: every write
// to an item comes through here, so no other write lands between them, and the images are exactly this write's.
const { call, exchange, send, TARGET_PREFIX } = require('./inner')
const { reason, throttleError, KEY_RANGE, MAX_ON_DEMAND, THROTTLE_STATUS } = require('./throttling')
const { count } = require('./heat')
const { executeStatement, batchExecuteStatement } = require('./partiql')
const {
  canonical, keyText, readUnits, minimumRead, tableWriteUnits, indexPartitions, indexWrites, writeCapacity, withMinimumRead,
} = require('./capacity')

const ASKED = new Set(['TOTAL', 'INDEXES'])
const CONDITION_FAILED = /#ConditionalCheckFailedException$/
const CREDENTIAL = /Credential=([^/,\s]+)\//

class PartitionGuard {
  /**
   * @param server dynalite's server (its 'request' handler is called in process)
   * @param heat the partitions' buckets and counters
   * @param caps {load(): {table: OnDemandThroughput}, save(map)}: where the tables' caps outlive a restart (an
   *   index's under the table's, in Indexes: {name: OnDemandThroughput})
   * @param changes the change feed (changes.js), which every served write appends to
   * @param lag the index's lag (lag.js): which server answers an index read, and what each write leaves there
   */
  constructor (server, heat, caps, changes, lag) {
    this.server = server
    this.lag = lag
    this.heat = heat
    this.caps = caps
    this.changes = changes
    this.schemas = new Map()
    this.requests = 0
    for (const [table, saved] of Object.entries(caps.load())) {
      const { Indexes, ...onDemand } = saved || {}
      heat.setCaps(table, Object.keys(onDemand).length ? onDemand : null)
      for (const [index, indexOnDemand] of Object.entries(Indexes || {})) heat.setIndexCaps(table, index, indexOnDemand)
    }
  }

  /** Serves one client request whose body has been read. */
  async serve (headers, body, res) {
    const operation = String(headers['x-amz-target'] || '').startsWith(TARGET_PREFIX)
      ? headers['x-amz-target'].slice(TARGET_PREFIX.length) : null
    const handler = operation && HANDLERS[operation]
    let data = null
    try { data = handler ? JSON.parse(body) : null } catch { data = null }
    if (!handler || !data || typeof data !== 'object') return this.passThrough(headers, body, res)
    const ctx = { headers, res, data, asked: ASKED.has(data.ReturnConsumedCapacity), origin: this.origin(headers) }
    ctx.server = await this.lag.server(operation, data, () => this.schema(data.TableName))
    const done = await handler.call(this, ctx)
    if (done === PASS) return this.passThrough(headers, body, res)
  }

  /**
   * Who sent a request, as its change records name it: the access key of its signature (SigV4's Credential=; null
   * when unsigned), which tells start-api's functions (each signs with a key of its own, runner/IamFront), the
   * runner's own client and any other client (the aws CLI, an SDK) apart; and a number per request, shared by the
   * records of one call (a BatchWriteItem's items).
   */
  origin (headers) {
    const credential = CREDENTIAL.exec(String(headers.authorization || ''))
    this.requests += 1
    return { signer: credential ? credential[1] : null, request: this.requests }
  }

  async passThrough (headers, body, res) {
    const answer = await exchange(this.server, headers, body)
    send(res, answer.status, answer.headers, answer.body)
  }

  /** Sends the client's (possibly rewritten) request to dynalite: {status, headers, data}. */
  async run (ctx, data, forceCapacity) {
    const input = forceCapacity && !ctx.asked ? { ...data, ReturnConsumedCapacity: 'TOTAL' } : data
    const answer = await exchange(ctx.server, ctx.headers, JSON.stringify(input))
    let out
    try { out = JSON.parse(answer.body) } catch { out = null }
    return { status: answer.status, headers: answer.headers, data: out, body: answer.body }
  }

  reply (ctx, answer) {
    if (answer.data && !ctx.asked && answer.status === 200) delete answer.data.ConsumedCapacity
    send(ctx.res, answer.status, answer.headers, answer.data || answer.body)
  }

  throttle (ctx, reasons) {
    send(ctx.res, THROTTLE_STATUS, {}, throttleError(reasons))
  }

  /** The table's key schema and indexes, from dynalite's DescribeTable; null when there is no such table. */
  async schema (name) {
    if (typeof name !== 'string') return null
    if (this.schemas.has(name)) return this.schemas.get(name)
    const { status, data } = await call(this.server, 'DescribeTable', { TableName: name })
    if (status !== 200) return null
    const t = data.Table
    const keysOf = (ks) => [ks.find((k) => k.KeyType === 'HASH'), ks.find((k) => k.KeyType === 'RANGE')]
      .filter(Boolean).map((k) => k.AttributeName)
    const schema = {
      name,
      arn: t.TableArn,
      keys: keysOf(t.KeySchema),
      indexes: (t.GlobalSecondaryIndexes || []).map((i) => ({
        name: i.IndexName, arn: i.IndexArn, keys: keysOf(i.KeySchema), projection: i.Projection || { ProjectionType: 'ALL' },
      })),
    }
    this.schemas.set(name, schema)
    return schema
  }

  /**
   * The reasons a request must be refused now, or null. checks: [{partition, index, op, units}], units being what
   * the request would consume there (counted as offered to the partition when it is refused); caps: [op].
   */
  refusal (schema, checks, capOps, pending) {
    if (!this.heat.enforced) return null
    const debt = (bucket) => {
      if (!bucket) return false
      bucket.refill()
      return bucket.tokens - ((pending && pending.get(bucket)) || 0) <= 0
    }
    const table = this.heat.table(schema.name)
    const capped = [...new Set(capOps)].filter((op) => debt(table.caps[op]))
      .map((op) => ({ reason: reason(false, op, MAX_ON_DEMAND), resource: schema.arn, counters: table.throttled }))
    // An index's own cap: a Query on it, or a table write that writes it (back-pressure, as for a hot key).
    for (const c of checks) {
      const caps = c.index && table.indexCaps[c.index.name]
      const r = { reason: reason(c.index, c.op, MAX_ON_DEMAND), resource: c.index && c.index.arn, counters: table.throttled }
      if (caps && debt(caps[c.op]) && !capped.some((o) => o.reason === r.reason && o.resource === r.resource)) capped.push(r)
    }
    const hot = checks.filter((c) => debt(c.partition.buckets[c.op]))
      .map((c) => ({ reason: reason(c.index, c.op, KEY_RANGE), resource: c.index ? c.index.arn : schema.arn, counters: c.partition.throttled }))
    const reasons = capped.length ? capped : hot
    if (!reasons.length) return null
    for (const r of reasons) count(r.counters, r.reason)
    for (const c of checks) c.partition.offered[c.op] += c.units
    return reasons
  }

  /**
   * Debits an admitted request's consumption: on its partition (counted as one request) and on the table's cap.
   * With pending, only reserves it (a BatchWriteItem's items, until dynalite has served them).
   */
  debit (schema, partition, op, units, pending) {
    if (!pending) {
      partition.consumed[op] += units
      partition.offered[op] += units
      partition.requests[op] += 1
    }
    if (partition.buckets) this.take(partition.buckets[op], units, pending)
    if (this.heat.enforced) this.take(this.heat.table(schema.name).caps[op], units, pending)
    if (partition.index) this.takeIndexCap(schema, partition.index, op, units, pending)
  }

  takeIndexCap (schema, indexName, op, units, pending) {
    const caps = this.heat.enforced && this.heat.table(schema.name).indexCaps[indexName]
    if (caps) this.take(caps[op], units, pending)
  }

  take (bucket, units, pending) {
    if (!bucket) return
    if (pending) pending.set(bucket, (pending.get(bucket) || 0) + units)
    else bucket.debit(units)
  }

  partition (schema, index, key) {
    return this.heat.partition(schema.name, index ? index.name : null, key)
  }

  /**
   * The checks of a write: its table partition, and the index partitions of its images (back-pressure), each with
   * the units the write would cost there (an index partition's: the index writes of the images, at least one).
   */
  writeChecks (schema, key, oldItem, newItem) {
    const checks = [{ partition: this.partition(schema, null, key), index: null, op: 'write', units: tableWriteUnits(oldItem, newItem) }]
    const writes = indexWrites(schema, oldItem, newItem)
    for (const { index, key: indexKey } of indexPartitions(schema, [oldItem, newItem].filter(Boolean))) {
      const units = writes.filter((w) => w.index.name === index.name && w.key === indexKey).reduce((sum, w) => sum + w.units, 0)
      checks.push({ partition: this.partition(schema, index, indexKey), index, op: 'write', units: Math.max(1, units) })
    }
    return checks
  }

  /**
   * A read's check. What a refused read would have consumed is unknown (the item was not read): the partition's
   * mean per admitted read, or the least a read costs when it admitted none.
   */
  readCheck (partition, index, consistent) {
    const { consumed, requests } = partition
    const units = requests.read > 0 ? consumed.read / requests.read : minimumRead(consistent)
    return { partition, index, op: 'read', units }
  }

  /** Debits a served table write: its own units on its partition, and each of its index writes on that partition. */
  debitWrite (schema, key, units, writes, pending) {
    this.debit(schema, this.partition(schema, null, key), 'write', units, pending)
    for (const w of writes) {
      const p = this.partition(schema, w.index, w.key)
      if (!pending) {
        p.consumed.write += w.units
        p.offered.write += w.units
        p.requests.write += 1
      }
      if (p.buckets) this.take(p.buckets.write, w.units, pending)
      this.takeIndexCap(schema, w.index.name, 'write', w.units, pending)
    }
  }

  async item (schema, key) {
    const { status, data } = await call(this.server, 'GetItem', { TableName: schema.name, Key: key, ConsistentRead: true })
    return status === 200 ? data.Item || null : null
  }

  /** A table created, updated or deleted: its schema is read again, and its index mirror built again (lag.js). */
  async invalidate (name) {
    this.schemas.delete(name)
    await this.lag.changed(name)
  }

  saveCaps () {
    const map = {}
    for (const t of this.heat.tables.values()) {
      const indexes = Object.keys(t.indexOnDemand).length ? { Indexes: { ...t.indexOnDemand } } : {}
      if (t.onDemand || indexes.Indexes) map[t.table] = { ...(t.onDemand || {}), ...indexes }
    }
    this.caps.save(map)
  }
}

const PASS = Symbol('pass through')

function keyOf (schema, item) {
  if (!item || typeof item !== 'object') return null
  const key = {}
  for (const k of schema.keys) {
    if (!item[k]) return null
    key[k] = item[k]
  }
  return key
}

/** A BatchWriteItem request's item (a put) or key (a delete); null when it is neither. */
function batchImage (request) {
  return request && (request.PutRequest ? request.PutRequest.Item : request.DeleteRequest ? request.DeleteRequest.Key : null)
}

/** One item of one table, as the change feed's locks name it. */
function itemId (schema, key) {
  return schema.name + '\u0000' + canonical(key)
}

function escape (text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The partition key value a Query addresses: from KeyConditions, or the equality on the hash key in its expression. */
function queryKey (data, hashAttribute) {
  if (data.KeyConditions) {
    const c = data.KeyConditions[hashAttribute]
    return c && Array.isArray(c.AttributeValueList) ? keyText(c.AttributeValueList[0]) : null
  }
  const expression = data.KeyConditionExpression
  if (typeof expression !== 'string') return null
  const names = data.ExpressionAttributeNames || {}
  const aliases = [hashAttribute, ...Object.keys(names).filter((n) => names[n] === hashAttribute)]
  for (const alias of aliases) {
    const a = escape(alias)
    const match = new RegExp(`(?<![\\w#:.])${a}\\s*=\\s*(:\\w+)`).exec(expression) ||
      new RegExp(`(:\\w+)\\s*=\\s*${a}(?![\\w])`).exec(expression)
    if (match) return keyText((data.ExpressionAttributeValues || {})[match[1]])
  }
  return null
}

const HANDLERS = {
  async GetItem (ctx) {
    const schema = await this.schema(ctx.data.TableName)
    const key = schema && keyText((ctx.data.Key || {})[schema.keys[0]])
    if (key === null || !schema) return PASS
    const partition = this.partition(schema, null, key)
    const refused = this.refusal(schema, [this.readCheck(partition, null, ctx.data.ConsistentRead)], ['read'])
    if (refused) return this.throttle(ctx, refused)
    const answer = await this.run(ctx, ctx.data, true)
    if (answer.status === 200) {
      const consumed = answer.data.ConsumedCapacity
      this.debit(schema, partition, 'read', consumed ? consumed.CapacityUnits : readUnits(answer.data.Item, ctx.data.ConsistentRead))
    }
    this.reply(ctx, answer)
  },

  async Query (ctx) {
    const schema = await this.schema(ctx.data.TableName)
    if (!schema) return PASS
    const index = ctx.data.IndexName ? schema.indexes.find((i) => i.name === ctx.data.IndexName) : null
    if (ctx.data.IndexName && !index) return PASS
    const key = queryKey(ctx.data, (index || schema).keys[0])
    if (key === null) return PASS
    const partition = this.partition(schema, index, key)
    const refused = this.refusal(schema, [this.readCheck(partition, index, ctx.data.ConsistentRead)], ['read'])
    if (refused) return this.throttle(ctx, refused)
    const answer = await this.run(ctx, ctx.data, true)
    if (answer.status === 200) {
      // dynalite bills a Query that reads nothing 0 units; DynamoDB charges at least one read.
      answer.data.ConsumedCapacity = withMinimumRead(answer.data.ConsumedCapacity, ctx.data.IndexName, ctx.data.ConsistentRead)
      const consumed = answer.data.ConsumedCapacity ? answer.data.ConsumedCapacity.CapacityUnits : 0
      this.debit(schema, partition, 'read', Math.max(consumed, minimumRead(ctx.data.ConsistentRead)))
    }
    this.reply(ctx, answer)
  },

  async Scan (ctx) {
    const schema = await this.schema(ctx.data.TableName)
    if (!schema) return PASS
    const refused = this.refusal(schema, [], ['read'])
    if (refused) return this.throttle(ctx, refused)
    const answer = await this.run(ctx, ctx.data, true)
    if (answer.status === 200 && answer.data.ConsumedCapacity && this.heat.enforced) {
      this.take(this.heat.table(schema.name).caps.read, answer.data.ConsumedCapacity.CapacityUnits)
    }
    this.reply(ctx, answer)
  },

  async PutItem (ctx) {
    return write.call(this, ctx, 'PutItem', ctx.data.Item)
  },

  async UpdateItem (ctx) {
    return write.call(this, ctx, 'UpdateItem', ctx.data.Key)
  },

  async DeleteItem (ctx) {
    return write.call(this, ctx, 'DeleteItem', ctx.data.Key)
  },

  async BatchWriteItem (ctx) {
    const requestItems = ctx.data.RequestItems
    if (!requestItems || typeof requestItems !== 'object') return PASS
    // Every item of the batch held from its image read to the write: its change record is this batch's.
    const ids = []
    for (const [table, requests] of Object.entries(requestItems)) {
      const schema = await this.schema(table)
      for (const request of schema && Array.isArray(requests) ? requests : []) {
        const key = keyOf(schema, batchImage(request))
        if (key) ids.push(itemId(schema, key))
      }
    }
    return this.changes.lock(ids, () => batchWrite.call(this, ctx, requestItems))
  },

  async BatchGetItem (ctx) {
    const requestItems = ctx.data.RequestItems
    if (!requestItems || typeof requestItems !== 'object') return PASS
    const admitted = {}
    const unprocessed = {}
    const reads = []
    const reasons = []
    for (const [table, request] of Object.entries(requestItems)) {
      const schema = await this.schema(table)
      if (!schema || !request || !Array.isArray(request.Keys)) return PASS
      for (const key of request.Keys) {
        const partitionKey = keyText((key || {})[schema.keys[0]])
        if (partitionKey === null) return PASS
        const partition = this.partition(schema, null, partitionKey)
        const refused = this.refusal(schema, [this.readCheck(partition, null, request.ConsistentRead)], ['read'])
        const into = refused ? unprocessed : admitted
        if (!into[table]) into[table] = { ...request, Keys: [] }
        into[table].Keys.push(key)
        if (refused) reasons.push(...refused)
        else reads.push({ schema, table, key, partition, consistent: request.ConsistentRead })
      }
    }
    if (!reads.length) return this.throttle(ctx, distinct(reasons))
    const answer = await this.run(ctx, { ...ctx.data, RequestItems: admitted }, true)
    if (answer.status === 200) {
      debitBatchReads.call(this, reads, answer.data)
      const out = answer.data.UnprocessedKeys || {}
      for (const [table, request] of Object.entries(unprocessed)) {
        out[table] = out[table] ? { ...out[table], Keys: out[table].Keys.concat(request.Keys) } : request
      }
      answer.data.UnprocessedKeys = out
    }
    this.reply(ctx, answer)
  },

  // PartiQL, which dynalite lacks: the statement becomes the call DynamoDB makes for it, served here as a client's.
  async ExecuteStatement (ctx) {
    return executeStatement(ctx, (name) => this.schema(name), (headers, body, res) => this.serve(headers, body, res))
  },

  async BatchExecuteStatement (ctx) {
    return batchExecuteStatement(ctx, (name) => this.schema(name), (headers, body, res) => this.serve(headers, body, res))
  },

  async CreateTable (ctx) {
    return tableChange.call(this, { ...ctx, operation: 'CreateTable' }, 'TableDescription')
  },

  async UpdateTable (ctx) {
    return tableChange.call(this, ctx, 'TableDescription')
  },

  async DeleteTable (ctx) {
    const answer = await this.run(ctx, ctx.data, false)
    if (answer.status === 200) {
      await this.invalidate(ctx.data.TableName)
      this.heat.clearCaps(ctx.data.TableName)
      this.saveCaps()
    }
    this.reply(ctx, answer)
  },

  async DescribeTable (ctx) {
    const answer = await this.run(ctx, ctx.data, false)
    if (answer.status === 200) withCaps(this.heat, answer.data.Table)
    this.reply(ctx, answer)
  },
}

/** PutItem, UpdateItem, DeleteItem: the table partition and the index partitions of the old (and new) image. */
async function write (ctx, operation, keySource) {
  const schema = await this.schema(ctx.data.TableName)
  const key = schema && keyOf(schema, keySource)
  if (!key) return PASS
  // Held from the old image's read to the new one's: no other write to the item lands between them.
  return this.changes.lock([itemId(schema, key)], () => writeHeld.call(this, ctx, operation, schema, key))
}

/** A single write whose item is held: its checks, the write, its capacity, its debit and its change record. */
async function writeHeld (ctx, operation, schema, key) {
  const partitionKey = keyText(key[schema.keys[0]])
  const oldItem = await this.item(schema, key)
  const knownNew = ctx.data.Item || null
  const refused = this.refusal(schema, this.writeChecks(schema, partitionKey, oldItem, knownNew), ['write'])
  if (refused) return this.throttle(ctx, refused)
  const answer = await this.run(ctx, ctx.data, true)
  if (answer.status === 200) {
    // The item as dynalite stored it (a put's numbers normalized: 1.50 is 1.5), as a stream record shows it.
    const newItem = operation === 'DeleteItem' ? null : await this.item(schema, key)
    const units = tableWriteUnits(oldItem, newItem)
    const writes = indexWrites(schema, oldItem, newItem)
    answer.data.ConsumedCapacity = writeCapacity(schema.name, ctx.data.ReturnConsumedCapacity, units, writes)
    this.debitWrite(schema, partitionKey, units, writes)
    this.changes.append(schema.name, operation, key, oldItem, newItem, { ...ctx.origin, units: units + sum(writes) })
    this.lag.written(schema, key, newItem)
  } else if (answer.data && CONDITION_FAILED.test(answer.data.__type || '')) {
    // A write whose condition fails still consumes write capacity: the existing item's size, at least one unit.
    this.debit(schema, this.partition(schema, null, partitionKey), 'write', tableWriteUnits(oldItem, null))
  }
  this.reply(ctx, answer)
}

/** BatchWriteItem, its items held: each item's partitions and old image, then the admitted items in one call. */
async function batchWrite (ctx, requestItems) {
  const pending = new Map()
  const admitted = {}
  const unprocessed = {}
  const served = []
  const reasons = []
  for (const [table, requests] of Object.entries(requestItems)) {
    const schema = await this.schema(table)
    if (!schema || !Array.isArray(requests) || requests.length > 25) return PASS
    const writes = []
    for (const request of requests) {
      const image = batchImage(request)
      const key = keyOf(schema, image)
      if (!key) return PASS
      writes.push({ request, key, item: request.PutRequest ? image : null, partitionKey: keyText(key[schema.keys[0]]) })
    }
    const seen = new Set(writes.map((w) => canonical(w.key)))
    if (seen.size !== writes.length) return PASS // duplicates: dynalite's ValidationException says so
    const old = await call(this.server, 'BatchGetItem', { RequestItems: { [table]: { Keys: writes.map((w) => w.key), ConsistentRead: true } } })
    if (old.status !== 200) return PASS
    const oldItems = new Map(((old.data.Responses || {})[table] || []).map((i) => [canonical(keyOf(schema, i)), i]))
    for (const w of writes) {
      const oldItem = oldItems.get(canonical(w.key)) || null
      const refused = this.refusal(schema, this.writeChecks(schema, w.partitionKey, oldItem, w.item), ['write'], pending)
      if (refused) {
        (unprocessed[table] = unprocessed[table] || []).push(w.request)
        reasons.push(...refused)
        continue
      }
      const units = tableWriteUnits(oldItem, w.item)
      const writes = indexWrites(schema, oldItem, w.item)
      this.debitWrite(schema, w.partitionKey, units, writes, pending)
      ;(admitted[table] = admitted[table] || []).push(w.request)
      served.push({ ...w, schema, units, writes, oldItem })
    }
  }
  // DynamoDB's BatchWriteItem: throttled items come back in UnprocessedItems; only when none could be processed
  // does the call itself fail with the throttling exception.
  if (!served.length) return this.throttle(ctx, distinct(reasons))
  const answer = await this.run(ctx, { ...ctx.data, RequestItems: admitted }, false)
  if (answer.status === 200) {
    // Each item's units again, now from the item as stored: what the reservation above estimated from the request.
    const stored = await storedPuts.call(this, served)
    for (const w of served) {
      const newItem = w.item ? stored.get(itemId(w.schema, w.key)) || w.item : null
      w.units = tableWriteUnits(w.oldItem, newItem)
      w.writes = indexWrites(w.schema, w.oldItem, newItem)
      this.debitWrite(w.schema, w.partitionKey, w.units, w.writes)
      this.changes.append(w.schema.name, 'BatchWriteItem', w.key, w.oldItem, newItem, { ...ctx.origin, units: w.units + sum(w.writes) })
      this.lag.written(w.schema, w.key, newItem)
    }
    // One ConsumedCapacity per table written, its items' units summed, index writes included.
    answer.data.ConsumedCapacity = [...groupBy(served, (w) => w.schema.name)].map(([table, writes]) => writeCapacity(
      table, ctx.data.ReturnConsumedCapacity, writes.reduce((sum, w) => sum + w.units, 0), writes.flatMap((w) => w.writes)))
    const out = answer.data.UnprocessedItems || {}
    for (const [table, requests] of Object.entries(unprocessed)) out[table] = (out[table] || []).concat(requests)
    answer.data.UnprocessedItems = out
  }
  this.reply(ctx, answer)
}

/** A served BatchWriteItem's puts as dynalite stored them (numbers normalized), by itemId: one read a table. */
async function storedPuts (served) {
  const stored = new Map()
  for (const [table, writes] of groupBy(served.filter((w) => w.item), (w) => w.schema.name)) {
    const read = await call(this.server, 'BatchGetItem', { RequestItems: { [table]: { Keys: writes.map((w) => w.key), ConsistentRead: true } } })
    const schema = writes[0].schema
    for (const i of (read.data.Responses || {})[table] || []) stored.set(itemId(schema, keyOf(schema, i)), i)
  }
  return stored
}

/** The units of index writes. */
function sum (writes) {
  return writes.reduce((total, w) => total + w.units, 0)
}

function groupBy (values, keyOf) {
  const groups = new Map()
  for (const v of values) {
    const k = keyOf(v)
    if (!groups.has(k)) groups.set(k, [])
    groups.get(k).push(v)
  }
  return groups
}

/** BatchGetItem's reads: each found item by its size; what is left of the table's total over the keys not matched. */
function debitBatchReads (reads, out) {
  for (const [table, tableReads] of groupBy(reads, (r) => r.table)) {
    const schema = tableReads[0].schema
    const found = new Map(((out.Responses || {})[table] || []).map((i) => [canonical(keyOf(schema, i)), i]))
    const total = ((out.ConsumedCapacity || []).find((c) => c.TableName === table) || {}).CapacityUnits
    let matchedUnits = 0
    const unmatched = []
    for (const r of tableReads) {
      const item = found.get(canonical(r.key))
      if (item) {
        r.units = readUnits(item, r.consistent)
        matchedUnits += r.units
      } else unmatched.push(r)
    }
    const share = unmatched.length
      ? Math.max(total !== undefined ? (total - matchedUnits) / unmatched.length : 0, minimumRead(unmatched[0].consistent)) : 0
    for (const r of tableReads) this.debit(r.schema, r.partition, 'read', r.units !== undefined ? r.units : share)
  }
}

/**
 * CreateTable and UpdateTable: dynalite drops OnDemandThroughput, the table's and its indexes'; the guard keeps them,
 * enforces them and reports them. An index's is read from CreateTable's GlobalSecondaryIndexes only: UpdateTable's
 * GlobalSecondaryIndexUpdates leave an index's caps as they were (EngineDeviations names it).
 */
async function tableChange (ctx, field) {
  const onDemand = ctx.data.OnDemandThroughput
  const indexes = ctx.operation === 'CreateTable' && Array.isArray(ctx.data.GlobalSecondaryIndexes) ? ctx.data.GlobalSecondaryIndexes : []
  const answer = await this.run(ctx, ctx.data, false)
  if (answer.status === 200) {
    await this.invalidate(ctx.data.TableName)
    if (onDemand && typeof onDemand === 'object') {
      const current = this.heat.table(ctx.data.TableName).onDemand || {}
      this.heat.setCaps(ctx.data.TableName, { ...current, ...pickCaps(onDemand) })
    }
    for (const index of indexes) {
      if (index && index.OnDemandThroughput && typeof index.OnDemandThroughput === 'object') {
        this.heat.setIndexCaps(ctx.data.TableName, index.IndexName, pickCaps(index.OnDemandThroughput))
      }
    }
    this.saveCaps()
    withCaps(this.heat, answer.data[field])
  }
  this.reply(ctx, answer)
}

function pickCaps (onDemand) {
  const out = {}
  for (const k of ['MaxReadRequestUnits', 'MaxWriteRequestUnits']) {
    if (Number.isFinite(onDemand[k])) out[k] = onDemand[k]
  }
  return out
}

function withCaps (heat, description) {
  if (!description || !description.TableName) return
  const t = heat.tables.get(description.TableName)
  if (!t) return
  if (t.onDemand) description.OnDemandThroughput = { ...t.onDemand }
  for (const index of description.GlobalSecondaryIndexes || []) {
    if (t.indexOnDemand[index.IndexName]) index.OnDemandThroughput = { ...t.indexOnDemand[index.IndexName] }
  }
}

function distinct (reasons) {
  const seen = new Set()
  return reasons.filter((r) => {
    const id = r.reason + ' ' + r.resource
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

module.exports = { PartitionGuard, queryKey }
