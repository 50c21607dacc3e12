package dev.oneread.tests.support;

import dev.oneread.local.iam.IamLedger;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Fails every test during which a function made a call its role does not allow, with AWS's message for it: the
 * function itself may only answer 500, or retry, or log. Registered for every test (junit-platform.properties). A
 * test that makes denied calls on purpose says so with {@link DeniesOnPurpose} and checks them itself.
 */
public final class IamDenials implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(IamDenials.class);
    private static final String SEEN = "seen";

    /** On a test class or method: its denials are what it checks, not a failure. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface DeniesOnPurpose {}

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NAMESPACE).put(SEEN, IamLedger.process().denials().size());
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable thrown) throws Throwable {
        List<IamLedger.Denial> denials = newDenials(context);
        if (denials.isEmpty()) {
            throw thrown;
        }
        context.getStore(NAMESPACE).put(SEEN, IamLedger.process().denials().size());
        throw new AssertionError(describe(denials), thrown);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<IamLedger.Denial> denials = newDenials(context);
        if (!denials.isEmpty()) {
            throw new AssertionError(describe(denials));
        }
    }

    private static List<IamLedger.Denial> newDenials(ExtensionContext context) {
        if (onPurpose(context)) {
            return List.of();
        }
        Integer seen = context.getStore(NAMESPACE).get(SEEN, Integer.class);
        List<IamLedger.Denial> all = IamLedger.process().denials();
        return all.subList(seen == null ? 0 : Math.min(seen, all.size()), all.size());
    }

    private static boolean onPurpose(ExtensionContext context) {
        return context.getTestMethod()
                        .map(m -> m.isAnnotationPresent(DeniesOnPurpose.class))
                        .orElse(false)
                || context.getTestClass()
                        .map(c -> c.isAnnotationPresent(DeniesOnPurpose.class))
                        .orElse(false);
    }

    private static String describe(List<IamLedger.Denial> denials) {
        StringBuilder text = new StringBuilder("a function made a call its role in template.yaml does not allow (on "
                + "AWS: AccessDeniedException):");
        denials.stream()
                .distinct()
                .forEach(d ->
                        text.append("\n  ").append(d.function()).append(": ").append(d.message()));
        return text.toString();
    }
}
