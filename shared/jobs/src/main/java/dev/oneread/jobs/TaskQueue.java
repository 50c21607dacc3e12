package dev.oneread.jobs;

import dev.oneread.json.Json;
import dev.oneread.store.exceptions.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * A job queue, for whoever sends to it (the planner, a workspace's DELETE, a purge that goes on): tasks go out in
 * SendMessageBatch calls of 10 (SQS's limit), and the entries a batch reports as failed are sent again, up to
 * {@link #ATTEMPTS} times, before the run fails.
 *
 * <pre>{@code int calls = new TaskQueue(sqs, queueUrl).send(tasks);}</pre>
 */
public final class TaskQueue {
    /** SQS takes at most 10 entries per SendMessageBatch. */
    static final int BATCH = 10;
    /** Tries per entry: a failed entry is usually throttling or an internal error, gone on the next try. */
    static final int ATTEMPTS = 5;

    private final Supplier<SqsClient> client;
    private final String queueUrl;
    private SqsClient sqs;

    public TaskQueue(SqsClient sqs, String queueUrl) {
        this(() -> sqs, queueUrl);
    }

    /**
     * A queue whose client is built on first send: for a function that sends only now and then (the worker, which
     * sends a purge's continuation), so that its cold start does not load the SQS client.
     */
    public TaskQueue(Supplier<SqsClient> client, String queueUrl) {
        this.client = client;
        this.queueUrl = queueUrl;
    }

    private synchronized SqsClient sqs() {
        if (sqs == null) {
            sqs = client.get();
        }
        return sqs;
    }

    /** SQS delays a message by at most 15 minutes. */
    static final Duration MAX_DELAY = Duration.ofMinutes(15);

    /**
     * Sends one task that no worker receives before {@code delay} has passed (SQS's DelaySeconds): a purge waits
     * out its fence on the queue, not in a running function.
     */
    public void sendDelayed(JobTask task, Duration delay) {
        sendDelayed(task.toJson(), delay);
    }

    /** Sends one message that is not a task: the planner's continuation, on the plan queue. */
    public void send(Map<String, Object> message) {
        translated(() -> sqs().sendMessage(SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(Json.write(message))
                .build()));
    }

    /** Sends one message that is not a task, which no receiver gets before {@code delay}: the planner's recheck. */
    public void sendDelayed(Map<String, Object> message, Duration delay) {
        sendDelayed(Json.write(message), delay);
    }

    private void sendDelayed(String body, Duration delay) {
        if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
            throw new IllegalArgumentException("a message's delay is 0 to 15 minutes");
        }
        translated(() -> sqs().sendMessage(delayed(queueUrl, body, delay)));
    }

    static SendMessageRequest delayed(String queueUrl, String body, Duration delay) {
        return SendMessageRequest.builder()
                .queueUrl(queueUrl)
                .messageBody(body)
                .delaySeconds((int) Math.ceil(delay.toMillis() / 1000.0))
                .build();
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
                Map<String, JobTask> entries = pending;
                SendMessageBatchResponse response = translated(() -> sqs().sendMessageBatch(batch(queueUrl, entries)));
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

    /** An SQS failure is the queue being unavailable: a 503 to an API caller, a retried message to a worker. */
    private static <T> T translated(Supplier<T> call) {
        try {
            return call.get();
        } catch (SdkException e) {
            throw new StoreUnavailableException(e);
        }
    }
}
