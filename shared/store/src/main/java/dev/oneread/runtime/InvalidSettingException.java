package dev.oneread.runtime;

/**
 * A setting in the function's environment that it cannot use: thrown at init, so that the function never starts with
 * it (with SnapStart, the version is never published). Its message is the whole story, in one line: the variable, its
 * template parameter where it has one, the value and the rule. The local runner logs it as that one line, without
 * frames.
 *
 * <pre>{@code throw new InvalidSettingException("PROJECT_QUOTA is '1.5': not a whole number from 1 to 2147483647");}</pre>
 */
public final class InvalidSettingException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public InvalidSettingException(String message) {
        super(message);
    }
}
