package dev.oneread.local.runner;

import dev.oneread.local.template.SamTemplate;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What invokes the template's functions besides the HTTP API, as start-api plays it: every SQS event source
 * mapping (a {@link QueuePoller} on the local queue), and with {@code --schedules} every ScheduleV2 schedule (the
 * function invoked with the schedule's input at its rate). Locally a function runs one invocation at a time, so one
 * poller per mapping is what MaximumConcurrency can use here.
 */
public final class LocalTriggers implements AutoCloseable {
    private static final Pattern RATE = Pattern.compile("^rate\\((\\d+) (minute|minutes|hour|hours|day|days)\\)$");

    private final List<QueuePoller> pollers = new ArrayList<>();
    private final ScheduledExecutorService schedules = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "schedules");
        t.setDaemon(true);
        return t;
    });

    private LocalTriggers() {}

    /** Starts the event source mappings of {@code stack}'s queues, and its schedules when {@code withSchedules}. */
    public static LocalTriggers start(LocalStack stack, boolean withSchedules, PrintStream log) {
        LocalTriggers triggers = new LocalTriggers();
        SamTemplate template = stack.template();
        template.resourcesOfType("AWS::Serverless::Function").forEach((id, resource) -> {
            // Looked up per invocation: after a redeploy, the next message or tick runs the new configuration.
            java.util.function.Function<byte[], LocalFunction.Result> function =
                    bytes -> LocalFunction.invokeCurrent(() -> stack.functions().get(id), bytes);
            Map<String, Object> events =
                    SamTemplate.map(SamTemplate.map(resource.get("Properties")).get("Events"));
            for (Object e : events.values()) {
                Map<String, Object> event = SamTemplate.map(e);
                Map<String, Object> properties = SamTemplate.map(event.get("Properties"));
                if ("SQS".equals(event.get("Type")) && stack.queues() != null) {
                    String queue = String.valueOf(SamTemplate.list(
                                    SamTemplate.map(properties.get("Queue")).get("Fn::GetAtt"))
                            .get(0));
                    Object batch = properties.getOrDefault("BatchSize", 10);
                    triggers.pollers.add(QueuePoller.start(
                            stack.queues().client(),
                            stack.queues().url(queue),
                            stack.queues().arn(queue),
                            Integer.parseInt(String.valueOf(batch)),
                            1,
                            bytes -> {
                                LocalFunction.Result result = function.apply(bytes);
                                return result.failed() ? null : result.response();
                            },
                            log));
                    log.println("event source mapping: " + queue + " -> " + id);
                } else if ("ScheduleV2".equals(event.get("Type")) && withSchedules) {
                    Duration every = rate(resolve(properties.get("ScheduleExpression"), stack.parameters()));
                    byte[] input = String.valueOf(properties.getOrDefault("Input", "{}"))
                            .getBytes(StandardCharsets.UTF_8);
                    triggers.schedules.scheduleAtFixedRate(
                            () -> function.apply(input), every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
                    log.println(
                            "schedule: every " + every + " -> " + id + " " + new String(input, StandardCharsets.UTF_8));
                }
            }
        });
        return triggers;
    }

    /** {@code rate(1 hour)} as a duration; any other expression (cron, at) is refused: not played locally. */
    static Duration rate(String expression) {
        Matcher m = RATE.matcher(expression.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("only rate(N minutes|hours|days) schedules run locally: " + expression);
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "minute", "minutes" -> Duration.ofMinutes(n);
            case "hour", "hours" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    private static String resolve(Object value, Map<String, String> parameters) {
        if (value instanceof Map<?, ?> ref && ref.containsKey("Ref")) {
            return parameters.getOrDefault(String.valueOf(ref.get("Ref")), "");
        }
        return String.valueOf(value);
    }

    @Override
    public void close() {
        schedules.shutdownNow();
        pollers.forEach(QueuePoller::close);
    }
}
