package dev.oneread.tests.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * A test that drives Chromium through chromedriver (Selenium): tagged {@value #TAG}, which the fast loop ({@code mvn -B
 * -Pfast verify}) leaves out and {@code mvn -B verify} runs.
 *
 * <pre>{@code @UsesBrowser class ConsoleBrowserTest { ... }}</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(UsesBrowser.TAG)
public @interface UsesBrowser {
    String TAG = "browser";
}
