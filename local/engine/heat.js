'use strict'
// The engine's partitions and their buckets, and the heat they report.
//
// DynamoDB serves at most 3,000 read units and 1,000 write units per second from one partition, in on-demand and
// provisioned mode alike (Developer Guide, "Best practices for designing and using partition keys effectively" and
// "Key range throughput exceeded"); a GSI's partitions have the same limits. The engine is told them
// (--partition-read-units, --partition-write-units: DynaliteEngine passes the Java side's one declaration,
// PartitionCapacity.DYNAMODB), and never writes them itself. Here a partition is one partition key
// value of a table or of an index: its bucket refills at limit x scale per second and holds at most one second of
// it, so a burst drains it at once and a steady rate above the limit keeps it in debt. A request is refused while a
// bucket it addresses is in debt; once admitted, it is debited by what it really consumed, which may take the
// bucket below zero (DynamoDB also charges a request whose size it learns only while serving it).
const { performance } = require('perf_hooks')

class Bucket {
  constructor (perSecond) {
    this.perSecond = perSecond
    this.tokens = perSecond
    this.at = performance.now()
  }

  refill () {
    const now = performance.now()
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.at) / 1000) * this.perSecond)
    this.at = now
  }

  inDebt () {
    this.refill()
    return this.tokens <= 0
  }

  debit (units) {
    this.refill()
    this.tokens -= units
  }
}

/** Every partition key value touched since start, per table and index, with its buckets and its counters. */
class Heat {
  /** capacity: {read, write}, DynamoDB's units per second for one partition, before the scale. */
  constructor (scale, capacity) {
    this.scale = scale
    this.capacity = capacity
    this.partitions = new Map()
    this.tables = new Map()
  }

  get enforced () { return this.scale > 0 }

  limits () {
    return this.enforced ? { read: this.capacity.read * this.scale, write: this.capacity.write * this.scale } : null
  }

  /** index: null for the table itself, else the index's name. */
  partition (table, index, key) {
    const id = table + '\u0000' + (index || '') + '\u0000' + key
    let p = this.partitions.get(id)
    if (!p) {
      const limits = this.limits()
      p = {
        table, index: index || null, key,
        buckets: limits ? { read: new Bucket(limits.read), write: new Bucket(limits.write) } : null,
        consumed: { read: 0, write: 0 },
        // What was asked of the partition: consumed, plus what each refused request would have consumed.
        offered: { read: 0, write: 0 },
        requests: { read: 0, write: 0 },
        throttled: {},
      }
      this.partitions.set(id, p)
    }
    return p
  }

  /**
   * A table's record: its caps' buckets (OnDemandThroughput; none when -1 or absent), each index's (indexCaps, by
   * index name: a GSI has an OnDemandThroughput of its own) and its throttle counts.
   */
  table (name) {
    let t = this.tables.get(name)
    if (!t) {
      t = { table: name, caps: { read: null, write: null }, indexOnDemand: {}, indexCaps: {}, throttled: {} }
      this.tables.set(name, t)
    }
    return t
  }

  setCaps (name, onDemand) {
    const t = this.table(name)
    t.onDemand = onDemand
    t.caps = buckets(onDemand)
  }

  /** An index's OnDemandThroughput, or null to take its caps off. */
  setIndexCaps (name, index, onDemand) {
    const t = this.table(name)
    if (onDemand) t.indexOnDemand[index] = onDemand
    else delete t.indexOnDemand[index]
    t.indexCaps[index] = buckets(onDemand)
  }

  /** Takes every cap of a table and of its indexes off (the table was deleted). */
  clearCaps (name) {
    this.setCaps(name, null)
    const t = this.table(name)
    t.indexOnDemand = {}
    t.indexCaps = {}
  }

  /** Every partition's counters; with table, that table's (and its indexes') only. */
  snapshot (table) {
    const of = (t) => !table || t.table === table
    return {
      scale: this.scale,
      at: Date.now(),
      limits: this.limits(),
      partitions: [...this.partitions.values()].filter(of).map((p) => ({
        table: p.table, index: p.index, key: p.key,
        consumed: { ...p.consumed }, offered: { ...p.offered }, requests: { ...p.requests }, throttled: { ...p.throttled },
      })),
      tables: [...this.tables.values()].filter(of).map((t) => ({ table: t.table, throttled: { ...t.throttled } })),
    }
  }
}

/** The read and write buckets of an OnDemandThroughput: none for a cap that is absent or -1 (no maximum). */
function buckets (onDemand) {
  const cap = (units) => (Number.isFinite(units) && units > 0 ? new Bucket(units) : null)
  return { read: cap(onDemand && onDemand.MaxReadRequestUnits), write: cap(onDemand && onDemand.MaxWriteRequestUnits) }
}

function count (counters, reason) {
  counters[reason] = (counters[reason] || 0) + 1
}

module.exports = { Heat, Bucket, count }
