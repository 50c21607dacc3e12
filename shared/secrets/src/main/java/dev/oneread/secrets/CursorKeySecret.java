package dev.oneread.secrets;

import dev.oneread.runtime.AwsClients;
import dev.oneread.runtime.CursorKeys;
import java.util.Map;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueRequest;

/**
 * The cursor keys from Secrets Manager: the secret the template names ({@code CursorKeySecret}), whose value
 * is {@link CursorKeys}' JSON. Read at init and on rotation (see {@code Cursors}); IAM lets the function read
 * this one secret and nothing else. Its own module, so that only the functions that page carry the Secrets Manager
 * client.
 *
 * <pre>{@code FunctionConfig config = FunctionConfig.fromEnvironment("ListProjects", CursorKeySecret::fromEnvironment);}</pre>
 */
public record CursorKeySecret(SecretsManagerClient client, String secretId) implements CursorKeys.Source {

    /** Overrides the Secrets Manager endpoint (tests, local stand-ins); unset on Lambda. */
    public static final String ENDPOINT_VARIABLE = "SECRETS_MANAGER_ENDPOINT";

    /**
     * The secret {@code secretId} read by a Secrets Manager client configured from {@code environment} as
     * DynamoDB's is ({@link AwsClients}), with standard retries: a {@link CursorKeys.SecretReader}.
     */
    public static CursorKeySecret fromEnvironment(Map<String, String> environment, String secretId) {
        return new CursorKeySecret(
                AwsClients.build(SecretsManagerClient.builder(), environment, ENDPOINT_VARIABLE), secretId);
    }

    /** The request sent: the secret's current version (AWSCURRENT, the default). */
    public GetSecretValueRequest request() {
        return GetSecretValueRequest.builder().secretId(secretId).build();
    }

    @Override
    public CursorKeys load() {
        return CursorKeys.parse(client.getSecretValue(request()).secretString());
    }
}
