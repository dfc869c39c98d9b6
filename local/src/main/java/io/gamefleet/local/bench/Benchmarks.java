package io.gamefleet.local.bench;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerGroupStatus;
import io.gamefleet.domain.GroupService;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.local.LocalProfile;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** What the benchmarks share: a local profile that counts its DynamoDB calls, and ACTIVE groups in it. */
final class Benchmarks {
    private Benchmarks() {}

    /** Counts the DynamoDB calls of the SDK clients it is registered with. */
    static final class DynamoDbCalls implements ExecutionInterceptor {
        private final AtomicLong count = new AtomicLong();

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            if ("DynamoDb".equals(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME))) {
                count.incrementAndGet();
            }
        }

        long get() {
            return count.get();
        }

        void reset() {
            count.set(0);
        }
    }

    /**
     * A local profile on a free port with instances in service at once, short workflow waits and no
     * background schedules (nothing runs that the benchmark does not measure), counting into {@code calls}.
     */
    static LocalProfile start(DynamoDbCalls calls) {
        LocalProfile.Options d = LocalProfile.Options.defaults();
        return LocalProfile.start(new LocalProfile.Options(0, d.claimTtl(), d.healthTimeout(), Duration.ZERO,
                Duration.ZERO, Optional.empty(), Optional.empty(), Optional.empty(), d.principals(), d.clock(),
                Duration.ofMillis(20), d.home(), List.of(calls)));
    }

    /** Creates the group and waits (real time: the activation workflow runs) until it is ACTIVE. */
    static void createActive(LocalProfile profile, String group, int minSize, int maxSize, List<String> instanceTypes)
            throws InterruptedException {
        GroupService groups = profile.services().groups();
        groups.create(GameServerGroup.builder().name(group).roleArn("arn:aws:iam::" + LocalAccount.ACCOUNT_ID + ":role/bench")
                .minSize(minSize).maxSize(maxSize).launchTemplate(new LaunchTemplate(null, "bench", null))
                .instanceDefinitions(instanceTypes.stream().map(t -> new InstanceDefinition(t, null)).toList())
                .build());
        Instant deadline = Instant.now().plusSeconds(120);
        while (groups.describe(group).status() != GameServerGroupStatus.ACTIVE) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(group + " did not become ACTIVE: " + groups.describe(group));
            }
            Thread.sleep(20);
        }
    }
}
