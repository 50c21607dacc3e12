'use strict'
// dynalite 4.0.0 never closes the store iterators its Query and Scan read through, and this closes them.
//
// dynalite turns each abstract-level iterator into a Readable stream whose destroy() calls iterator.return(), but an
// abstract-level 3 iterator has no return(): it has close(). So every Query, Scan and DeleteTable left its iterator
// open: 2 a Query, measured. An open classic-level (LevelDB) iterator holds a snapshot, and while a snapshot is held
// LevelDB's compaction keeps every entry written or deleted after it: deletes pile up as markers that every read
// walks, and the files of every version stay on disk. A 1,000,000-project migration grew its 200 MB store to 2.7 GB
// of files (186 of them live, 1,679 on disk) and slowed from 300 to 154 projects a second in 13 minutes. In memory
// (memory-level), each open iterator pins a version of the tree instead. DynamoDB has no such cost: a Query reads
// a page and is done. The Readable ends (autoDestroy) or is destroyed by dynalite when a page is full, either way
// through destroy(), which now closes the iterator. Required before dynalite, so that its store sees the change.
const { AbstractIterator, AbstractLevel } = require('abstract-level')

// The class every abstract-level iterator (entries, keys, values) extends; the package exports only its subclasses.
const CommonIterator = Object.getPrototypeOf(AbstractIterator.prototype).constructor

if (typeof CommonIterator.prototype.return !== 'function') {
  CommonIterator.prototype.return = function () { return this.close() }
}

// The iterators open now, across every store of this process: GET /_oneread/engine reports the count, so that a
// test sees a leak without timing anything.
const open = new Set()
const attach = AbstractLevel.prototype.attachResource
const detach = AbstractLevel.prototype.detachResource
AbstractLevel.prototype.attachResource = function (resource) {
  if (resource instanceof CommonIterator) open.add(resource)
  return attach.call(this, resource)
}
AbstractLevel.prototype.detachResource = function (resource) {
  open.delete(resource)
  return detach.call(this, resource)
}

module.exports = { openIterators: () => open.size }
