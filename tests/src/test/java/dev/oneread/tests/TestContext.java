package dev.oneread.tests;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** A Lambda context whose logger keeps the lines, so tests can read the structured log. */
final class TestContext implements Context {
    /** The time every test invocation is given, as Lambda's remaining time. */
    static final int REMAINING_MILLIS = 10_000;

    final List<String> logLines = new ArrayList<>();
    private final int remainingMillis;
    private final String requestId = UUID.randomUUID().toString();

    TestContext() {
        this(REMAINING_MILLIS);
    }

    /** A context with less time: how a test brings an invocation to its deadline. */
    TestContext(int remainingMillis) {
        this.remainingMillis = remainingMillis;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/test";
    }

    @Override
    public String getLogStreamName() {
        return "test";
    }

    @Override
    public String getFunctionName() {
        return "test";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:123456789012:function:test";
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 1024;
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
