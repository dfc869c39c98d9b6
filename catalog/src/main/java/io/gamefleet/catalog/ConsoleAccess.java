package io.gamefleet.catalog;

/**
 * Who signs in to the console a stack serves (docs/console.md, "Signing in"): a member of the user
 * pool's {@link #ADMINS_GROUP} gets the ADMIN role's credentials; a member of {@link #VIEWERS_GROUP}
 * the viewer role's, which reads what a MATCHMAKER reads with GET and changes nothing (no claim,
 * no session, no write). A viewer is no catalog {@link Role}: the REST routes take it as any
 * caller bound to no instance and no ADMIN, and the JSON door admits its sessions for these reads.
 */
public final class ConsoleAccess {
    public static final String ADMINS_GROUP = "admins";
    public static final String VIEWERS_GROUP = "viewers";

    private ConsoleAccess() {}

    /** An operation a viewer may call: a MATCHMAKER's read. */
    public static boolean viewerReads(Route route) {
        return route.method().equals("GET") && route.roles().contains(Role.MATCHMAKER);
    }

    /** One of Gamefleet's own routes a viewer may call: a MATCHMAKER's read. */
    public static boolean viewerReads(ExtensionRoute route) {
        return route.method().equals("GET") && route.roles().contains(Role.MATCHMAKER);
    }
}
