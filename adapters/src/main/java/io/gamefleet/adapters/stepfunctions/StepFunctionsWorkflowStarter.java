package io.gamefleet.adapters.stepfunctions;

import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.domain.WorkflowStarter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Starts the group workflows. Each start names its execution once (verb, time, a random part,
 * the group), so the SDK's own retries of the call find the execution already there, while a
 * group created again under the same name, even at the same instant, gets its own. The group's
 * part of the name is its key ({@link #groupKey}), which {@link #running} reads back.
 */
public final class StepFunctionsWorkflowStarter implements WorkflowStarter {
    /** "activate-" + 13 digits of milliseconds + "-" + 8 random + "-": the longest prefix, 32 characters. */
    static final int KEY_LENGTH = 80 - 32;
    private static final int HASH_LENGTH = 16;

    private final Supplier<SfnClient> sfn;
    private final String activationArn;
    private final String deletionArn;

    public StepFunctionsWorkflowStarter(Supplier<SfnClient> sfn, String activationArn, String deletionArn) {
        this.sfn = sfn;
        this.activationArn = activationArn;
        this.deletionArn = deletionArn;
    }

    @Override
    public void startActivation(GameServerGroup group) {
        start(activationArn, group, "activate");
    }

    @Override
    public void startDeletion(GameServerGroup group) {
        start(deletionArn, group, "delete");
    }

    /** Lists the workflow's RUNNING executions (all pages) and reads each one's group key. */
    @Override
    public Set<String> running(GroupLifecycle.Workflow workflow, Collection<String> groupNames) {
        String arn = workflow == GroupLifecycle.Workflow.ACTIVATION ? activationArn : deletionArn;
        Set<String> keys = new HashSet<>();
        for (ExecutionListItem e : sfn.get().listExecutionsPaginator(r -> r.stateMachineArn(arn)
                .statusFilter(ExecutionStatus.RUNNING)).executions()) {
            keyOf(e.name()).ifPresent(keys::add);
        }
        return groupNames.stream().filter(n -> keys.contains(groupKey(n))).collect(Collectors.toSet());
    }

    private void start(String stateMachineArn, GameServerGroup group, String verb) {
        String name = verb + "-" + group.lastUpdatedTime().toEpochMilli() + "-"
                + java.util.UUID.randomUUID().toString().substring(0, 8) + "-" + groupKey(group.name());
        String input = "{\"GameServerGroupName\":\"" + group.name() + "\"}";
        try {
            sfn.get().startExecution(r -> r.stateMachineArn(stateMachineArn).name(name).input(input));
        } catch (ExecutionAlreadyExistsException alreadyStarted) {
            // the name has a random part, so only an SDK retry of this very call can reuse it, and
            // Step Functions answers such a retry with success while the execution runs: kept for safety
        }
    }

    /**
     * The group's part of an execution name (at most 80 characters of [A-Za-z0-9-_]): its name
     * with '.' as '_' (group names hold no '_'), or for a name too long, its start and a hash of all
     * of it, so that no two groups share a key.
     */
    static String groupKey(String groupName) {
        String key = groupName.replace('.', '_');
        if (key.length() <= KEY_LENGTH) {
            return key;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(groupName.getBytes(StandardCharsets.UTF_8));
            return key.substring(0, KEY_LENGTH - HASH_LENGTH - 1) + "-"
                    + HexFormat.of().formatHex(hash).substring(0, HASH_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is on every JDK", e);
        }
    }

    /** The group key of an execution this class named: what follows its third '-'. */
    static java.util.Optional<String> keyOf(String executionName) {
        int at = -1;
        for (int i = 0; i < 3; i++) {
            at = executionName.indexOf('-', at + 1);
            if (at < 0) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.of(executionName.substring(at + 1));
    }
}
