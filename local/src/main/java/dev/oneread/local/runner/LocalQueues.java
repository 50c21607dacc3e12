package dev.oneread.local.runner;

import dev.oneread.json.Json;
import dev.oneread.local.template.SamTemplate;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticmq.NodeAddress;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.CreateQueueRequest;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.ListQueuesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The template's SQS queues on an embedded ElasticMQ (no Docker): each {@code AWS::SQS::Queue} created with its
 * visibility timeout and its RedrivePolicy (the dead-letter queue and maxReceiveCount), dead-letter queues first.
 * {@code SQS_ENDPOINT} points the functions at it, as {@code DYNAMODB_ENDPOINT} points them at the engine. ElasticMQ
 * runs inside this JVM (it ends with it) and is reached only through the guard of a {@link QueueFront}, whose port
 * is the endpoint and the one every queue URL names.
 *
 * <p>ElasticMQ's own loopback socket serves only what comes through the front. It cannot check a header, nor
 * listen anywhere but on TCP; but it can be told a context path, and then it serves nothing outside it: every
 * action names the path, or a queue URL that holds it (the only ones it hands out). So each run has a secret
 * {@link RunSecret}, the context path the front adds to each request it passes on; and, for the few actions that
 * name a queue by ARN rather than by URL (message move tasks), it ends every queue's name too. A page that finds
 * ElasticMQ's port knows neither: the front never lets a page read an answer.
 *
 * <pre>{@code try (LocalQueues queues = LocalQueues.start(template, "oneread", null)) { queues.url("JobQueue"); }}</pre>
 */
public final class LocalQueues implements AutoCloseable {
    private final SQSRestServer server;
    private final QueueFront front;
    private final URI endpoint;
    private final SqsClient client;
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Map<String, String> arns = new LinkedHashMap<>();

    private LocalQueues(SQSRestServer server, QueueFront front, URI endpoint) {
        this.server = server;
        this.front = front;
        this.endpoint = endpoint;
        this.client = client(endpoint);
    }

    /**
     * Starts ElasticMQ on a free loopback port and creates the template's queues, their names prefixed with
     * {@code prefix} (one local world per table).
     *
     * @param visibility the visibility timeout for every queue instead of the template's (tests that wait for a
     *     redelivery); null to keep the template's
     */
    public static LocalQueues start(SamTemplate template, String prefix, Duration visibility) {
        // The front's port first: ElasticMQ writes it into every queue URL it hands out (its own port, never).
        RunSecret secret = RunSecret.random();
        QueueFront front = QueueFront.bind(secret);
        SQSRestServer server;
        try {
            server = SQSRestServerBuilder.withInterface("127.0.0.1")
                    .withDynamicPort()
                    .withServerAddress(new NodeAddress("http", "127.0.0.1", front.port(), secret.value()))
                    .start();
            front.start(server.waitUntilStarted().localAddress().getPort());
        } catch (RuntimeException e) {
            front.close();
            throw e;
        }
        LocalQueues queues = new LocalQueues(server, front, front.endpoint());
        try {
            queues.create(template, prefix, secret, visibility);
        } catch (RuntimeException e) {
            queues.close();
            throw e;
        }
        return queues;
    }

    /**
     * The queues a running start-api created on its ElasticMQ at {@code endpoint}, found by name: how {@code invoke}
     * beside start-api sends to the same queues (one local world). Closing it leaves that server running.
     */
    public static LocalQueues attach(URI endpoint, SamTemplate template, String prefix) {
        LocalQueues queues = new LocalQueues(null, null, endpoint);
        template.resourcesOfType("AWS::SQS::Queue").keySet().forEach(logicalId -> {
            // Its name ends with the run's secret, which only the running start-api knows: found by its prefix.
            List<String> found = queues.client
                    .listQueues(ListQueuesRequest.builder()
                            .queueNamePrefix(RunSecret.queueNamePrefix(prefix, logicalId))
                            .build())
                    .queueUrls();
            if (found.size() != 1) {
                throw new IllegalStateException("the running start-api has no single queue " + logicalId + " of "
                        + prefix + " (found " + found.size() + ")");
            }
            String url = found.get(0);
            queues.urls.put(logicalId, url);
            queues.arns.put(
                    logicalId,
                    queues.client
                            .getQueueAttributes(GetQueueAttributesRequest.builder()
                                    .queueUrl(url)
                                    .attributeNames(QueueAttributeName.QUEUE_ARN)
                                    .build())
                            .attributes()
                            .get(QueueAttributeName.QUEUE_ARN));
        });
        return queues;
    }

    /** Every queue's URL by logical id: what {@code !Ref} of a queue resolves to. */
    public Map<String, String> urls() {
        return Map.copyOf(urls);
    }

    /** A client of the local queues, as the runner's functions get one through SQS_ENDPOINT. */
    public static SqsClient client(URI endpoint) {
        return SqsClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    private void create(SamTemplate template, String prefix, RunSecret secret, Duration visibility) {
        Map<String, Map<String, Object>> resources = template.resourcesOfType("AWS::SQS::Queue");
        // Dead-letter queues first: a queue's RedrivePolicy names its DLQ's ARN.
        for (boolean redriven : new boolean[] {false, true}) {
            resources.forEach((logicalId, resource) -> {
                Map<String, Object> properties = SamTemplate.map(resource.get("Properties"));
                Map<String, Object> redrive = SamTemplate.map(properties.get("RedrivePolicy"));
                if (redrive.isEmpty() == redriven) {
                    return;
                }
                Map<String, String> attributes = new LinkedHashMap<>();
                Object timeout = properties.get("VisibilityTimeout");
                attributes.put(
                        "VisibilityTimeout",
                        visibility != null
                                ? Long.toString(visibility.toSeconds())
                                : timeout == null ? "30" : String.valueOf(timeout));
                if (!redrive.isEmpty()) {
                    Object target =
                            SamTemplate.map(redrive.get("deadLetterTargetArn")).get("Fn::GetAtt");
                    String dlq = String.valueOf(SamTemplate.list(target).get(0));
                    Map<String, Object> policy = new LinkedHashMap<>();
                    policy.put("deadLetterTargetArn", arns.get(dlq));
                    policy.put("maxReceiveCount", String.valueOf(redrive.get("maxReceiveCount")));
                    attributes.put("RedrivePolicy", Json.write(policy));
                }
                String url = client.createQueue(CreateQueueRequest.builder()
                                .queueName(secret.queueName(prefix, logicalId))
                                .attributesWithStrings(attributes)
                                .build())
                        .queueUrl();
                urls.put(logicalId, url);
                arns.put(
                        logicalId,
                        client.getQueueAttributes(GetQueueAttributesRequest.builder()
                                        .queueUrl(url)
                                        .attributeNames(QueueAttributeName.QUEUE_ARN)
                                        .build())
                                .attributes()
                                .get(QueueAttributeName.QUEUE_ARN));
            });
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public SqsClient client() {
        return client;
    }

    /** The URL of the template's queue {@code logicalId}. */
    public String url(String logicalId) {
        String url = urls.get(logicalId);
        if (url == null) {
            throw new IllegalArgumentException(logicalId + " is not a queue of the template");
        }
        return url;
    }

    public String arn(String logicalId) {
        return arns.get(logicalId);
    }

    @Override
    public void close() {
        client.close();
        if (front != null) {
            front.close();
        }
        if (server != null) {
            server.stopAndWait();
        }
    }
}
