package dev.oneread.local.runner;

import java.net.URLDecoder;
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
 * Builds the HTTP API payload format 2.0 event API Gateway would send for one request: lower-cased
 * headers with repeats joined by commas, cookies split out, query keys joined by commas, percent-decoded
 * path and query parameters, text bodies as they are and anything else base64-encoded.
 */
public final class HttpApiEventBuilder {
    private static final DateTimeFormatter REQUEST_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private HttpApiEventBuilder() {
    }

    /** A request as it arrived, before API Gateway's processing. */
    public record IncomingRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers,
                                  byte[] body, String sourceIp, String protocol, String host) {
    }

    public static Map<String, Object> build(IncomingRequest request, RouteSpec route, Map<String, String> rawParameters,
                                            Map<String, Object> authorizer) {
        Map<String, Object> headers = new LinkedHashMap<>();
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
        String userAgent = String.valueOf(headers.getOrDefault("user-agent", ""));
        Instant now = Instant.now();
        Map<String, Object> http = new LinkedHashMap<>();
        http.put("method", request.method());
        http.put("path", decodePath(request.rawPath()));
        http.put("protocol", request.protocol());
        http.put("sourceIp", request.sourceIp());
        http.put("userAgent", userAgent);
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("accountId", "123456789012");
        context.put("apiId", "local");
        if (authorizer != null) {
            context.put("authorizer", authorizer);
        }
        context.put("domainName", request.host());
        context.put("domainPrefix", request.host().split("[.:]", 2)[0]);
        context.put("http", http);
        context.put("requestId", UUID.randomUUID().toString());
        context.put("routeKey", route.routeKey());
        context.put("stage", "$default");
        context.put("time", REQUEST_TIME.format(now));
        context.put("timeEpoch", now.toEpochMilli());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("version", "2.0");
        event.put("routeKey", route.routeKey());
        event.put("rawPath", request.rawPath());
        event.put("rawQueryString", rawQuery);
        if (!cookies.isEmpty()) {
            event.put("cookies", cookies);
        }
        event.put("headers", headers);
        if (!query.isEmpty()) {
            event.put("queryStringParameters", query);
        }
        event.put("requestContext", context);
        if (!pathParameters.isEmpty()) {
            event.put("pathParameters", pathParameters);
        }
        boolean binary = request.body().length > 0 && !isText(String.valueOf(headers.getOrDefault("content-type", "")));
        if (request.body().length > 0) {
            event.put("body", binary ? Base64.getEncoder().encodeToString(request.body())
                    : new String(request.body(), StandardCharsets.UTF_8));
        }
        event.put("isBase64Encoded", binary);
        return event;
    }

    static boolean isText(String contentType) {
        String type = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return type.startsWith("text/") || type.equals("application/json") || type.endsWith("+json")
                || type.equals("application/xml") || type.endsWith("+xml") || type.equals("application/javascript")
                || type.equals("application/x-www-form-urlencoded") || type.equals("application/graphql");
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
