package dev.oneread.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;

/**
 * The job queue, for the planner: tasks go out in SendMessageBatch calls of 10 (SQS's limit), and the entries a
 * batch reports as failed are sent again, up to {@link #ATTEMPTS} times, before the run fails.
 *
 * <pre>{@code int calls = new TaskQueue(sqs, queueUrl).send(tasks);}</pre>
 */
public final class TaskQueue {
    /** SQS takes at most 10 entries per SendMessageBatch. */
    static final int BATCH = 10;
    /** Tries per entry: a failed entry is usually throttling or an internal error, gone on the next try. */
    static final int ATTEMPTS = 5;

    private final SqsClient sqs;
    private final String queueUrl;

    public TaskQueue(SqsClient sqs, String queueUrl) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
    }

    /** The batch request for up to 10 tasks; each entry's id is its place in the list. */
    static SendMessageBatchRequest batch(String queueUrl, Map<String, JobTask> entries) {
        List<SendMessageBatchRequestEntry> out = new ArrayList<>();
        entries.forEach((id, task) -> out.add(SendMessageBatchRequestEntry.builder()
                .id(id)
                .messageBody(task.toJson())
                .build()));
        return SendMessageBatchRequest.builder().queueUrl(queueUrl).entries(out).build();
    }

    /**
     * Sends every task; returns the SendMessageBatch calls it took.
     *
     * @throws IllegalStateException when an entry still fails after {@link #ATTEMPTS} tries
     */
    public int send(List<JobTask> tasks) {
        int calls = 0;
        for (int start = 0; start < tasks.size(); start += BATCH) {
            Map<String, JobTask> pending = new LinkedHashMap<>();
            for (int i = start; i < Math.min(tasks.size(), start + BATCH); i++) {
                pending.put("t" + i, tasks.get(i));
            }
            for (int attempt = 1; !pending.isEmpty(); attempt++) {
                SendMessageBatchResponse response = sqs.sendMessageBatch(batch(queueUrl, pending));
                calls++;
                Map<String, JobTask> failed = new LinkedHashMap<>();
                for (BatchResultErrorEntry error : response.failed()) {
                    failed.put(error.id(), pending.get(error.id()));
                }
                if (!failed.isEmpty() && attempt == ATTEMPTS) {
                    throw new IllegalStateException(failed.size() + " tasks could not be sent: "
                            + response.failed().get(0).code());
                }
                pending = failed;
            }
        }
        return calls;
    }
}
