'use strict'
// The engine's change feed: DynamoDB Streams' NEW_AND_OLD_IMAGES view, kept in memory for the local console.
//
// Every write the guard lets through to dynalite and dynalite serves (PutItem, UpdateItem, DeleteItem, each item of
// a BatchWriteItem) appends one record: the item before and after, which the guard reads from dynalite itself (reads
// neither limited nor counted, as its other reads). Writes to one item are serialized (lock()), so that no other
// write lands between a write's "before" read, the write and its "after" read: a record's images are that write's.
// A refused, throttled or failed write appends nothing.
//
// Unlike DynamoDB Streams, a write that changes nothing (a put of the same item, a delete where there is no item)
// appends a record too, with equal images (both null for a delete of nothing): the console pairs each write call of
// a request with its record, the n-th call on a key with the n-th record on it.
//
// The feed keeps the newest RING_SIZE records. A reader asks for what came after the last sequence number it saw;
// when the oldest kept record is newer than that plus one, it missed records and must read the table again.

/** The records kept: about 10 MB of small items; a reader polling every 100 ms keeps up with 100,000 writes a second. */
const RING_SIZE = 10000
/** The most records one page of the feed returns. */
const MAX_PAGE = 1000

class Changes {
  constructor (size = RING_SIZE) {
    this.size = size
    this.ring = new Array(size)
    this.last = 0
    // Per item: the promise of the write that holds it, which the next write on it waits for.
    this.locks = new Map()
  }

  /** The oldest sequence number still kept (last + 1 when none is). */
  get first () {
    return Math.max(1, this.last - this.size + 1)
  }

  /**
   * Runs fn() while holding every one of ids (strings naming items), taken in sorted order so that two batches
   * never wait for each other; resolves to what fn returns.
   */
  async lock (ids, fn) {
    const held = []
    try {
      for (const id of [...new Set(ids)].sort()) {
        const previous = this.locks.get(id)
        let release
        const mine = new Promise((resolve) => { release = resolve })
        const chained = previous ? previous.then(() => mine) : mine
        this.locks.set(id, chained)
        held.push({ id, release, chained })
        if (previous) await previous
      }
      return await fn()
    } finally {
      for (const h of held) {
        h.release()
        // The last writer on an item forgets it: the map holds only items being written.
        if (this.locks.get(h.id) === h.chained) this.locks.delete(h.id)
      }
    }
  }

  /**
   * Appends the record of one served write. keys: the item's key attributes, DynamoDB JSON; origin: {signer,
   * request, units}, who sent the write (the access key it signed with, null when unsigned), the guard's number of
   * the request (one BatchWriteItem's records share it) and the write units this item's write consumed, its index
   * writes included.
   */
  append (table, operation, keys, oldImage, newImage, origin = { signer: null, request: 0, units: null }) {
    this.last += 1
    this.ring[this.last % this.size] = {
      seq: this.last,
      at: Date.now(),
      table,
      operation,
      eventName: oldImage ? (newImage ? 'MODIFY' : 'REMOVE') : (newImage ? 'INSERT' : 'REMOVE'),
      keys,
      oldImage: oldImage || null,
      newImage: newImage || null,
      signer: origin.signer,
      request: origin.request,
      units: origin.units,
    }
  }

  /** The records after sequence number `after`, oldest first, at most `limit`; with the range kept. */
  page (after, limit) {
    const from = Math.max(Number.isFinite(after) ? Math.floor(after) + 1 : 1, this.first)
    const count = Math.max(0, Math.min(this.last - from + 1, Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : MAX_PAGE, MAX_PAGE))
    const records = []
    for (let seq = from; seq < from + count; seq++) records.push(this.ring[seq % this.size])
    return { first: this.first, last: this.last, records }
  }

  /** GET /_oneread/changes?after=SEQ&limit=N */
  report (url) {
    const query = new URL(url, 'http://engine').searchParams
    return this.page(Number(query.get('after') || 0), Number(query.get('limit') || MAX_PAGE))
  }
}

module.exports = { Changes, RING_SIZE, MAX_PAGE }
