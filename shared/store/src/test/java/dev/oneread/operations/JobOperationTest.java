package dev.oneread.operations;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;

/**
 * What every job operation holds: the builders of its job's DynamoDB requests (its class's public static methods
 * that return one), or the route operations it reads with, whose builders it uses unchanged.
 */
class JobOperationTest {
    @Test
    void jobs_shouldEachHoldTheirRequestBuilders_orReadWithRouteOperations() {
        // GIVEN each job's request builders: its own, and those of the route operations it reads with
        Map<String, List<String>> builders = new TreeMap<>();
        Operations.jobs().forEach(job -> {
            List<String> names = new ArrayList<>(requestBuilders(job.getClass()));
            job.descriptor()
                    .reads()
                    .forEach(read -> requestBuilders(read.getClass()).stream()
                            .map(name -> read.getClass().getSimpleName() + "." + name)
                            .forEach(names::add));
            builders.put(job.getClass().getSimpleName(), names);
        });

        // THEN no job operation is descriptive only: each builds what its job sends
        assertThat(builders.entrySet().stream()
                        .filter(job -> job.getValue().isEmpty())
                        .map(Map.Entry::getKey)
                        .toList())
                .as("job operations that build no request (their requests are built elsewhere): %s", builders)
                .isEmpty();
        assertThat(builders.get("RunJobOperation"))
                .as("the stats and the purge task's requests")
                .contains("writeStats", "putReportEntry", "sweepPage", "deleteWorkspace");
    }

    private static List<String> requestBuilders(Class<?> operation) {
        return Arrays.stream(operation.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
                .filter(m -> DynamoDbRequest.class.isAssignableFrom(m.getReturnType()))
                .map(Method::getName)
                .distinct()
                .sorted()
                .toList();
    }
}
