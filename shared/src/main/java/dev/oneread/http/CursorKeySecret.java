package dev.oneread.http;

import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.secretsmanager.model.GetSecretValueRequest;

/**
 * The cursor keys from Secrets Manager: the secret the template names ({@code CursorKeySecret}), whose value
 * is {@link CursorKeys}' JSON. Read at init and on rotation (see {@link Cursors}); IAM lets the function read
 * this one secret and nothing else.
 *
 * <pre>{@code CursorKeys.Source keys = new CursorKeySecret(client, "arn:aws:secretsmanager:...:secret:oneread-cursor-keys-AbCdEf");}</pre>
 */
public record CursorKeySecret(SecretsManagerClient client, String secretId) implements CursorKeys.Source {

    /** The request sent: the secret's current version (AWSCURRENT, the default). */
    public GetSecretValueRequest request() {
        return GetSecretValueRequest.builder().secretId(secretId).build();
    }

    @Override
    public CursorKeys load() {
        return CursorKeys.parse(client.getSecretValue(request()).secretString());
    }
}
