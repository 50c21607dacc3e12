package dev.oneread.local.runner;

import dev.oneread.local.auth.JwtAuthorizer;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
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
    private static final DateTimeFormatter REQUEST_TIME = DateTimeFormatter.ofPattern(
                    "dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

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
        Map<String, String> headers = new LinkedHashMap<>();
        List<String> cookies = new ArrayList<>();
        request.headers().forEach((name, values) -> {
            String key = name.toLowerCase(Locale.ROOT);
            if (key.equals("cookie")) {
                for (String value : values) {
                    for (String cookie : value.split(";")) {
                        if (!cookie.isBlank()) {
                            cookies.add(cookie.strip());
                        }
                    }
                }
                return;
            }
            String joined = String.join(",", values);
            headers.merge(key, joined, (a, b) -> a + "," + b);
        });
        String rawQuery = request.rawQuery() == null ? "" : request.rawQuery();
        Map<String, String> query = new LinkedHashMap<>();
        if (!rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
                query.merge(key, value, (a, b) -> a + "," + b);
            }
        }
        Map<String, String> pathParameters = new LinkedHashMap<>();
        rawParameters.forEach((k, v) -> pathParameters.put(k, decodePath(v)));
        Instant now = Instant.now();
        HttpApiEvent.Http http = new HttpApiEvent.Http(
                request.method(),
                decodePath(request.rawPath()),
                request.protocol(),
                request.sourceIp(),
                headers.getOrDefault("user-agent", ""));
        HttpApiEvent.RequestContext context = new HttpApiEvent.RequestContext(
                "123456789012",
                "local",
                authorizer,
                request.host(),
                request.host().split("[.:]", 2)[0],
                http,
                UUID.randomUUID().toString(),
                route.routeKey(),
                "$default",
                REQUEST_TIME.format(now),
                now.toEpochMilli());
        // A body that is not valid UTF-8 cannot be passed as text without changing it: it goes base64, bytes as
        // sent, and the function decides (oneread answers 400).
        boolean binary = request.body().length > 0
                && (!isText(headers.getOrDefault("content-type", "")) || !isUtf8(request.body()));
        String body = request.body().length == 0
                ? null
                : binary
                        ? Base64.getEncoder().encodeToString(request.body())
                        : new String(request.body(), StandardCharsets.UTF_8);
        return new HttpApiEvent(
                route.routeKey(),
                request.rawPath(),
                rawQuery,
                cookies.isEmpty() ? null : cookies,
                headers,
                query.isEmpty() ? null : query,
                context,
                pathParameters.isEmpty() ? null : pathParameters,
                body,
                binary);
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
