package dev.oneread.jobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The partial-batch response of an SQS-triggered function ({@code FunctionResponseTypes: [ReportBatchItemFailures]}):
 * the ids of the messages that failed, and nothing else. The event source mapping deletes the rest, so one bad
 * task does not rerun its batch-mates; an empty list means every message succeeded. Powertools' batch module
 * builds this same shape; it is not served here, and the shape is this small.
 *
 * <pre>{@code Map<String, Object> response = BatchItemFailures.of(List.of("msg-3")).toResponse();}</pre>
 */
public record BatchItemFailures(List<String> messageIds) {
    public BatchItemFailures {
        messageIds = List.copyOf(messageIds);
    }

    public static BatchItemFailures of(List<String> messageIds) {
        return new BatchItemFailures(messageIds);
    }

    /** {@code {"batchItemFailures": [{"itemIdentifier": "<messageId>"}, ...]}} */
    public Map<String, Object> toResponse() {
        List<Map<String, String>> items = new ArrayList<>();
        messageIds.forEach(id -> items.add(Map.of("itemIdentifier", id)));
        return Map.of("batchItemFailures", items);
    }
}
