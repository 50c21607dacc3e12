package dev.oneread.model;

import java.util.Map;

/** The response an idempotent request produced the first time, kept to answer its retries identically. */
public record StoredResponse(int status, Map<String, String> headers, String body) {
    public StoredResponse {
        headers = Map.copyOf(headers);
    }
}
