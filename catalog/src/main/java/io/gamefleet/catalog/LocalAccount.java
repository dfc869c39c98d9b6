package io.gamefleet.catalog;

/**
 * The account the local profile pretends to be (the ARNs it builds, the default of the account
 * setting) and its default region: a profile's region, unless it is given another (several with
 * {@code local/run --regions}).
 */
public final class LocalAccount {
    public static final String REGION = "us-east-1";
    public static final String ACCOUNT_ID = "000000000000";

    private LocalAccount() {}

    /**
     * The unique id IAM would give that role (AROA and 17 letters or digits): what API Gateway's
     * caller {@code userId} starts with for its sessions, {@code <id>:<session>}.
     */
    public static String roleId(Role role) {
        String name = "AROAGAMEFLEET" + role.name().replace("_", "");
        return (name + "00000000000000000000").substring(0, 21);
    }

    /** The IAM role the local profile's callers of a role act as (their sessions are of this role). */
    public static String roleArn(Role role) {
        return "arn:aws:iam::" + ACCOUNT_ID + ":role/" + roleName(role);
    }

    /** That role's name: what a simulated instance's metadata names its instance profile's role. */
    public static String roleName(Role role) {
        return "gamefleet-" + role.name().toLowerCase().replace('_', '-');
    }
}
