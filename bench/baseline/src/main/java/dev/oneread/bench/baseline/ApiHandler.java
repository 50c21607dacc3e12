package dev.oneread.bench.baseline;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** What both baseline handlers start with, as a team's shared base class would: the SDK's defaults, and Jackson. */
abstract class ApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {
    protected final DynamoDbClient dynamoDb = DynamoDbClient.create();
    protected final ObjectMapper mapper = new ObjectMapper();
    protected final String table = System.getenv("TABLE_NAME");

    protected APIGatewayV2HTTPResponse json(int status, Object body) {
        try {
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(status)
                    .withHeaders(Map.of("content-type", "application/json"))
                    .withBody(mapper.writeValueAsString(body))
                    .build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
