package io.gamefleet.catalog;

/** Names shared by the functions, the CDK app and the local profile. */
public final class Catalog {
    /** Every Lambda function's name starts with this (deployed and local). */
    public static final String FUNCTION_PREFIX = "gamefleet-";
    /** CloudWatch namespace of the FleetIQ-named metrics. */
    public static final String METRICS_NAMESPACE = "Gamefleet";
    /** Tag put on every Auto Scaling group and instance Gamefleet manages; IAM conditions key on it. */
    public static final String MANAGED_TAG_KEY = "gamefleet:game-server-group";

    private Catalog() {}
}
