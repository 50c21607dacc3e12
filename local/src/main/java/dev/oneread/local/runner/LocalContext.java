package dev.oneread.local.runner;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.oneread.runtime.FunctionContext;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The Lambda context of one local invocation: its request id, deadline, and a logger to stderr. It is also the
 * runner's channel for the console's call detail, by the contract of {@code dev.oneread.runtime.CallDetailSink}: a
 * Context that is a {@code Consumer<String>} (a JDK type, since the function's class loader shares no project class
 * with the runner's), which Lambda's own never is.
 */
final class LocalContext extends FunctionContext implements java.util.function.Consumer<String> {
    private volatile String callDetail;

    private final long deadlineMillis;
    private final LambdaLogger logger;

    LocalContext(FunctionSpec function, String requestId, PrintStream log) {
        super(function.logicalId(), requestId, function.memoryMb());
        this.deadlineMillis = System.currentTimeMillis() + function.timeoutSeconds() * 1000L;
        this.logger = new LambdaLogger() {
            @Override
            public void log(String message) {
                log.print(message);
                log.flush();
            }

            @Override
            public void log(byte[] message) {
                log(new String(message, StandardCharsets.UTF_8));
            }
        };
    }

    @Override
    public void accept(String detail) {
        this.callDetail = detail;
    }

    /** The calls the function handed over as JSON, or null when it handed none (a job, a failed init). */
    String callDetail() {
        return callDetail;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, deadlineMillis - System.currentTimeMillis());
    }

    @Override
    public LambdaLogger getLogger() {
        return logger;
    }
}
