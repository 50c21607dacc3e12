package dev.oneread.tests.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.oneread.local.runner.LocalQueues;
import dev.oneread.local.template.SamTemplate;
import dev.oneread.tests.support.StartsProcesses;
import dev.oneread.tests.support.TestEngine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.model.GetQueueAttributesRequest;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;

/**
 * Every port a running start-api opened, as the operating system lists them for its process (and its children),
 * refuses what a page can send: issue 37 found ElasticMQ's own port taking {@code GET ?Action=PurgeQueue} with a
 * foreign Host and Origin, so a page that found the port dropped a pending purge. The front guards the port the
 * queue URLs name; ElasticMQ's own must refuse everything that does not come through the front.
 */
@StartsProcesses
class RunnerPortsTest {
    private static final Pattern LISTENING = Pattern.compile("^start-api: listening on http://127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern QUEUES = Pattern.compile("^job queues on ElasticMQ at (http://127\\.0\\.0\\.1:\\d+)");
    /** A socket's state in /proc/net/tcp: 0A is LISTEN. */
    private static final String LISTEN = "0A";

    private final TestEngine engine = TestEngine.get();
    private final String table = "ports-" + UUID.randomUUID().toString().substring(0, 8);

    @TempDir
    Path dir;

    @Test
    void everyPortOfARunningStartApi_shouldRefuseAPagesPurgeQueue_andThePurgeStaysPending() throws Exception {
        // GIVEN start-api running as a developer runs it (on the test engine, a table of its own)
        ProcessBuilder builder = new ProcessBuilder(
                        "java",
                        "-jar",
                        engine.root.resolve("local/target/oneread-local.jar").toString(),
                        "start-api",
                        "--port",
                        "0",
                        "--state-file",
                        dir.resolve("state.json").toString())
                .directory(engine.root.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().put("DYNAMODB_ENDPOINT", engine.endpoint.toString());
        builder.environment().put("TABLE_NAME", table);
        Process process = builder.start();
        // Not closed by the test: a reader's close waits for the drain's readLine, which ends when the process does.
        BufferedReader err =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        try {
            List<String> log = new ArrayList<>();
            URI queueEndpoint = null;
            int apiPort = -1;
            for (String line; apiPort < 0 && (line = err.readLine()) != null; ) {
                log.add(line);
                Matcher queues = QUEUES.matcher(line);
                if (queues.find()) {
                    queueEndpoint = URI.create(queues.group(1));
                }
                Matcher listening = LISTENING.matcher(line);
                if (listening.find()) {
                    apiPort = Integer.parseInt(listening.group(1));
                }
            }
            assertThat(apiPort).as(String.join("\n", log)).isPositive();
            assertThat(queueEndpoint).as(String.join("\n", log)).isNotNull();
            Thread drain = new Thread(() -> drain(err));
            drain.setDaemon(true);
            drain.start();
            // AND a pending purge task: a message on the job queue, delayed, so that no poller takes it meanwhile
            SamTemplate template = SamTemplate.load(engine.root.resolve("template.yaml"));
            try (LocalQueues queues = LocalQueues.attach(queueEndpoint, template, table)) {
                String jobQueue = queues.url("JobQueue");
                queues.client()
                        .sendMessage(SendMessageRequest.builder()
                                .queueUrl(jobQueue)
                                .messageBody("{\"task\":\"purge\"}")
                                .delaySeconds(900)
                                .build());
                assertThat(delayed(queues, jobQueue)).isEqualTo(1);
                // AND every port the process and its children listen on, as /proc lists them
                Set<Integer> ports = listeningPorts(process.toHandle());
                System.out.println("start-api (pid " + process.pid() + ") listens on " + ports + "; its API on "
                        + apiPort + ", its queues' front on " + queueEndpoint.getPort());
                assertThat(ports).contains(apiPort, queueEndpoint.getPort()).hasSizeGreaterThanOrEqualTo(3);
                // WHEN a page sends the purge to each: a GET, a foreign Host and Origin, the queue named as a page
                // would guess it (the front's port, the account, the table's name and the logical id), in the
                // parameter and in the path; and a redrive of the dead-letter queue by its guessed ARN
                String guessed = "http://127.0.0.1:" + queueEndpoint.getPort() + "/000000000000/" + table + "-";
                for (int port : ports) {
                    for (String target : List.of(
                            "/?Action=PurgeQueue&QueueUrl=" + encoded(guessed + "JobQueue"),
                            "/000000000000/" + table + "-JobQueue?Action=PurgeQueue",
                            "/?Action=StartMessageMoveTask&SourceArn="
                                    + encoded("arn:aws:sqs:elasticmq:000000000000:" + table + "-JobDeadLetterQueue"))) {
                        for (Map<String, String> headers : List.of(
                                Map.of("Host", "evil.example", "Origin", "http://evil.example"),
                                Map.of("Host", "127.0.0.1:" + port))) {
                            // THEN each is refused
                            int status = status(port, target, headers);
                            assertThat(status < 200 || status > 399)
                                    .as("GET " + target + " on port " + port + " with " + headers + " answered "
                                            + status)
                                    .isTrue();
                        }
                    }
                }
                // AND the purge is still pending
                assertThat(delayed(queues, jobQueue)).isEqualTo(1);
                queues.client().purgeQueue(b -> b.queueUrl(jobQueue));
            }
        } finally {
            process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor();
            err.close(); // the drain has met the end of the stream
        }
    }

    private static void drain(BufferedReader err) {
        try {
            while (err.readLine() != null) {
                // start-api's log, read so that it never blocks on a full pipe
            }
        } catch (IOException closed) {
            // the test closed it
        }
    }

    private static String encoded(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static int delayed(LocalQueues queues, String url) {
        return Integer.parseInt(queues.client()
                .getQueueAttributes(GetQueueAttributesRequest.builder()
                        .queueUrl(url)
                        .attributeNames(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED)
                        .build())
                .attributes()
                .get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_DELAYED));
    }

    /** The ports in LISTEN state whose sockets the process or one of its descendants holds. */
    private static Set<Integer> listeningPorts(ProcessHandle process) throws IOException {
        Set<String> inodes = new TreeSet<>();
        List<ProcessHandle> all = new ArrayList<>(List.of(process));
        process.descendants().forEach(all::add);
        for (ProcessHandle handle : all) {
            try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(handle.pid()), "fd"))) {
                fds.forEach(fd -> {
                    try {
                        String link = Files.readSymbolicLink(fd).toString();
                        if (link.startsWith("socket:[")) {
                            inodes.add(link.substring("socket:[".length(), link.length() - 1));
                        }
                    } catch (IOException closedMeanwhile) {
                        // an fd closed between the listing and the read
                    }
                });
            }
        }
        Set<Integer> ports = new TreeSet<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String local = fields[1];
                if (fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
                    ports.add(Integer.parseInt(local.substring(local.indexOf(':') + 1), 16));
                }
            }
        }
        return ports;
    }

    /** A raw GET, headers as given (a page's Host and Origin): the status. */
    private static int status(int port, String target, Map<String, String> headers) throws IOException {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\n");
        headers.forEach(
                (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        request.append("Connection: close\r\n\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = new String(in.readNBytes(64), StandardCharsets.ISO_8859_1);
            // Anything but an HTTP status line (a server that is not HTTP) is no answer a page can use either.
            Matcher status = Pattern.compile("^HTTP/1\\.[01] (\\d{3})").matcher(head);
            return status.find() ? Integer.parseInt(status.group(1)) : 0;
        }
    }
}
