#!/usr/bin/env node
// The local engine: the pinned dynalite behind a guard that keeps web pages out and enforces DynamoDB's
// per-partition limits.
//
// dynalite answers any origin (Access-Control-Allow-Origin: *) and accepts any signature, so a page the developer
// opens could find its port and read or delete every tenant's items. Here a request that carries an Origin header
// (every browser fetch across origins does, and every preflight), or whose Host is not a loopback address
// (DNS rebinding), is refused with 403 before dynalite sees it, and no CORS header is ever sent. SDK clients
// send neither an Origin nor a foreign Host, so they never notice.
//
// dynalite never throttles; DynamoDB does, per partition (engine/heat.js, engine/guard.js): R read and W write
// units per second per partition key value (the runner passes DynamoDB's, 3,000 and 1,000), which --partition-limits
// scales (1, the default: as they are; 0: off; 0.05: every limit / 20, so that a 2-core machine can reach them).
// GET /_oneread/heat reports every partition key value touched since start, with its consumed units, its offered
// units (consumed, plus what each refused request would have consumed: a key asked for 143 units a second against a
// limit of 100 is offered 143% and consumes at most 100%), admitted requests and throttles by reason;
// ?table=NAME reports that table's partitions (and its indexes') only, as the console reads it every second.
// DynamoDB updates a global secondary index asynchronously; dynalite, inside the write. --index-lag MS (default 500;
// 0: off) answers every Query and Scan of a global secondary index as the table stood MS milliseconds ago
// (engine/lag.js): a reader of an index may see a deleted item, an item under its old index key, or miss a new one.
// dynalite has no PartiQL; the guard translates ExecuteStatement's (and BatchExecuteStatement's) SELECT, INSERT,
// UPDATE and DELETE into the call DynamoDB makes for each, served as that call is (engine/partiql.js,
// docs/decisions/0004-partiql-in-the-guard.md).
// GET /_oneread/engine reports the engine's own state: the store iterators open now (0 between requests).
// GET /_oneread/changes?after=SEQ&limit=N is the change feed (engine/changes.js), DynamoDB Streams' NEW_AND_OLD_IMAGES
// view of every write served, the newest 10,000 kept: {"first": the oldest sequence number kept, "last": the newest,
// "records": [{"seq", "at" (epoch ms), "table", "operation", "eventName" (INSERT, MODIFY, REMOVE), "keys", "oldImage",
// "newImage", "signer" (the access key the write was signed with, null unsigned), "request" (the guard's number of
// the request: a BatchWriteItem's records share it), "units" (the write units the item's write consumed, its index
// writes included)}]}, images in DynamoDB JSON or null, at most N (1,000 at most) records after SEQ, oldest first. A reader
// whose SEQ + 1 is below "first" missed records. These reports follow the same rules as every request: no Origin,
// a loopback Host.
//
// Usage: node engine.js --port N [--host 127.0.0.1] [--path DIR] [--createTableMs 0] [--exit-with-stdin]
//                       --partition-read-units R --partition-write-units W [--partition-limits SCALE]
//                       [--index-lag MS]
'use strict'

const http = require('http')
const argv = require('minimist')(process.argv.slice(2))
const fs = require('fs')
const path = require('path')
// Before dynalite: it closes the store iterators dynalite leaves open (engine/iterators.js).
const { openIterators } = require('./engine/iterators')
const dynalite = require('dynalite')
const { Heat } = require('./engine/heat')
const { Changes } = require('./engine/changes')
const { PartitionGuard } = require('./engine/guard')
const { IndexLag, DEFAULT_LAG_MS } = require('./engine/lag')
const { send } = require('./engine/inner')

const port = Number(argv.port)
const host = argv.host || '127.0.0.1'
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error('engine.js: --port must be a port number')
  process.exit(2)
}

const scale = argv['partition-limits'] === undefined ? 1 : Number(argv['partition-limits'])
if (!Number.isFinite(scale) || scale < 0) {
  console.error('engine.js: --partition-limits must be a number >= 0 (1 = DynamoDB\'s limits, 0 = off)')
  process.exit(2)
}

// DynamoDB's per-partition limits, as the Java side declares them once (PartitionCapacity.DYNAMODB): never written here.
const capacity = { read: Number(argv['partition-read-units']), write: Number(argv['partition-write-units']) }
if (!(capacity.read > 0) || !(capacity.write > 0)) {
  console.error('engine.js: --partition-read-units and --partition-write-units must be numbers > 0 (DynamoDB\'s: DynaliteEngine passes them)')
  process.exit(2)
}

