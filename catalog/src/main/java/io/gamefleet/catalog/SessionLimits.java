package io.gamefleet.catalog;

import java.util.regex.Pattern;

/**
 * What a session request may carry ({@link Routes#CREATE_SESSION}), and so what a server's agent
 * may be handed for the game: a UUID for its id (PlayFab's SessionId), a cookie of at most 4 KB
 * (UTF-8), and as many initial players, as long, as an agent reports of a process.
 */
public final class SessionLimits {
    /** A UUID in its canonical form, either case. */
    public static final Pattern SESSION_ID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    public static final int COOKIE_MAX_BYTES = 4096;
    public static final int MAX_INITIAL_PLAYERS = PushChannel.PROCESS_MAX_PLAYER_IDS;
    public static final int PLAYER_ID_MAX_LENGTH = PushChannel.PROCESS_MAX_PLAYER_ID_LENGTH;

    private SessionLimits() {}
}
