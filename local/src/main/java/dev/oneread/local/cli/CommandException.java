package dev.oneread.local.cli;

/**
 * A command cannot do what it was asked: its message is the one line the user sees after the command's
 * name, and its exit code says why (1 it failed, 2 it refused the request as given).
 */
public final class CommandException extends RuntimeException {
    private final int exitCode;

    public CommandException(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
