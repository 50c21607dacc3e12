'use strict'
// Capacity units as DynamoDB counts them, for what dynalite does not report: the write units a table write costs
// each global secondary index, and a Query that reads nothing.
//
// DynamoDB Developer Guide, "Provisioned throughput considerations for global secondary indexes"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes):
// a table write that puts an item into an index costs one index write; one that changes an indexed key attribute
// costs two (a delete of the old index entry, a put of the new); one that removes the item from the index costs one
// delete; one that changes only projected attributes costs one; an item in the index neither before nor after costs
// nothing. Each is sized on the index entry (the projected item), 1 KB per unit. Reads: 4 KB per unit, halved for
// an eventually consistent read, and a Query is charged at least one read even when it returns nothing.
const { itemSize } = require('dynalite/db')

const WRITE_UNIT_BYTES = 1024
const READ_UNIT_BYTES = 4096

/** A key attribute's value as text, for a partition's name: a string as it is, a number's digits, a binary's base64. */
function keyText (value) {
  if (!value || typeof value !== 'object') return null
  const v = value.S !== undefined ? value.S : value.N !== undefined ? value.N : value.B
  return typeof v === 'string' ? v : null
}

function writeUnits (item) {
  return item ? Math.max(1, Math.ceil(itemSize(item) / WRITE_UNIT_BYTES)) : 0
}

function readUnits (item, consistent) {
  const units = item ? Math.max(1, Math.ceil(itemSize(item) / READ_UNIT_BYTES)) : 1
  return consistent ? units : units / 2
}

/** The least a read request is charged: one read (half of one when eventually consistent). */
function minimumRead (consistent) {
  return consistent ? 1 : 0.5
}

/** A table write's own units: the larger of the item it replaces and the item it leaves, at least 1. */
function tableWriteUnits (oldItem, newItem) {
  return Math.max(1, writeUnits(oldItem), writeUnits(newItem))
}

/** JSON with object keys sorted: two images of one item compare equal whatever order their attributes came in. */
function canonical (value) {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']'
  if (value && typeof value === 'object') {
    return '{' + Object.keys(value).sort().map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}'
  }
  return JSON.stringify(value)
}

/** The item's entry in an index: its partition key value and projected attributes, or null when it is not in it. */
function indexEntry (index, table, item) {
  if (!item || !index.keys.every((k) => item[k] != null)) return null
  let projected = item
  if (index.projection.ProjectionType !== 'ALL') {
    projected = {}
    for (const a of new Set([...index.keys, ...table.keys, ...(index.projection.NonKeyAttributes || [])])) {
      if (item[a] !== undefined) projected[a] = item[a]
    }
  }
  return { key: keyText(item[index.keys[0]]), indexKey: index.keys.map((k) => canonical(item[k])).join('\u0000'), projected }
}

/** The index partitions an item occupies, old and new images together: a write's back-pressure sources. */
function indexPartitions (table, items) {
  const out = []
  for (const index of table.indexes) {
    for (const item of items) {
      const e = indexEntry(index, table, item)
      if (e && !out.some((o) => o.index === index && o.key === e.key)) out.push({ index, key: e.key })
    }
  }
  return out
}

/** The index writes a table write costs: [{index, key, units}], as the Developer Guide counts them. */
function indexWrites (table, oldItem, newItem) {
  const out = []
  for (const index of table.indexes) {
    const before = indexEntry(index, table, oldItem)
    const after = indexEntry(index, table, newItem)
    if (before && after && before.indexKey === after.indexKey) {
      if (canonical(before.projected) !== canonical(after.projected)) {
        out.push({ index, key: after.key, units: writeUnits(after.projected) })
      }
      continue
    }
    if (before) out.push({ index, key: before.key, units: writeUnits(before.projected) })
    if (after) out.push({ index, key: after.key, units: writeUnits(after.projected) })
  }
  return out
}

/**
 * The ConsumedCapacity DynamoDB reports for the writes of one table in one request (a single write, or a batch's
 * items of that table): CapacityUnits is the total, the index writes included; with INDEXES, the table's own units
 * and each written index's as well. tableUnits: the table's own units; writes: their indexWrites, concatenated.
 */
function writeCapacity (tableName, mode, tableUnits, writes) {
  const perIndex = new Map()
  for (const w of writes) perIndex.set(w.index.name, (perIndex.get(w.index.name) || 0) + w.units)
  const indexUnits = [...perIndex.values()].reduce((a, b) => a + b, 0)
  const out = { TableName: tableName, CapacityUnits: tableUnits + indexUnits }
  if (mode === 'INDEXES') {
    out.Table = { CapacityUnits: tableUnits }
    if (perIndex.size) {
      out.GlobalSecondaryIndexes = {}
      for (const [name, units] of perIndex) out.GlobalSecondaryIndexes[name] = { CapacityUnits: units }
    }
  }
  return out
}

/**
 * A Query's ConsumedCapacity, raised to the minimum read DynamoDB bills a Query that reads nothing (dynalite
 * reports 0): on the index it read when it read one, else on the table.
 */
function withMinimumRead (consumed, indexName, consistent) {
  const minimum = minimumRead(consistent)
  if (!consumed || consumed.CapacityUnits >= minimum) return consumed
  const out = { ...consumed, CapacityUnits: minimum }
  if (indexName && out.GlobalSecondaryIndexes) {
    out.GlobalSecondaryIndexes = { ...out.GlobalSecondaryIndexes, [indexName]: { CapacityUnits: minimum } }
  } else if (out.Table) {
    out.Table = { CapacityUnits: minimum }
  }
  return out
}

module.exports = {
  canonical, keyText, readUnits, minimumRead, tableWriteUnits, indexPartitions, indexWrites, writeCapacity, withMinimumRead,
}
