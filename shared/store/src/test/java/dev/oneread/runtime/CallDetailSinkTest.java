package dev.oneread.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class CallDetailSinkTest {

    @Test
    void of_shouldFindNoSink_whenTheContextIsNotAConsumer() {
        // GIVEN a context as Lambda makes it: no Consumer
        FunctionContext lambda = new TestContext();

        // WHEN / THEN
        assertThat(CallDetailSink.of(lambda)).isEmpty();
    }

    @Test
    void of_shouldHandTheDetailToTheRunner_whenTheContextIsAConsumerOfStrings() {
        // GIVEN a context as the runner makes it
        RunnerContext runner = new RunnerContext();

        // WHEN
        CallDetailSink.of(runner).orElseThrow().accept("{\"calls\":[]}");

        // THEN
        assertThat(runner.received).containsExactly("{\"calls\":[]}");
    }

    private static class TestContext extends FunctionContext {
        TestContext() {
            super("Test", "request-1", 512);
        }

        @Override
        public int getRemainingTimeInMillis() {
            return 1_000;
        }

        @Override
        public LambdaLogger getLogger() {
            return null;
        }
    }

    private static final class RunnerContext extends TestContext implements Consumer<String> {
        final List<String> received = new ArrayList<>();

        @Override
        public void accept(String detail) {
            received.add(detail);
        }
    }
}
