package dev.oneread.local.runner;

import dev.oneread.json.Json;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;

/**
 * An SQS event source mapping, as Lambda runs one: polls the queue, invokes the function with a batch in the SQS
 * event shape, deletes the messages that succeeded, and leaves the ones the function reported in
 * {@code batchItemFailures} (or the whole batch, if the function failed) to come back after the visibility
 * timeout. The queue's redrive policy counts the receives and moves a message that keeps failing to its
 * dead-letter queue. Up to {@code concurrency} batches are in flight, as ScalingConfig.MaximumConcurrency bounds.
 *
 * <pre>{@code try (QueuePoller poller = QueuePoller.start(sqs, url, arn, 10, 2, invoke, System.err)) { ... }}</pre>
 */
public final class QueuePoller implements AutoCloseable {
    private final SqsClient sqs;
    private final String queueUrl;
    private final String queueArn;
    private final int batchSize;
    private final Function<byte[], byte[]> function;
    private final PrintStream log;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> threads = new ArrayList<>();

    private QueuePoller(
            SqsClient sqs,
            String queueUrl,
            String queueArn,
            int batchSize,
            Function<byte[], byte[]> function,
            PrintStream log) {
        this.sqs = sqs;
        this.queueUrl = queueUrl;
        this.queueArn = queueArn;
        this.batchSize = batchSize;
        this.function = function;
        this.log = log;
    }

    /**
     * @param function the worker: the SQS event's bytes to its response's bytes (null when the invocation failed)
     */
    public static QueuePoller start(
            SqsClient sqs,
            String queueUrl,
            String queueArn,
            int batchSize,
            int concurrency,
            Function<byte[], byte[]> function,
            PrintStream log) {
        QueuePoller poller = new QueuePoller(sqs, queueUrl, queueArn, batchSize, function, log);
        for (int i = 0; i < concurrency; i++) {
            Thread thread = new Thread(poller::poll, "event-source-mapping-" + i);
            thread.setDaemon(true);
            poller.threads.add(thread);
            thread.start();
        }
        return poller;
    }

    private void poll() {
        while (running.get()) {
            try {
                List<Message> batch = sqs.receiveMessage(ReceiveMessageRequest.builder()
                                .queueUrl(queueUrl)
                                .maxNumberOfMessages(Math.min(10, batchSize))
                                .waitTimeSeconds(1)
                                .messageSystemAttributeNames(MessageSystemAttributeName.ALL)
                                .build())
                        .messages();
                if (!batch.isEmpty()) {
                    deliver(batch);
                }
            } catch (RuntimeException e) {
                if (running.get()) {
                    log.println("event source mapping " + queueUrl + ": " + e.getMessage());
                }
            }
        }
    }

    /** One batch: invoke, then delete what succeeded. */
    @SuppressWarnings("unchecked")
    private void deliver(List<Message> batch) {
        byte[] response = function.apply(event(batch).getBytes(StandardCharsets.UTF_8));
        if (response == null) {
            return; // the function failed: the whole batch comes back
        }
        Set<String> failed = new HashSet<>();
        Map<String, Object> parsed = Json.readObject(new String(response, StandardCharsets.UTF_8));
        if (parsed.get("batchItemFailures") instanceof List<?> failures) {
            for (Object f : failures) {
                failed.add(String.valueOf(((Map<String, Object>) f).get("itemIdentifier")));
            }
        }
        List<DeleteMessageBatchRequestEntry> done = new ArrayList<>();
        for (Message m : batch) {
            if (!failed.contains(m.messageId())) {
                done.add(DeleteMessageBatchRequestEntry.builder()
                        .id(Integer.toString(done.size()))
                        .receiptHandle(m.receiptHandle())
                        .build());
            }
        }
        if (!done.isEmpty()) {
            sqs.deleteMessageBatch(DeleteMessageBatchRequest.builder()
                    .queueUrl(queueUrl)
                    .entries(done)
                    .build());
        }
    }

    /** The SQS event Lambda sends: {@code {"Records": [{messageId, receiptHandle, body, attributes, ...}]}}. */
    String event(List<Message> batch) {
        List<Map<String, Object>> records = new ArrayList<>();
        for (Message m : batch) {
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("messageId", m.messageId());
            record.put("receiptHandle", m.receiptHandle());
            record.put("body", m.body());
            Map<String, String> attributes = new LinkedHashMap<>();
            m.attributes().forEach((k, v) -> attributes.put(k.toString(), v));
            record.put("attributes", attributes);
            record.put("messageAttributes", Map.of());
            record.put("md5OfBody", m.md5OfBody());
            record.put("eventSource", "aws:sqs");
            record.put("eventSourceARN", queueArn);
            record.put("awsRegion", "us-east-1");
            records.add(record);
        }
        return Json.write(Map.of("Records", records));
    }

    @Override
    public void close() {
        running.set(false);
        for (Thread thread : threads) {
            try {
                thread.join(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
