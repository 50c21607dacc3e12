package dev.oneread.runtime;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;

/**
 * The Lambda context of an invocation that Lambda does not make (a priming request, the local runner's, a test's):
 * the names a function in {@code us-east-1} would see; the time left and the logger are each maker's own.
 *
 * <pre>{@code class LocalContext extends FunctionContext { ... }}</pre>
 */
public abstract class FunctionContext implements Context {
    private final String functionName;
    private final String requestId;
    private final int memoryMb;

    protected FunctionContext(String functionName, String requestId, int memoryMb) {
        this.functionName = functionName;
        this.requestId = requestId;
        this.memoryMb = memoryMb;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + functionName;
    }

    @Override
    public String getLogStreamName() {
        return "local";
    }

    @Override
    public String getFunctionName() {
        return functionName;
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:" + functionName;
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
    public int getMemoryLimitInMB() {
        return memoryMb;
    }
}
