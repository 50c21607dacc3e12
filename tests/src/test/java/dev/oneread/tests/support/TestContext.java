package dev.oneread.tests.support;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.oneread.runtime.FunctionContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A Lambda context whose logger keeps the lines, so tests can read the structured log. */
public final class TestContext extends FunctionContext {
    /** The time every test invocation is given, as Lambda's remaining time. */
    public static final int REMAINING_MILLIS = 10_000;

    public final List<String> logLines = new ArrayList<>();
    private final int remainingMillis;

    public TestContext() {
        this(REMAINING_MILLIS);
    }

    /** A context with less time: how a test brings an invocation to its deadline. */
    public TestContext(int remainingMillis) {
        super("test", UUID.randomUUID().toString(), 1024);
        this.remainingMillis = remainingMillis;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis;
    }

    @Override
    public LambdaLogger getLogger() {
        return new LambdaLogger() {
            @Override
            public void log(String message) {
                logLines.add(message.strip());
            }

            @Override
            public void log(byte[] message) {
                log(new String(message, StandardCharsets.UTF_8));
            }
        };
    }
}
