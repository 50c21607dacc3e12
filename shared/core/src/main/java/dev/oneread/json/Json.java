package dev.oneread.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The one JSON mapping of the project (request bodies, responses, log lines, job results, the runner's own
 * output), in a bottom package that imports nothing of the project, so every layer may use it. On jackson-jr:
 * a few hundred classes fewer than jackson-databind,
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

    private Json() {}

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
        Map<String, Object> object;
        try (JsonParser parser = FACTORY.createParser(text)) {
            Object value = JSON_MAPPER.anyFrom(parser);
            if (parser.nextToken() != null) {
                throw new MalformedJsonException(null);
            }
            object = asObject(value);
        } catch (com.fasterxml.jackson.core.JsonParseException e) {
            // jackson-core refuses a lone surrogate in a field name (but not in a value): the same fault.
            throw e.getOriginalMessage().contains("surrogate")
                    ? new InvalidTextException()
                    : new MalformedJsonException(e);
        } catch (IOException | RuntimeException e) {
            throw e instanceof MalformedJsonException m ? m : new MalformedJsonException(e);
        }
        requireWellFormedText(object);
        return object;
    }

    /**
     * A JSON string may escape half of a UTF-16 surrogate pair (the escape of U+D800 alone); no UTF-8 encoding
     * can store it, so DynamoDB would keep {@code ?} instead. Refusing it keeps what is stored what was sent.
     */
    private static void requireWellFormedText(Object value) {
        if (value instanceof String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (Character.isHighSurrogate(c)
                        && i + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(c)) {
                    throw new InvalidTextException();
                }
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                requireWellFormedText(k);
                requireWellFormedText(v);
            });
        } else if (value instanceof java.util.List<?> list) {
            list.forEach(Json::requireWellFormedText);
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

    /** A string in the JSON holds a lone UTF-16 surrogate: not Unicode text. */
    public static final class InvalidTextException extends RuntimeException {
        InvalidTextException() {
            super(
                    "strings must be valid Unicode: a lone UTF-16 surrogate such as \\ud800 is not allowed",
                    null,
                    false,
                    false);
        }
    }

    /** The text is not a JSON object. */
    public static final class MalformedJsonException extends RuntimeException {
        MalformedJsonException(Throwable cause) {
            super("body is not a JSON object", cause, false, false);
        }
    }
}
