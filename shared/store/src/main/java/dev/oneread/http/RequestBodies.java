package dev.oneread.http;

import dev.oneread.keys.WorkspaceId;
import dev.oneread.model.DynamoDbNumber;
import dev.oneread.model.NewProject;
import dev.oneread.model.NewWorkspace;
import dev.oneread.model.Project;
import dev.oneread.model.ProjectPatch;
import dev.oneread.model.ProjectQuota;
import dev.oneread.model.ProjectStatus;
import dev.oneread.model.Workspace;
import dev.oneread.model.WorkspacePatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Validates request bodies into model records. Unknown fields are rejected (a typo must not be silently
 * dropped), and sizes are bounded well below DynamoDB's 400 KB item limit so that a valid body always
 * makes a valid item.
 */
public final class RequestBodies {
    static final int MAX_BODY_CHARS = 64 * 1024;
    static final int MAX_NAME = 200;
    static final int MAX_DESCRIPTION = 2_000;
    static final int MAX_SETTINGS_DEPTH = 5;
    static final int MAX_SETTINGS_KEYS = 100;
    static final int MAX_SETTINGS_STRING = 4_000;
    /** The field of a workspace's own project quota, which only operators set. */
    public static final String PROJECT_QUOTA = "projectQuota";
    /** What {@link DisplayText} refuses, as the problem details say it. */
    private static final String REFUSED_CHARACTERS =
            "control, format, separator, private-use, unassigned, default-ignorable or non-characters";

    private RequestBodies() {}

    /** {@code {"id","name","settings"?,"projectQuota"?}} for CreateWorkspace (operators only). */
    public static NewWorkspace newWorkspace(ApiRequest request) {
        Map<String, Object> body = body(request);
        allowOnly(body, Set.of("id", "name", "settings", PROJECT_QUOTA));
        Object id = body.get("id");
        if (!(id instanceof String)) {
            throw HttpProblemException.badRequest("id is required and must be a string");
        }
        return new NewWorkspace(
                WorkspaceId.of((String) id),
                name(body),
                present(body, "settings", RequestBodies::settings, Map.of()),
                present(body, PROJECT_QUOTA, RequestBodies::projectQuota, null));
    }

    /**
     * {@code {"name","description"?,"status"?}} for CreateProject. As in a PATCH, a {@code null} status or
     * settings is refused rather than read as "absent": one rule for both, so a client learns it once.
     */
    public static NewProject newProject(ApiRequest request) {
        Map<String, Object> body = body(request);
        allowOnly(body, Set.of("name", "description", "status"));
        return new NewProject(
                name(body),
                optionalString(body, "description", MAX_DESCRIPTION),
                present(body, "status", RequestBodies::status, ProjectStatus.ACTIVE));
    }

    /**
     * {@code {"name"?, "settings"?, "projectQuota"?}} for PATCH /workspaces/{id}: at least one; settings replaces the
     * whole map. Only an operator may send projectQuota: the caller checks it, before any call.
     */
    public static WorkspacePatch workspacePatch(ApiRequest request) {
        Map<String, Object> body = body(request);
        allowOnly(body, Set.of("name", "settings", PROJECT_QUOTA));
        WorkspacePatch patch = new WorkspacePatch(
                body.containsKey("name") ? name(body) : null,
                present(body, "settings", RequestBodies::settings, null),
                present(body, PROJECT_QUOTA, RequestBodies::projectQuota, null));
        if (patch.isEmpty()) {
            throw HttpProblemException.badRequest("give at least one of name, settings, projectQuota");
        }
        return patch;
    }

    /** {@code {"name"?, "description"? (null clears it), "status"?}} for PATCH of a project: at least one. */
    public static ProjectPatch projectPatch(ApiRequest request) {
        Map<String, Object> body = body(request);
        allowOnly(body, Set.of("name", "description", "status"));
        boolean clearDescription = body.containsKey("description") && body.get("description") == null;
        ProjectPatch patch = new ProjectPatch(
                body.containsKey("name") ? name(body) : null,
                optionalString(body, "description", MAX_DESCRIPTION),
                clearDescription,
                present(body, "status", RequestBodies::status, null));
        if (patch.isEmpty()) {
            throw HttpProblemException.badRequest("give at least one of name, description, status");
        }
        return patch;
    }

