package dev.oneread.runtime;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that sends nothing: it answers every request with one DynamoDB response, as DynamoDB sends it
 * (status 200, its content type, and the CRC32 header the SDK checks the body against).
 *
 * <p>Why: SnapStart priming runs a function's success path, which its priming request (a workspace that cannot
 * exist) never reaches, on a client built on this one ({@link DynamoDbClients#answering}). Everything of a real read
 * then runs, and is loaded and compiled into the snapshot: the SDK's marshalling, signing, interceptors and
 * unmarshalling of items and of a fractional consumed capacity, then the store's parsing. The SDK's own warm-up
 * ({@code SdkWarmUp}) primes a client the same way, with a canned response; it answers one operation with an empty
 * body, so it reaches no item.
 */
public final class SampleHttpClient implements SdkHttpClient {
    private final byte[] body;
    private final String crc32;

    public SampleHttpClient(String responseJson) {
        this.body = responseJson.getBytes(StandardCharsets.UTF_8);
        CRC32 checksum = new CRC32();
        checksum.update(body);
        this.crc32 = Long.toString(checksum.getValue());
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                return HttpExecuteResponse.builder()
                        .response(SdkHttpResponse.builder()
                                .statusCode(200)
                                .putHeader("Content-Type", "application/x-amz-json-1.0")
                                .putHeader("x-amz-crc32", crc32)
                                .build())
                        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(body)))
                        .build();
            }

            @Override
            public void abort() {}
        };
    }

    @Override
    public String clientName() {
        return "oneread-sample";
    }

    @Override
    public void close() {}
}
