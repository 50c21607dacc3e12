'use strict'
// What DynamoDB answers when it throttles, reason by reason. Sources (checked 2026-12-04):
// - DynamoDB Developer Guide, "Diagnosing throttling"
//   (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/throttling-diagnosing-workflow.html):
//   a reason is <Table|Index><Read|Write><LimitType>; the resource is the table's ARN,
//   arn:aws:dynamodb:<region>:<account>:table/<name>, or the index's, .../table/<name>/index/<index>; its example of
//   a hot partition is a ProvisionedThroughputExceededException with TableWriteKeyRangeThroughputExceeded, and its
//   example of an on-demand maximum is a ThrottlingException, HTTP 400, "Throughput exceeds the maximum
//   OnDemandThroughput configured on table or index", with TableReadMaxOnDemandThroughputExceeded.
// - DynamoDB API Reference, ThrottlingReason (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_ThrottlingReason.html)
//   and DynamoDB's service model (botocore 1.43 data/dynamodb/.../service-2.json, and SDK 2.57.8's generated
//   classes): ProvisionedThroughputExceededException and RequestLimitExceeded carry {message, ThrottlingReasons},
//   but ThrottlingException carries {message, throttlingReasons}, lower-case t; each reason is {reason, resource}.
//   An answer with the other spelling parses, with an empty throttlingReasons().
// - The messages of ProvisionedThroughputExceededException, as DynamoDB words them for a table and for a GSI (quoted
//   in public reports: mozilla-services/autopush#435, grailbio/reflow#101, aws-samples/sample-collaborative-ai-dlc#443
//   on a PAY_PER_REQUEST table's hot partition).
// Every throttle is HTTP 400 with the exception's name in __type; SDK 2.57.8 maps ProvisionedThroughputExceededException
// and ThrottlingException to its classes of those names, parses throttlingReasons(), and counts both as throttling
// in its retry strategies (tests/.../PartitionLimitsTest checks all three).
// Emitted: <Table|Index><Read|Write>KeyRangeThroughputExceeded (a hot partition key value, a table's or an index's)
// and <Table|Index><Read|Write>MaxOnDemandThroughputExceeded (a table's or an index's OnDemandThroughput cap).
// Not emitted: the AccountLimitExceeded reasons (RequestLimitExceeded) and ProvisionedThroughputExceeded (the
// table is on-demand); nor the ThrottlingException form DynamoDB may give a hot key of an on-demand table.

const PREFIX = 'com.amazonaws.dynamodb.v20120810#'

const KEY_RANGE = 'KeyRangeThroughputExceeded'
const MAX_ON_DEMAND = 'MaxOnDemandThroughputExceeded'

const TABLE_KEY_RANGE_MESSAGE = 'The level of configured provisioned throughput for the table was exceeded. ' +
  'Consider increasing your provisioning level with the UpdateTable API.'
const INDEX_KEY_RANGE_MESSAGE = 'The level of configured provisioned throughput for one or more global secondary ' +
  'indexes of the table was exceeded. Consider increasing your provisioning level for the under-provisioned global ' +
  'secondary indexes with the UpdateTable API'
const MAX_ON_DEMAND_MESSAGE = 'Throughput exceeds the maximum OnDemandThroughput configured on table or index'

/** A reason's name: resource (Table or Index), operation (read or write), limit. */
function reason (index, op, limit) {
  return (index ? 'Index' : 'Table') + (op === 'read' ? 'Read' : 'Write') + limit
}

/**
 * The error body for a throttled request, given what threw it: [{reason, resource}], all of one limit type. A cap
 * (MaxOnDemandThroughputExceeded) answers ThrottlingException; a hot partition ProvisionedThroughputExceededException,
 * worded for an index when an index partition is the cause (back-pressure included).
 */
function throttleError (reasons) {
  const capped = reasons.some((r) => r.reason.endsWith(MAX_ON_DEMAND))
  const onIndex = reasons.some((r) => r.reason.startsWith('Index'))
  return {
    __type: PREFIX + (capped ? 'ThrottlingException' : 'ProvisionedThroughputExceededException'),
    message: capped ? MAX_ON_DEMAND_MESSAGE : onIndex ? INDEX_KEY_RANGE_MESSAGE : TABLE_KEY_RANGE_MESSAGE,
    [capped ? 'throttlingReasons' : 'ThrottlingReasons']: reasons.map((r) => ({ reason: r.reason, resource: r.resource })),
  }
}

const THROTTLE_STATUS = 400

module.exports = { reason, throttleError, KEY_RANGE, MAX_ON_DEMAND, THROTTLE_STATUS }
