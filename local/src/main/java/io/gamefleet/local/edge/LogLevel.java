package io.gamefleet.local.edge;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How much of the profile's log goes to the terminal ({@code local/run --log LEVEL}): the access
 * log's lines ({@link AccessLog}), the functions' records and the agents' lines. The agents'
 * background requests are those each agent makes on its own every few seconds, whether anything
 * happens or not: its instance metadata reads ({@code /_local/imds/...}, its IMDSv2 token and keys)
 * and its game servers' heartbeats (an UpdateGameServer with {@code HealthCheck} alone).
 */
public enum LogLevel {
    /** Every request's line, the agents' background ones too. */
    ALL,
    /** Every request's line but the agents' background ones (the default). */
    REQUESTS,
    /** No request's line; the functions' records and the agents' lines. */
    QUIET,
    /** Only what went wrong: the requests refused or failed (4xx, 5xx, dropped), and the warnings and errors. */
    ERRORS;

    /** As the flag takes it: {@code all}, {@code requests}, ... */
    public String flagValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** {@code all|requests|quiet|errors}, for the flag's help. */
    public static String choices() {
        return Arrays.stream(values()).map(LogLevel::flagValue).collect(Collectors.joining("|"));
    }

    /** The level a flag's value names. */
    public static LogLevel of(String flag, String value) {
        return Arrays.stream(values()).filter(l -> l.flagValue().equals(value)).findFirst().orElseThrow(() ->
                new IllegalArgumentException(flag + " takes one of " + choices().replace("|", ", ") + ", not " + value));
    }

    /** Whether any request's line is written. */
    public boolean logsRequests() {
        return this != QUIET;
    }

    /** Whether a record or line of this level (INFO, WARN, ERROR...) is written. */
    public boolean logs(String recordLevel) {
        return this != ERRORS || !recordLevel.equals("INFO") && !recordLevel.equals("DEBUG")
                && !recordLevel.equals("TRACE");
    }
}
