package dev.oneread.tests.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that starts a JVM or node process of its own, beside the suite's one engine: the runner as {@code java -jar}
 * or through the {@code oneread} launcher, or a dynalite engine of its own (other partition limits, a restart on its
 * data, an {@code invoke} with an engine of its own). Start-api and the functions run in this JVM are not processes.
 * Tagged {@value #TAG}, which the fast loop ({@code mvn -B -Pfast verify}) leaves out and {@code mvn -B verify} runs.
 *
 * <pre>{@code @StartsProcesses @Test void engineLoss_shouldGive503s_andKeepEveryAcknowledgedWrite() { ... }}</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(StartsProcesses.TAG)
public @interface StartsProcesses {
    String TAG = "process";
}
