'use strict'
// The index's lag: DynamoDB updates a global secondary index asynchronously, "within 1 second" under normal
// conditions (AWS Knowledge Center, "Why are items missing from my DynamoDB GSI?"; the Developer Guide's
// "Read consistency" page: every read of a GSI is eventually consistent), where dynalite updates it inside the
// write. With --index-lag MS, a reader of an index sees the table as it was MS milliseconds ago: a deleted item
// still listed, an item under its old index key, a new one missing.
//
// How: every table with a global secondary index has a mirror, the same table (name, keys, indexes) in a second
// dynalite of this process, in memory, which no client can reach. Each write the guard serves is copied to the
// mirror MS milliseconds later: the item as that write left it (the change feed's new image), or its removal,
// applied in write order. A Query or Scan with IndexName naming one of the table's global secondary indexes is
// answered by the mirror, so pagination, Limit, filters, ExclusiveStartKey and ConsumedCapacity stay dynalite's
// own, and the guard limits and debits it as before. Table reads, and local secondary indexes (which DynamoDB keeps
// in step with the table), stay on the table.
//
// A mirror is built from the table (a Scan) on its first use in this process: a table that outlives a restart
// (--path) is copied once, and what it held is visible to index readers at once. CreateTable, UpdateTable and
// DeleteTable build the mirror again (empty for a new table, none for a deleted one) before they answer; copies
// still pending for the old one are dropped.
const dynalite = require('dynalite')
const { call } = require('./inner')

/** The index lag when none is asked for: DynamoDB's typical propagation, a fraction of a second (see above). */
const DEFAULT_LAG_MS = 500
/** How often a build asks whether dynalite has finished creating or deleting a table (it does so on a timer). */
const POLL_MS = 5
/** BatchWriteItem's most requests a call, for a mirror's build. */
const BATCH = 25

