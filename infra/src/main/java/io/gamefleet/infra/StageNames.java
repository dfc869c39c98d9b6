package io.gamefleet.infra;

import io.gamefleet.catalog.Catalog;
import java.util.regex.Pattern;

/**
 * The physical names of one stage of Gamefleet: functions, state machines, the schedule, the event
 * rule, alarms and the Auto Scaling groups' prefix all carry the stage, so two stages in one account
 * and region share no name, and each stage's IAM reaches only its own Auto Scaling groups (by name and
 * by stage tag).
 */
record StageNames(String stage) {
    /** Short enough that the longest name ({@code gamefleet-<stage>-DescribeGameServerInstances}) fits Lambda's 64. */
    private static final Pattern STAGE = Pattern.compile("^[a-z][a-z0-9-]{0,19}$");

    StageNames {
        if (!STAGE.matcher(stage).matches()) {
            throw new IllegalArgumentException("context stage must be 1 to 20 lower-case letters, digits or hyphens, "
                    + "starting with a letter, not \"" + stage + "\"");
        }
    }

    /** A catalog name ({@code gamefleet-<Name>}) as this stage's resource is called. */
    String of(String catalogName) {
        if (!catalogName.startsWith(Catalog.FUNCTION_PREFIX)) {
            throw new IllegalArgumentException(catalogName + " is not a catalog name");
        }
        return prefix() + catalogName.substring(Catalog.FUNCTION_PREFIX.length());
    }

    /** What every physical name of the stage starts with but its Auto Scaling groups' ({@link #scalingGroupPrefix}). */
    String prefix() {
        return Catalog.FUNCTION_PREFIX + stage + "-";
    }

    /** What the stage's Auto Scaling groups' names start with: no other stage's and group's make the same name. */
    String scalingGroupPrefix() {
        return Catalog.scalingGroupPrefix(stage);
    }
}
