package dev.oneread.bench;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Starts one function as the Lambda Java runtime does, in this fresh JVM: constructs the handler class, then passes
 * one event through it, a {@code RequestStreamHandler} with the raw bytes, a {@code RequestHandler} through the
 * runtime's own event serialization. Prints the response on one line the moment it is ready (bench/cold-start
 * times the JVM to that line), then, on a second, what this JVM loaded.
 *
 * <p>Usage: {@code java <flags> -cp <driver>:<function>:<function>/lib/* dev.oneread.bench.ColdStart <handler class>
 * <event file> [invocations [prime]]}; with more than one invocation, the second line has each one's time; with
 * {@code prime}, the function's priming hook runs first, as SnapStart's checkpoint would run it.
 */
public final class ColdStart {
    public static void main(String[] args) throws Exception {
        byte[] event = Files.readAllBytes(Path.of(args[1]));
        int invocations = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        Object handler = Class.forName(args[0]).getDeclaredConstructor().newInstance();
        if (args.length > 3 && args[3].equals("prime")) {
            // What SnapStart's checkpoint runs before the snapshot (a oneread function's priming hook).
            handler.getClass().getMethod("prime").invoke(handler);
            System.err.println("primed: " + ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount()
                    + " classes loaded");
        }
        StringBuilder times = new StringBuilder();
        for (int i = 0; i < invocations; i++) {
            long start = System.nanoTime();
            String response = invoke(handler, event);
            long micros = (System.nanoTime() - start) / 1_000;
            if (i == 0) {
                System.out.println("response " + response);
                System.out.flush();
            }
            times.append(i == 0 ? "" : ",").append(micros);
        }
        System.out.println("loaded " + ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount()
                + " invokeMicros " + times);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String invoke(Object handler, byte[] event) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (handler instanceof RequestStreamHandler stream) {
            stream.handleRequest(new ByteArrayInputStream(event), out, CONTEXT);
        } else {
            Type[] types = requestHandlerTypes(handler.getClass());
            ClassLoader loader = handler.getClass().getClassLoader();
            PojoSerializer input = LambdaEventSerializers.serializerFor((Class) types[0], loader);
            PojoSerializer output = LambdaEventSerializers.serializerFor((Class) types[1], loader);
            Object result = ((RequestHandler) handler).handleRequest(input.fromJson(new ByteArrayInputStream(event)), CONTEXT);
            output.toJson(result, out);
        }
        return out.toString(StandardCharsets.UTF_8).replace('\n', ' ');
    }

    private static Type[] requestHandlerTypes(Class<?> handler) {
        for (Class<?> type = handler; type != null; type = type.getSuperclass()) {
            for (Type t : type.getGenericInterfaces()) {
                if (t instanceof ParameterizedType p && p.getRawType() == RequestHandler.class) {
                    return p.getActualTypeArguments();
                }
            }
        }
        throw new IllegalArgumentException(handler + " is neither a RequestStreamHandler nor a RequestHandler<I, O>");
    }

    private static final LambdaLogger LOGGER = new LambdaLogger() {
        @Override
        public void log(String message) {
            System.err.print(message);
        }

        @Override
        public void log(byte[] message) {
            System.err.write(message, 0, message.length);
        }
    };

    private static final Context CONTEXT = new Context() {
        public String getAwsRequestId() {
            return "cold-start-bench";
        }

        public String getLogGroupName() {
            return "/aws/lambda/bench";
        }

        public String getLogStreamName() {
            return "bench";
        }

        public String getFunctionName() {
            return "bench";
        }

        public String getFunctionVersion() {
            return "$LATEST";
        }

        public String getInvokedFunctionArn() {
            return "arn:aws:lambda:us-east-1:123456789012:function:bench";
        }

        public CognitoIdentity getIdentity() {
            return null;
        }

        public ClientContext getClientContext() {
            return null;
        }

        public int getRemainingTimeInMillis() {
            return 10_000;
        }

        public int getMemoryLimitInMB() {
            return 1024;
        }

        public LambdaLogger getLogger() {
            return LOGGER;
        }
    };
}
