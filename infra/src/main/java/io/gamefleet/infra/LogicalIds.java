package io.gamefleet.infra;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import software.amazon.awscdk.CfnElement;
import software.constructs.Construct;
import software.constructs.IConstruct;

/**
 * Logical ids that leave out a part of the stack: a resource at Gamefleet/DataStores/GameServerGroups
 * keeps the id CDK gives Gamefleet/GameServerGroups, the id it had before the stack had parts. To
 * CloudFormation a new logical id is a new resource: a retained table would be orphaned (and an
 * empty one created), and a resource with a fixed name (function, log group, state machine, route,
 * stage...) would fail to create next to its predecessor.
 *
 * <p>The id is CDK's ({@code makeUniqueId} in aws-cdk-lib core/lib/private/uniqueid.ts) of the path
 * without the part, as CDK itself leaves out "Default". Two resources that end up with one id fail
 * synthesis ("section 'Resources' already contains ...").
 */
final class LogicalIds {
    private static final String HIDDEN = "Default";
    private static final String HIDDEN_FROM_HUMAN = "Resource";
    private static final int HASH_LENGTH = 8;
    private static final int MAX_HUMAN_LENGTH = 240;
    private static final int MAX_ID_LENGTH = 255;

    private LogicalIds() {}

    /**
     * Overrides the logical id of every resource (and output) now under the part: call it before
     * anything resolves a reference to them (an id resolved earlier stays in the template), and
     * note that a resource added to the part afterwards keeps CDK's id.
     */
    static <T extends Construct> T leaveOut(T part) {
        for (IConstruct child : part.getNode().findAll()) {
            if (child instanceof CfnElement element) {
                element.overrideLogicalId(idWithout(part, element));
            }
        }
        return part;
    }

    private static String idWithout(Construct part, CfnElement element) {
        List<IConstruct> scopes = element.getNode().getScopes();
        List<String> path = new ArrayList<>();
        for (IConstruct scope : scopes.subList(scopes.indexOf(element.getStack()) + 1, scopes.size())) {
            if (scope != part && !scope.getNode().getId().equals(HIDDEN)) {
                path.add(scope.getNode().getId());
            }
        }
        if (path.size() == 1 && alphanumeric(path.get(0)).length() <= MAX_ID_LENGTH) {
            return alphanumeric(path.get(0));
        }
        List<String> human = new ArrayList<>();
        for (String component : path) {
            if (human.isEmpty() || !human.get(human.size() - 1).endsWith(component)) {
                human.add(component);
            }
        }
        String text = String.join("", human.stream().filter(c -> !c.equals(HIDDEN_FROM_HUMAN))
                .map(LogicalIds::alphanumeric).toList());
        return text.substring(0, Math.min(text.length(), MAX_HUMAN_LENGTH)) + hash(String.join("/", path));
    }

    private static String alphanumeric(String s) {
        return s.replaceAll("[^A-Za-z0-9]", "");
    }

    private static String hash(String path) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest(path.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md5).substring(0, HASH_LENGTH).toUpperCase(Locale.ROOT);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
