package dev.oneread.bench.baseline;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** GET /workspaces/{workspaceId}/projects, the common way: one Query of WS#id, PROJ# items, newest first. */
public class ListProjectsHandler extends ApiHandler {
    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String id = event.getPathParameters().get("workspaceId");
        QueryResponse page = dynamoDb.query(r -> r.tableName(table)
                .keyConditionExpression("EntityRef = :pk AND begins_with(Detail, :sk)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS("WS#" + id),
                        ":sk", AttributeValue.fromS("PROJ#")))
                .scanIndexForward(false)
                .limit(20));
        List<Map<String, Object>> items = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            Map<String, Object> project = new LinkedHashMap<>();
            project.put("id", item.get("Detail").s().substring("PROJ#".length()));
            project.put("name", item.get("name").s());
            project.put("status", item.get("status").s());
            project.put("version", Long.parseLong(item.get("version").n()));
            items.add(project);
        }
        return json(200, Map.of("items", items));
    }
}
