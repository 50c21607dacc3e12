package dev.oneread.local.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * What a command reads and writes: standard streams and environment, passed in rather than taken from
 * {@code System}, so that tests run commands in-process and read what they print.
 */
public record CommandIo(InputStream in, PrintStream out, PrintStream err, Map<String, String> environment) {}
