package dev.oneread.local.auth;

import java.util.List;
import java.util.Map;

/**
 * What the HTTP API's JWT authorizer hands the function in {@code requestContext.authorizer.jwt}: every
 * claim as a string (an array claim flattened to {@code [a b]}), and the token's scopes, or null.
 *
 * <pre>{@code JwtAuthorizer jwt = localJwt.authorize("Bearer " + token).orElseThrow();}</pre>
 */
public record JwtAuthorizer(Map<String, String> claims, List<String> scopes) {}
