package dev.oneread.tests.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test whose subject is a rate: it offers real load for real seconds (throttled partitions, a job's pace, a bulk
 * load under an open console). Tagged {@value #TAG}, which the fast loop ({@code mvn -B -Pfast verify}) leaves out
 * and {@code mvn -B verify} runs.
 *
 * <pre>{@code @OffersLoad class ThrottlingApiTest { ... }}</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(OffersLoad.TAG)
public @interface OffersLoad {
    String TAG = "load";
}