    /**
     * Why a workspace read from elsewhere (a fixture file) is not one a request could have made: its name or
     * settings break the rules a body is held to, or are not in the form they are stored in (NFC). Empty when a
     * request could have made it.
     */
    public static Optional<String> notStorable(Workspace workspace) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", workspace.name());
        return storedAsGiven(() -> name(body).equals(workspace.name())
                && settings(workspace.settings()).equals(workspace.settings()));
    }

    /** As {@link #notStorable(Workspace)}, for a project's name and description. */
    public static Optional<String> notStorable(Project project) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", project.name());
        body.put("description", project.description());
        return storedAsGiven(() -> name(body).equals(project.name())
                && java.util.Objects.equals(
                        optionalString(body, "description", MAX_DESCRIPTION), project.description()));
    }

    private static Optional<String> storedAsGiven(java.util.function.BooleanSupplier unchangedByTheRules) {
        try {
            return unchangedByTheRules.getAsBoolean()
                    ? Optional.empty()
                    : Optional.of("text is not in NFC, the form the API stores");
        } catch (HttpProblemException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** A field that may be left out, but is never {@code null} when given: parsed, or {@code absent}. */
    private static <T> T present(Map<String, Object> body, String field, Function<Object, T> parse, T absent) {
        if (!body.containsKey(field)) {
            return absent;
        }
        Object value = body.get(field);
        if (value == null) {
            throw HttpProblemException.badRequest(field + " must not be null");
        }
        return parse.apply(value);
    }

    private static Map<String, Object> body(ApiRequest request) {
        if (request.body() != null && request.body().length() > MAX_BODY_CHARS) {
            throw new HttpProblemException(413, "body must be at most " + MAX_BODY_CHARS + " characters");
        }
        return request.jsonBody();
    }

    private static void allowOnly(Map<String, Object> body, Set<String> allowed) {
        for (String field : body.keySet()) {
            if (!allowed.contains(field)) {
                throw HttpProblemException.badRequest("unknown field; allowed fields are " + sorted(allowed));
            }
        }
    }

    private static String name(Map<String, Object> body) {
        String name = optionalString(body, "name", MAX_NAME);
        if (name == null || DisplayText.isBlank(name)) {
            throw HttpProblemException.badRequest(
                    "name is required and must be 1-" + MAX_NAME + " characters, not only blanks");
        }
        requireUnpadded("name", name);
        return name;
    }

    /**
     * A name or a settings key that begins or ends with a blank (a space, a no-break space, U+2800, ...) looks like
     * the same text without it, so one would pass for the other: refused, never trimmed behind the caller's back.
     */
    private static void requireUnpadded(String what, String text) {
        if (DisplayText.isPadded(text)) {
            throw HttpProblemException.badRequest(what + " must not begin or end with a space or another blank");
        }
    }

    private static String optionalString(Map<String, Object> body, String field, int max) {
        Object value = body.get(field);
        if (value == null) {
            return null;
        }
        // The limit counts what is stored: the text in NFC.
        Optional<String> text = value instanceof String raw ? DisplayText.normalized(raw) : Optional.empty();
        if (text.isEmpty() || characters(text.get()) > max) {
            throw HttpProblemException.badRequest(
                    field + " must be a string of at most " + max + " characters, without " + REFUSED_CHARACTERS);
        }
        return text.get();
    }

    /**
     * A length as openapi.yaml's maxLength counts it: in characters (Unicode code points, as JSON Schema counts),
     * so an emoji is one, not the two UTF-16 units {@link String#length()} counts. The item stays far below
     * DynamoDB's 400 KB: the body is at most {@value #MAX_BODY_CHARS} UTF-16 units, and NFC turns one unit into at
     * most 6 UTF-8 bytes whatever unit the field limits count.
     */
    private static int characters(String text) {
        return text.codePointCount(0, text.length());
    }

    /** A workspace's own project quota: a whole number from 1 to 2^31-1, as JSON writes it (no fraction). */
    private static Integer projectQuota(Object value) {
        if (value instanceof Integer quota && ProjectQuota.isLimit(quota)) {
            return quota;
        }
        throw HttpProblemException.badRequest(PROJECT_QUOTA + " must be " + ProjectQuota.RULE);
    }

    private static ProjectStatus status(Object value) {
        for (ProjectStatus status : ProjectStatus.values()) {
            if (status.name().equals(value)) {
                return status;
            }
        }
        throw HttpProblemException.badRequest("status must be one of ACTIVE, PAUSED, ARCHIVED");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> settings(Object value) {
        if (!(value instanceof Map<?, ?>)) {
            throw HttpProblemException.badRequest("settings must be a JSON object");
        }
        return (Map<String, Object>) checkedSettings(value, 1);
    }

    /**
     * The settings value as it is stored: checked for size and depth, every key and string in NFC and free of
     * what {@link DisplayText} refuses (a console shows keys and values alike).
     */
    private static Object checkedSettings(Object value, int depth) {
        if (value instanceof Map<?, ?> map) {
            if (depth > MAX_SETTINGS_DEPTH || map.size() > MAX_SETTINGS_KEYS) {
                throw HttpProblemException.badRequest("settings may nest " + MAX_SETTINGS_DEPTH
                        + " levels with at most " + MAX_SETTINGS_KEYS + " keys per object");
            }
            Map<String, Object> checked = new LinkedHashMap<>();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                Optional<String> key = DisplayText.normalized(String.valueOf(entry.getKey()));
                if (key.isEmpty() || DisplayText.isBlank(key.get()) || characters(key.get()) > MAX_NAME) {
                    throw HttpProblemException.badRequest("settings keys must be 1-" + MAX_NAME
                            + " printable characters, not only blanks (no " + REFUSED_CHARACTERS + ")");
                }
                requireUnpadded("a settings key", key.get());
                if (checked.put(key.get(), checkedSettings(entry.getValue(), depth + 1)) != null) {
                    throw HttpProblemException.badRequest("settings keys must differ after Unicode normalisation");
                }
            }
            return checked;
        } else if (value instanceof List<?> list) {
            if (depth > MAX_SETTINGS_DEPTH || list.size() > MAX_SETTINGS_KEYS) {
                throw HttpProblemException.badRequest("settings may nest " + MAX_SETTINGS_DEPTH
                        + " levels with at most " + MAX_SETTINGS_KEYS + " elements per array");
            }
            List<Object> checked = new ArrayList<>(list.size());
            list.forEach(element -> checked.add(checkedSettings(element, depth + 1)));
            return checked;
        } else if (value instanceof String raw) {
            Optional<String> text = DisplayText.normalized(raw);
            if (text.isEmpty() || characters(text.get()) > MAX_SETTINGS_STRING) {
                throw HttpProblemException.badRequest("settings strings must be at most " + MAX_SETTINGS_STRING
                        + " characters, without " + REFUSED_CHARACTERS);
            }
            return text.get();
        } else if (value instanceof Number number && !isDynamoDbNumber(number)) {
            throw HttpProblemException.badRequest("settings numbers must be " + DynamoDbNumber.RULE);
        }
        return value;
    }

    /**
     * A JSON number as DynamoDB stores it, read from its text ({@link DynamoDbNumber}): a double's NaN or Infinity
     * has no such text.
     */
    private static boolean isDynamoDbNumber(Number number) {
        return DynamoDbNumber.isValid(number.toString());
    }

    private static String sorted(Set<String> fields) {
        return String.join(", ", new java.util.TreeSet<>(fields));
    }
}
