package dev.oneread.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The environment variables this function sees. On Lambda that is exactly {@code System.getenv()}.
 *
 * <p>The local runner hosts every function in one JVM, each in its own class loader, and a process has only
 * one environment. So the runner writes each function's template environment into a properties file at the
 * root of that function's unpacked artifact, and this class, loaded separately by each function, overlays
 * it. A deployed zip has no such file.
 */
public final class FunctionEnvironment {
    /** Written by the local runner into a function's unpacked artifact; never present on Lambda. */
    public static final String LOCAL_OVERLAY = "oneread-local-environment.properties";

    private FunctionEnvironment() {}

    public static Map<String, String> get() {
        return Holder.ENVIRONMENT;
    }

    private static Map<String, String> load() {
        Map<String, String> environment = new HashMap<>(System.getenv());
        ClassLoader loader = FunctionEnvironment.class.getClassLoader();
        URL overlay = loader == null ? null : loader.getResource(LOCAL_OVERLAY);
        if (overlay != null) {
            Properties properties = new Properties();
            try (InputStream in = overlay.openStream()) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + LOCAL_OVERLAY, e);
            }
            properties.forEach((k, v) -> environment.put((String) k, (String) v));
        }
        return Map.copyOf(environment);
    }

    private static final class Holder {
        static final Map<String, String> ENVIRONMENT = load();
    }
}