class IndexLag {
  /**
   * @param table dynalite's server, which holds the tables
   * @param lagMs how long an index trails its table; 0 turns the lag off (every read from the table)
   */
  constructor (table, lagMs) {
    this.table = table
    this.lagMs = lagMs
    this.mirror = lagMs > 0 ? dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 }) : null
    // Table name to the promise of its mirror's latest build; and to its generation, counted up by every table
    // change, which tells a pending copy whether its mirror is still the one it was meant for.
    this.mirrors = new Map()
    this.generations = new Map()
    // The copies not yet applied, oldest first: every one is due lagMs after its write, so the queue is in due order.
    this.pending = []
    this.timer = null
    this.draining = false
  }

  get enabled () { return this.mirror !== null }

  /**
   * The server that answers a request: the mirror for a Query or Scan of a global secondary index, else the table's.
   * schemaOf(): the table's schema (guard.js), or null when there is no such table.
   */
  async server (operation, data, schemaOf) {
    if (!this.enabled || (operation !== 'Query' && operation !== 'Scan') || !data.IndexName) return this.table
    const schema = await schemaOf()
    if (!schema || !schema.indexes.some((i) => i.name === data.IndexName)) return this.table
    await this.ready(schema.name)
    return this.mirror
  }

  /** A served write: `item` (DynamoDB JSON, null when the write removed it) reaches the mirror lagMs from now. */
  written (schema, key, item) {
    if (!this.enabled || !schema.indexes.length) return
    this.pending.push({ due: Date.now() + this.lagMs, name: schema.name, generation: this.generation(schema.name), key, item })
    this.schedule()
  }

  /**
   * A table created, updated or deleted: its mirror is dropped, and built again from the table as it is now (a new
   * table: empty), before the change is answered, so that nothing written after it is visible early.
   */
  async changed (name) {
    if (!this.enabled) return
    this.generations.set(name, this.generation(name) + 1)
    const built = this.rebuild(name)
    try { await built } catch { /* a deleted table: no mirror until it exists again */ }
  }

  generation (name) {
    return this.generations.get(name) || 0
  }

  schedule () {
    if (this.timer || this.draining || !this.pending.length) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.drain()
    }, Math.max(0, this.pending[0].due - Date.now()))
  }

  async drain () {
    this.draining = true
    try {
      while (this.pending.length && this.pending[0].due <= Date.now()) {
        const copy = this.pending.shift()
        if (copy.generation !== this.generation(copy.name)) continue
        try {
          await this.ready(copy.name)
        } catch (err) {
          console.error('engine.js: index lag: %s', err.message)
          continue
        }
        // The mirror may have been dropped meanwhile; the next build copies the table as it is then.
        if (copy.generation !== this.generation(copy.name)) continue
        const answer = copy.item
          ? await call(this.mirror, 'PutItem', { TableName: copy.name, Item: copy.item })
          : await call(this.mirror, 'DeleteItem', { TableName: copy.name, Key: copy.key })
        if (answer.status !== 200) console.error('engine.js: index lag: a copy to %s failed: %j', copy.name, answer.data)
      }
    } finally {
      this.draining = false
      this.schedule()
    }
  }

  /** The DescribeTable answer of `name` on `server` once it satisfies `done`, asking every few milliseconds. */
  async until (server, name, done) {
    for (;;) {
      const described = await call(server, 'DescribeTable', { TableName: name })
      if (done(described)) return described
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  }

  /** The mirror of table `name`, built from the table on first use. */
  ready (name) {
    return this.mirrors.get(name) || this.rebuild(name)
  }

  /** Builds the mirror of `name` again, after any build of it under way: builds of one table never interleave. */
  rebuild (name) {
    const previous = this.mirrors.get(name) || Promise.resolve()
    const built = previous.catch(() => {}).then(() => this.build(name))
    this.mirrors.set(name, built)
    built.catch(() => { if (this.mirrors.get(name) === built) this.mirrors.delete(name) })
    return built
  }

  async build (name) {
    const table = this.table
    await call(this.mirror, 'DeleteTable', { TableName: name })
    // dynalite finishes a DeleteTable and a CreateTable on a timer after answering (0 ms here): wait for each.
    await this.until(this.mirror, name, (described) => described.status !== 200)
    // A table is served once ACTIVE: dynalite creates one on a timer after answering (--createTableMs).
    const described = await this.until(table, name, (d) => d.status !== 200 || d.data.Table.TableStatus !== 'CREATING')
    if (described.status !== 200 || described.data.Table.TableStatus === 'DELETING') {
      throw new Error('index lag: no table ' + name)
    }
    const t = described.data.Table
    if (!(t.GlobalSecondaryIndexes || []).length) return
    const created = await call(this.mirror, 'CreateTable', {
      TableName: name,
      AttributeDefinitions: t.AttributeDefinitions,
      KeySchema: t.KeySchema,
      BillingMode: 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: (t.GlobalSecondaryIndexes || []).map((i) => ({
        IndexName: i.IndexName, KeySchema: i.KeySchema, Projection: i.Projection,
      })),
    })
    if (created.status !== 200) throw new Error('index lag: cannot mirror ' + name + ': ' + JSON.stringify(created.data))
    await this.until(this.mirror, name, (described) => described.status === 200 && described.data.Table.TableStatus === 'ACTIVE')
    let start
    do {
      const page = await call(table, 'Scan', { TableName: name, ConsistentRead: true, ExclusiveStartKey: start })
      if (page.status !== 200) throw new Error('index lag: cannot read ' + name)
      const items = page.data.Items || []
      for (let i = 0; i < items.length; i += BATCH) {
        const requests = items.slice(i, i + BATCH).map((item) => ({ PutRequest: { Item: item } }))
        const written = await call(this.mirror, 'BatchWriteItem', { RequestItems: { [name]: requests } })
        if (written.status !== 200) throw new Error('index lag: cannot copy ' + name)
      }
      start = page.data.LastEvaluatedKey
    } while (start)
  }
}

module.exports = { IndexLag, DEFAULT_LAG_MS }
