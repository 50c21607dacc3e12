package dev.oneread.local.iam;

import java.util.List;
import java.util.Map;

/**
 * One authorization request as IAM evaluates it: one action on one resource, with the request's context keys
 * (a key the request does not carry is absent, which matters to {@code ForAllValues} and {@code ForAnyValue}).
 *
 * <pre>{@code new IamRequest("dynamodb:GetItem", tableArn, Map.of("dynamodb:LeadingKeys", List.of("WS#acme")))}</pre>
 */
public record IamRequest(String action, String resource, Map<String, List<String>> context) {
    public IamRequest {
        context = Map.copyOf(context);
    }
}
