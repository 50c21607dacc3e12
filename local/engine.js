#!/usr/bin/env node
// The local engine: the pinned dynalite behind a guard that keeps web pages out.
//
// dynalite answers any origin (Access-Control-Allow-Origin: *) and accepts any signature, so a page the developer
// opens could find its port and read or delete every tenant's items. Here a request that carries an Origin header
// (every browser fetch across origins does, and every preflight), or whose Host is not a loopback address
// (DNS rebinding), is refused with 403 before dynalite sees it, and no CORS header is ever sent. SDK clients
// send neither an Origin nor a foreign Host, so they never notice.
//
// Usage: node engine.js --port N [--host 127.0.0.1] [--path DIR] [--createTableMs 0] [--exit-with-stdin]
'use strict'

const http = require('http')
const argv = require('minimist')(process.argv.slice(2))
const dynalite = require('dynalite')

const port = Number(argv.port)
const host = argv.host || '127.0.0.1'
if (!Number.isInteger(port) || port <= 0 || port > 65535) {
  console.error('engine.js: --port must be a port number')
  process.exit(2)
}

// dynalite's own server is never bound: its request handler serves what the guard lets through.
const engine = dynalite(argv)
// A loopback name, on any port: a rebinding page's Host is its own domain name, never one of these, and a
// loopback proxy in front of the engine (the tests' latency proxy) forwards the Host of its own port.
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/i

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
  const setHeader = res.setHeader.bind(res)
  res.setHeader = (name, value) => (/^access-control-/i.test(name) ? res : setHeader(name, value))
  engine.emit('request', req, res)
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
