package dev.oneread.local.runner;

import dev.oneread.http.HttpApiEvent;
import dev.oneread.local.auth.JwtAuthorizer;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Builds the {@link HttpApiEvent} (payload format 2.0) API Gateway would send for one request: lower-cased
 * headers with repeats joined by commas, cookies split out, query keys joined by commas, percent-decoded
 * path and query parameters, text bodies as they are and anything else base64-encoded.
 *
 * <pre>{@code HttpApiEvent event = HttpApiEventBuilder.build(request, route, route.match(request.rawPath()), jwt);}</pre>
 */
public final class HttpApiEventBuilder {
    /** The account and API id the runner's events name: placeholders, as no AWS account is involved. */
    private static final String ACCOUNT_ID = "123456789012";

    private static final String API_ID = "local";

    private HttpApiEventBuilder() {}

    /** A request as it arrived, before API Gateway's processing. */
    public record IncomingRequest(
            String method,
            String rawPath,
            String rawQuery,
            Map<String, List<String>> headers,
            byte[] body,
            String sourceIp,
            String protocol,
            String host) {}

    public static HttpApiEvent build(
            IncomingRequest request, RouteSpec route, Map<String, String> rawParameters, JwtAuthorizer authorizer) {
        HttpApiEvent.Builder event = HttpApiEvent.builder(route.method(), route.path())
                .httpMethod(request.method())
                .path(request.rawPath(), decodePath(request.rawPath()))
                .rawQueryString(request.rawQuery() == null ? "" : request.rawQuery())
                .api(ACCOUNT_ID, API_ID, request.host())
                .source(request.sourceIp(), request.protocol())
                .received(UUID.randomUUID().toString(), Instant.now());
        Map<String, String> headers = headers(request.headers(), event);
        headers.forEach(event::header);
        query(request.rawQuery()).forEach(event::query);
        rawParameters.forEach((name, value) -> event.pathParameter(name, decodePath(value)));
        if (authorizer != null) {
            event.authorizer(new HttpApiEvent.Jwt(authorizer.claims(), authorizer.scopes()));
        }
        byte[] body = request.body();
        // A body that is not valid UTF-8 cannot be passed as text without changing it: it goes base64, bytes as
        // sent, and the function decides (oneread answers 400).
        if (body.length > 0 && isText(headers.getOrDefault("content-type", "")) && isUtf8(body)) {
            event.body(new String(body, StandardCharsets.UTF_8));
        } else if (body.length > 0) {
            event.base64Body(Base64.getEncoder().encodeToString(body));
        }
        return event.build();
    }

    /** Lower-cased names, repeats joined with commas; cookies go to the event's {@code cookies}, one by one. */
    private static Map<String, String> headers(Map<String, List<String>> sent, HttpApiEvent.Builder event) {
        Map<String, String> headers = new LinkedHashMap<>();
        sent.forEach((name, values) -> {
            String key = name.toLowerCase(Locale.ROOT);
            if (!key.equals("cookie")) {
                headers.merge(key, String.join(",", values), (a, b) -> a + "," + b);
                return;
            }
            for (String value : values) {
                for (String cookie : value.split(";")) {
                    if (!cookie.isBlank()) {
                        event.cookie(cookie.strip());
                    }
                }
            }
        });
        return headers;
    }

    /** Decoded names and values, a repeated name's values joined with commas. */
    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new LinkedHashMap<>();
        if (rawQuery == null) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            query.merge(key, value, (a, b) -> a + "," + b);
        }
        return query;
    }

    static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    static boolean isText(String contentType) {
        String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return type.startsWith("text/")
                || type.equals("application/json")
                || type.endsWith("+json")
                || type.equals("application/xml")
                || type.endsWith("+xml")
                || type.equals("application/javascript")
                || type.equals("application/x-www-form-urlencoded")
                || type.equals("application/graphql");
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // API Gateway passes a malformed escape through rather than failing the request
        }
    }

    /** Path segments decode %XX but keep '+' literal (unlike form-encoded query strings). */
    static String decodePath(String s) {
        return decode(s.replace("+", "%2B"));
    }
}
