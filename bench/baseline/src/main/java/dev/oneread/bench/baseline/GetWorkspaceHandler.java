package dev.oneread.bench.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/** GET /workspaces/{workspaceId}, the common way: one GetItem of WS#id / META. */
public class GetWorkspaceHandler extends ApiHandler {
    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String id = event.getPathParameters().get("workspaceId");
        GetItemResponse item = dynamoDb.getItem(r -> r.tableName(table)
                .key(Map.of(
                        "EntityRef", AttributeValue.fromS("WS#" + id),
                        "Detail", AttributeValue.fromS("META"))));
        if (!item.hasItem() || item.item().isEmpty()) {
            return json(404, Map.of("title", "Not Found"));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", id);
        body.put("name", item.item().get("name").s());
        body.put("version", Long.parseLong(item.item().get("version").n()));
        body.put("createdAt", item.item().get("createdAt").s());
        body.put("updatedAt", item.item().get("updatedAt").s());
        return json(200, body);
    }
}
