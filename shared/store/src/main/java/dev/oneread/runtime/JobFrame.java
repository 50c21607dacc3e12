package dev.oneread.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import dev.oneread.json.Json;
import dev.oneread.store.calls.CallTally;
import dev.oneread.store.calls.InvocationDeadline;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The frame every job shares (a function that is not behind the HTTP API), as HTTP functions share HttpEndpoint:
 * the event as JSON, a call tally bounded by the invocation's remaining time, one log line per step, and the result
 * with the calls and capacity the run cost.
 *
 * <pre>{@code JobFrame.run(input, output, context, (event, tally, log) -> Map.of("done", true));}</pre>
 */
public final class JobFrame {
    private JobFrame() {}

    /** One job's work: from its event, within the tally's deadline, logging as it goes, to its result. */
    @FunctionalInterface
    public interface Job {
        Map<String, Object> run(Map<String, Object> event, CallTally tally, Consumer<Map<String, Object>> log);
    }

    /** Runs {@code job} and answers its result, with the calls and the capacity the run cost. */
    public static void run(InputStream input, OutputStream output, Context context, Job job) throws IOException {
        frame(input, output, context, job, true);
    }

    /**
     * Runs {@code job} and answers its result alone: for an answer whose shape its caller fixes, as the event
     * source mapping fixes RunJob's partial-batch response ({@code batchItemFailures}).
     */
    public static void runAnswering(InputStream input, OutputStream output, Context context, Job job)
            throws IOException {
        frame(input, output, context, job, false);
    }

    private static void frame(InputStream input, OutputStream output, Context context, Job job, boolean withCost)
            throws IOException {
        Map<String, Object> event = Json.readObject(input);
        CallTally tally = new CallTally(
                InvocationDeadline.in(context == null ? null : Duration.ofMillis(context.getRemainingTimeInMillis())));
        Map<String, Object> result = new LinkedHashMap<>(job.run(event, tally, line -> log(context, Json.write(line))));
        if (withCost) {
            result.put("calls", tally.calls());
            result.put("capacity", tally.capacity());
        }
        output.write(Json.write(result).getBytes(StandardCharsets.UTF_8));
    }

    private static void log(Context context, String line) {
        if (context != null && context.getLogger() != null) {
            context.getLogger().log(line + "\n");
        } else {
            System.out.println(line);
        }
    }
}
