'use strict'
// Calls into dynalite's own request handler, in this process, without a socket: the guard needs to read a request's
// body before dynalite sees it (to force ReturnConsumedCapacity, to find the partition key), to rewrite the answer
// after (to strip what the client did not ask for), and to send dynalite requests of its own (the item a write
// replaces, a table's key schema). dynalite's index.js exports only a server, not its store, so every call goes
// through that server's 'request' handler with a synthetic request and response: the same validation, the same
// store, the same answers a client would get, and no reliance on dynalite's internals.
const { EventEmitter } = require('events')
const crc32 = require('buffer-crc32')

const TARGET_PREFIX = 'DynamoDB_20120810.'
// What dynalite checks before it runs an action: a target, a content type, and an AWS4 Authorization header with a
// date (it never verifies the signature). The guard's own calls carry these; a client's calls carry their own.
const INTERNAL_HEADERS = Object.freeze({
  'content-type': 'application/x-amz-json-1.0',
  authorization: 'AWS4-HMAC-SHA256 Credential=oneread-engine/20200101/us-east-1/dynamodb/aws4_request, ' +
    'SignedHeaders=host;x-amz-date, Signature=0',
  'x-amz-date': '20200101T000000Z',
  host: '127.0.0.1',
})

/** One answer of dynalite's: HTTP status, the headers it set (lower-case names), the body text. */
function exchange (server, headers, body) {
  return new Promise((resolve) => {
    const req = new EventEmitter()
    req.method = 'POST'
    req.url = '/'
    req.headers = headers
    const res = {
      statusCode: 200,
      headers: {},
      setHeader (name, value) { this.headers[name.toLowerCase()] = value; return this },
      end (text) { resolve({ status: this.statusCode, headers: this.headers, body: text === undefined ? '' : String(text) }) },
    }
    server.emit('request', req, res)
    req.emit('data', Buffer.from(body, 'utf8'))
    req.emit('end')
  })
}

/** The guard's own call: an operation and its input, answered as {status, data}. */
async function call (server, operation, input) {
  const answer = await exchange(server, { ...INTERNAL_HEADERS, 'x-amz-target': TARGET_PREFIX + operation },
    JSON.stringify(input))
  let data
  try { data = answer.body ? JSON.parse(answer.body) : {} } catch { data = {} }
  return { status: answer.status, data }
}

/** Writes an answer to a client, with the checksum the SDK verifies (x-amz-crc32) computed on the body sent. */
function send (res, status, headers, data) {
  const body = typeof data === 'string' ? data : JSON.stringify(data)
  const out = {
    'Content-Type': headers['content-type'] || 'application/x-amz-json-1.0',
    'Content-Length': Buffer.byteLength(body, 'utf8'),
    'x-amz-crc32': crc32.unsigned(body),
  }
  if (headers['x-amzn-requestid']) out['x-amzn-RequestId'] = headers['x-amzn-requestid']
  res.writeHead(status, out)
  res.end(body)
}

module.exports = { exchange, call, send, TARGET_PREFIX }
