package dev.oneread.priming;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.oneread.runtime.FunctionContext;

/** The Lambda context of a priming request: 10 s to run, and a logger that drops its line (it is no traffic). */
public final class PrimingContext extends FunctionContext {
    public static final PrimingContext INSTANCE = new PrimingContext();

    private static final LambdaLogger DISCARD = new LambdaLogger() {
        @Override
        public void log(String message) {}

        @Override
        public void log(byte[] message) {}
    };

    private PrimingContext() {
        super("snapstart-priming", "snapstart-priming", 1024);
    }

    @Override
    public int getRemainingTimeInMillis() {
        return 10_000;
    }

    @Override
    public LambdaLogger getLogger() {
        return DISCARD;
    }
}