const lagMs = argv['index-lag'] === undefined ? DEFAULT_LAG_MS : Number(argv['index-lag'])
if (!Number.isInteger(lagMs) || lagMs < 0) {
  console.error('engine.js: --index-lag must be a whole number of milliseconds >= 0 (0 = off)')
  process.exit(2)
}

// dynalite's own server is never bound: its request handler serves what the guard lets through.
const engine = dynalite(argv)
const heat = new Heat(scale, capacity)
const changes = new Changes()
// Tables' OnDemandThroughput caps, which dynalite drops: kept beside a persisted store so that they outlive a restart.
const capsFile = argv.path ? path.join(String(argv.path), 'oneread-engine-caps.json') : null
const partitions = new PartitionGuard(engine, heat, {
  load () {
    try { return capsFile ? JSON.parse(fs.readFileSync(capsFile, 'utf8')) : {} } catch { return {} }
  },
  save (caps) {
    if (capsFile) fs.writeFileSync(capsFile, JSON.stringify(caps))
  },
}, changes, new IndexLag(engine, lagMs))
const HEAT_PATH = '/_oneread/heat'
const ENGINE_PATH = '/_oneread/engine'
const CHANGES_PATH = '/_oneread/changes'
const MAX_REQUEST_BYTES = 16 * 1024 * 1024
// A loopback name, on any port: a rebinding page's Host is its own domain name, never one of these, and a
// loopback proxy in front of the engine (the tests' latency proxy) forwards the Host of its own port.
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i

const REPORTS = new Map([
  [HEAT_PATH, (url) => heat.snapshot(new URL(url, 'http://engine').searchParams.get('table'))],
  [ENGINE_PATH, () => ({ openIterators: openIterators() })],
  [CHANGES_PATH, (url) => changes.report(url)],
])

function refuse (res, why) {
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#AccessDeniedException',
    message: `the oneread local engine refuses ${why}`,
  })
  res.writeHead(403, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

const guard = http.createServer((req, res) => {
  if (req.headers.origin !== undefined) return refuse(res, 'requests from web pages (an Origin header)')
  if (!LOOPBACK_HOST.test(req.headers.host || '')) return refuse(res, 'requests for another host (Host must be a loopback address)')
  if (req.method === 'OPTIONS') return refuse(res, 'CORS preflights')
  const report = req.method === 'GET' && REPORTS.get(req.url.split('?')[0])
  if (report) {
    const body = JSON.stringify(report(req.url))
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' })
    return res.end(body)
  }
  if (req.method !== 'POST') {
    const setHeader = res.setHeader.bind(res)
    res.setHeader = (name, value) => (/^access-control-/i.test(name) ? res : setHeader(name, value))
    return engine.emit('request', req, res)
  }
  const chunks = []
  let size = 0
  req.on('data', (chunk) => {
    size += chunk.length
    if (size <= MAX_REQUEST_BYTES) chunks.push(chunk)
  })
  req.on('end', () => {
    // As dynalite does: a body over DynamoDB's 16 MB request limit is refused with an empty 413.
    if (size > MAX_REQUEST_BYTES) return send(res, 413, {}, '')
    partitions.serve(req.headers, Buffer.concat(chunks).toString('utf8'), res).catch((err) => {
      console.error('engine.js: %s', err && err.stack)
      if (!res.headersSent) {
        send(res, 500, {}, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' })
      }
    })
  })
})

guard.listen(port, host, () => {
  // The line DynaliteEngine waits for, as dynalite's own cli.js prints it.
  console.log('Dynalite listening at: http://%s:%s', host, guard.address().port)
})

function stop () {
  guard.close()
  engine.close(() => process.exit(0))
  setTimeout(() => process.exit(0), 1000).unref()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)

// --exit-with-stdin: stdin is a pipe from the runner, which never writes to it nor closes it. A kill -9 of the
// runner sends the engine no signal (its shutdown hook never runs), but it closes the runner's end of the pipe:
// stdin ends, and the engine stops instead of living on as an orphan that holds its port and its data directory.
if (argv['exit-with-stdin']) {
  process.stdin.on('end', stop)
  process.stdin.on('error', stop)
  process.stdin.resume()
}
