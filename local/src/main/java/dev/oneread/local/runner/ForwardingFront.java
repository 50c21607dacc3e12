package dev.oneread.local.runner;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** What the runner's fronts share when they pass a request on: its body, within a bound; its headers; the answer. */
final class Forwarding {
    /** Headers HttpClient sets itself (or refuses), and hop-by-hop headers that must not be passed on. */
    private static final Set<String> NOT_PASSED = Set.of(
            "host",
            "connection",
            "content-length",
            "expect",
            "upgrade",
            "transfer-encoding",
            "keep-alive",
            "te",
            "trailer",
            "proxy-connection",
            "date",
            "server");

    private Forwarding() {}

    /**
     * The body of a request a front may pass on: from a tool (the guard's loopback Host, no Origin), a POST (the SDKs'
     * JSON protocols; SQS's query protocol would read a GET's parameters as a call, GET /?Action=PurgeQueue), within
     * {@code maxBytes}. Null when it may not, the refusal already answered as a problem+json.
     *
     * @param postOnly what the 405 says the front takes
     */
    static byte[] admitted(
            LoopbackGuard guard, Request request, Response response, Callback callback, int maxBytes, String postOnly)
            throws IOException {
        Optional<LoopbackGuard.Refusal> refused = guard.check(
                request.getHeaders().get(HttpHeader.HOST), request.getHeaders().get(HttpHeader.ORIGIN));
        if (refused.isEmpty() && !request.getMethod().equals("POST")) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            refused = Optional.of(new LoopbackGuard.Refusal(405, postOnly));
        }
        byte[] body = refused.isPresent() ? null : body(request, maxBytes);
        if (body == null && refused.isEmpty()) {
            refused = Optional.of(new LoopbackGuard.Refusal(413, "the request body is too large"));
        }
        if (refused.isPresent()) {
            LoopbackServer.problem(
                    response, refused.get().status(), refused.get().detail(), callback);
            return null;
        }
        return body;
    }

    /** The request's body, or null when it is over {@code maxBytes}. */
    static byte[] body(Request request, int maxBytes) throws IOException {
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] body = in.readNBytes(maxBytes + 1);
            return body.length > maxBytes ? null : body;
        }
    }

    /** {@code forwarded} with the request's end-to-end headers. */
    static HttpRequest.Builder headers(Request request, HttpRequest.Builder forwarded) {
        for (HttpField field : request.getHeaders()) {
            if (!NOT_PASSED.contains(field.getLowerCaseName())) {
                try {
                    forwarded.header(field.getName(), field.getValue());
                } catch (IllegalArgumentException restricted) {
                    // a header the JDK's client will not send (From, Via, Warning): no AWS service reads them
                }
            }
        }
        return forwarded;
    }

    /** Writes the answer passed on: its status, its end-to-end headers and its body. */
    static void answer(Response response, HttpResponse<byte[]> answer, Callback callback) {
        response.setStatus(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            if (!NOT_PASSED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(value -> response.getHeaders().add(name, value));
            }
        });
        response.write(true, ByteBuffer.wrap(answer.body()), callback);
    }
}
