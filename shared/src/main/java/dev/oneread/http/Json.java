package dev.oneread.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The JSON mapping of the HTTP layer, on jackson-jr: a few hundred classes fewer than jackson-databind,
 * which shows in cold start. Floats are read as BigDecimal so that settings round-trip exactly; duplicate
 * keys are an error rather than last-one-wins, because two values for one field is ambiguous input.
 */
public final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JSON JSON_MAPPER = JSON.builder()
            .enable(JSON.Feature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JSON.Feature.FAIL_ON_DUPLICATE_MAP_KEYS)
            .enable(JSON.Feature.WRITE_NULL_PROPERTIES)
            .disable(JSON.Feature.PRETTY_PRINT_OUTPUT)
            .build();

    private Json() {
    }

    public static String write(Object value) {
        try {
            return JSON_MAPPER.asString(value);
        } catch (IOException e) {
            throw new IllegalStateException("value is not serialisable to JSON", e);
        }
    }

    /**
     * Parses a JSON object; anything else (array, scalar, malformed, or trailing content after the object, which
     * jackson-jr alone would ignore) is a {@link MalformedJsonException}.
     */
    public static Map<String, Object> readObject(String text) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            Object value = JSON_MAPPER.anyFrom(parser);
            if (parser.nextToken() != null) {
                throw new MalformedJsonException(null);
            }
            return asObject(value);
        } catch (IOException | RuntimeException e) {
            throw e instanceof MalformedJsonException m ? m : new MalformedJsonException(e);
        }
    }

    public static Map<String, Object> readObject(InputStream in) throws IOException {
        Object value;
        try {
            value = JSON_MAPPER.anyFrom(in);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new MalformedJsonException(e);
        }
        return asObject(value);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new MalformedJsonException(null);
    }

    /** The text is not a JSON object. */
    public static final class MalformedJsonException extends RuntimeException {
        MalformedJsonException(Throwable cause) {
            super("body is not a JSON object", cause, false, false);
        }
    }
}
