package io.gamefleet.adapters.ecs;

import io.gamefleet.adapters.compute.ComputeFailures;
import io.gamefleet.catalog.Catalog;
import io.gamefleet.catalog.ContainerTasks;
import io.gamefleet.catalog.Settings;
import io.gamefleet.domain.BalancingStrategy;
import io.gamefleet.domain.Compute;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.InstanceDefinition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ecs.EcsClient;
import software.amazon.awssdk.services.ecs.model.AssignPublicIp;
import software.amazon.awssdk.services.ecs.model.Attachment;
import software.amazon.awssdk.services.ecs.model.CapacityProviderStrategyItem;
import software.amazon.awssdk.services.ecs.model.ClientException;
import software.amazon.awssdk.services.ecs.model.CreateServiceRequest;
import software.amazon.awssdk.services.ecs.model.DesiredStatus;
import software.amazon.awssdk.services.ecs.model.KeyValuePair;
import software.amazon.awssdk.services.ecs.model.ListTasksResponse;
import software.amazon.awssdk.services.ecs.model.PropagateTags;
import software.amazon.awssdk.services.ecs.model.ProtectedTask;
import software.amazon.awssdk.services.ecs.model.Service;
import software.amazon.awssdk.services.ecs.model.ServiceField;
import software.amazon.awssdk.services.ecs.model.Tag;
import software.amazon.awssdk.services.ecs.model.Task;
import software.amazon.awssdk.services.ecs.model.TaskDefinition;
import software.amazon.awssdk.services.ecs.model.UpdateTaskProtectionResponse;

/**
 * The compute port on ECS, for container groups: one ECS service per group in the stack's cluster,
 * running the studio's task definition with the agent sidecar ({@link SidecarTaskDefinition}) on
 * the capacity providers of the group's balancing strategy ({@link CapacityProviderStrategies}). A
 * task is the group's "instance", named by {@link ContainerTasks#instanceId}. Like the Auto Scaling
 * adapter it changes only the services it owns (tagged with its stage and the group its name is
 * for) and maps ECS's errors to {@link ComputeException}s ({@link #FAILURES}).
 */
public final class EcsServiceCompute implements Compute {
    /**
     * A protection that ends sooner than this is reported as none, so that the balancer, which
     * protects a task holding a claimed or utilized game server, renews it before it lapses.
     */
    static final Duration PROTECTION_MARGIN = Duration.ofMinutes(30);
    /** How long a protection set here lasts: two balancer runs can miss it before the margin is reached. */
    static final int PROTECTION_MINUTES = 60;
    /** ECS's codes for "not now", to be sure: the SDK's retryable() covers 5xx and its throttling codes. */
    static final ComputeFailures FAILURES = new ComputeFailures("ECS", Set.of("ServerException", "ThrottlingException",
            "Throttling", "ServiceUnavailableException"));
    /** ECS's limits of tasks per DescribeTasks and per GetTaskProtection. */
    private static final int DESCRIBE_BATCH = 100;
    private static final int PROTECTION_BATCH = 10;
    private static final String ACTIVE = "ACTIVE";
    private static final String DRAINING = "DRAINING";
    private static final String INACTIVE = "INACTIVE";
    private static final String RUNNING = "RUNNING";
    private static final String ENI = "ElasticNetworkInterface";
    /** The task's network interface's addresses, as DescribeTasks names them in its attachment's details. */
    private static final Set<String> ADDRESS_DETAILS = Set.of("privateIPv4Address", "ipv6Address", "privateDnsName");
    private static final String NETWORK_INTERFACE = "networkInterfaceId";

    private final EcsClient ecs;
    private final EcsClusterSettings cluster;
    private final String stage;
    private final UnaryOperator<String> serviceNameOf;
    private final PublicAddresses publicAddresses;
    private final Clock clock;

    /**
     * The public addresses of network interfaces, by interface id, which ECS does not report
     * ({@code Ec2NetworkInterfaces::publicAddresses}; none where tasks have no public address).
     */
    @FunctionalInterface
    public interface PublicAddresses {
        /** Each described interface's public addresses (none: an empty list); an interface not described is absent. */
        Map<String, List<String>> of(Collection<String> networkInterfaceIds);

        /** Every interface described, none with a public address: where no EC2 is asked (the local profile). */
        PublicAddresses NONE = ids -> ids.stream().distinct().collect(Collectors.toMap(id -> id, id -> List.of()));
    }

    /**
     * {@code serviceNameOf}: the service name a game server group's gets
     * ({@code ServiceSettings::containerServiceName}), which tells a service of this stage's from
     * another's of the same tags; {@code clock}: what a protection's end is compared with.
     */
    public EcsServiceCompute(EcsClient ecs, EcsClusterSettings cluster, String stage,
            UnaryOperator<String> serviceNameOf, PublicAddresses publicAddresses, Clock clock) {
        this.ecs = ecs;
        this.cluster = cluster;
        this.stage = stage;
        this.serviceNameOf = serviceNameOf;
        this.publicAddresses = publicAddresses;
        this.clock = clock;
    }

    /**
     * Registers the derived task definition and creates the service; a retried step finds the
     * service its first attempt created (ACTIVE, and this group's) and creates nothing. One being
     * deleted (DRAINING) is waited for.
     */
    @Override
    public String createScalingGroup(GameServerGroup group) {
        String name = group.autoScalingGroupName();
        if (cluster.cluster().isEmpty()) {
            throw new ComputeException("Stage " + stage + " runs no containers (" + Settings.CONTAINER_CLUSTER.environmentVariable()
                    + " is empty): " + name + " was not created", false, null);
        }
        Optional<Service> existing = find(name);
        if (existing.isPresent() && ACTIVE.equals(existing.get().status())) {
            if (!owned(existing.get())) {
                throw new ComputeException("An ECS service named " + name + " already exists and was not created by"
                        + " Gamefleet for game server group " + group.name() + " of stage " + stage, false, null);
            }
            return existing.get().serviceArn();
        }
        if (existing.isPresent() && DRAINING.equals(existing.get().status())) {
            throw new ComputeException("ECS service " + name + " is still being deleted", true, null);
        }
        TaskDefinition studio = EcsTaskDefinitions.studios(ecs, group.containers().taskDefinition())
                .orElseThrow(() -> new ComputeException("Task definition " + group.containers().taskDefinition()
                        + " does not exist", false, null));
        String taskDefinition;
        try {
            var request = SidecarTaskDefinition.of(studio, group, name, stage, cluster);
            taskDefinition = FAILURES.call("register the task definition of", name,
                    () -> ecs.registerTaskDefinition(request)).taskDefinition().taskDefinitionArn();
        } catch (IllegalArgumentException e) {
            throw new ComputeException(e.getMessage(), false, e);
        }
        return FAILURES.call("create", name, () -> ecs.createService(createRequest(group, name, taskDefinition)))
                .service().serviceArn();
    }

    private CreateServiceRequest createRequest(GameServerGroup group, String name, String taskDefinition) {
        List<CapacityProviderStrategyItem> strategy =
                CapacityProviderStrategies.of(group.containers(), group.balancingStrategy());
        List<String> subnets = group.vpcSubnets().isEmpty() ? cluster.subnets() : group.vpcSubnets();
        CreateServiceRequest.Builder request = CreateServiceRequest.builder()
                .cluster(cluster.cluster())
                .serviceName(name)
                .taskDefinition(taskDefinition)
                .desiredCount(group.minSize())
                // A new capacity provider strategy (the balancer's, for Fargate Spot's viability) is a
                // deployment: all of desired stays running while the new tasks start, up to twice as many
                // running, so that no more capacity is asked for them. ECS's defaults, written so that they hold.
                .deploymentConfiguration(d -> d.minimumHealthyPercent(100).maximumPercent(200))
                // Players reach a Fargate task at its own public address; EC2 tasks' interfaces take none.
                .networkConfiguration(n -> n.awsvpcConfiguration(a -> {
                    a.subnets(subnets).securityGroups(cluster.securityGroup());
                    if (!strategy.isEmpty()) {
                        a.assignPublicIp(AssignPublicIp.ENABLED);
                    }
                }))
                .tags(tag(Catalog.MANAGED_TAG_KEY, group.name()), tag(Catalog.STAGE_TAG_KEY, stage),
                        tag(Catalog.MIN_SIZE_TAG_KEY, String.valueOf(group.minSize())),
                        tag(Catalog.MAX_SIZE_TAG_KEY, String.valueOf(group.maxSize())))
                .propagateTags(PropagateTags.SERVICE)
                .enableECSManagedTags(true);
        // None given (an empty list is one): ECS uses the cluster's default strategy.
        return (strategy.isEmpty() ? request : request.capacityProviderStrategy(strategy)).build();
    }

    @Override
    public Optional<ScalingGroupState> describeScalingGroup(String scalingGroupName) {
        return find(scalingGroupName).filter(s -> !INACTIVE.equals(s.status())).filter(this::owned).map(s ->
                new ScalingGroupState(s.desiredCount(), size(s, Catalog.MIN_SIZE_TAG_KEY), size(s, Catalog.MAX_SIZE_TAG_KEY),
                        CapacityProviderStrategies.definitions(s.capacityProviderStrategy()),
                        CapacityProviderStrategies.onDemandOnly(s.capacityProviderStrategy()),
                        instances(scalingGroupName)));
    }

    /** The tasks with their protection: protected only while it has more than {@link #PROTECTION_MARGIN} left. */
    private List<ComputeInstance> instances(String name) {
        List<Task> tasks = tasks(name);
        Map<String, Instant> protectedUntil = new HashMap<>();
        List<String> arns = tasks.stream().map(Task::taskArn).toList();
        for (int i = 0; i < arns.size(); i += PROTECTION_BATCH) {
            List<String> batch = arns.subList(i, Math.min(arns.size(), i + PROTECTION_BATCH));
            for (ProtectedTask p : FAILURES.call("read the task protection of", name,
                    () -> ecs.getTaskProtection(r -> r.cluster(cluster.cluster()).tasks(batch))).protectedTasks()) {
                if (Boolean.TRUE.equals(p.protectionEnabled()) && p.expirationDate() != null) {
                    protectedUntil.put(p.taskArn(), p.expirationDate());
                }
            }
        }
        Instant renewBy = clock.instant().plus(PROTECTION_MARGIN);
        return tasks.stream().map(t -> new ComputeInstance(ContainerTasks.instanceId(t.taskArn()),
                t.capacityProviderName(), t.availabilityZone(), RUNNING.equals(t.lastStatus()),
                protectedUntil.containsKey(t.taskArn()) && protectedUntil.get(t.taskArn()).isAfter(renewBy))).toList();
    }

    /**
     * The tasks' creation times and their network interfaces' addresses: the private ones ECS
     * names, then the public ones EC2 does ({@link PublicAddresses}). A task is left out, to be
     * asked of again, until it is RUNNING on an interface EC2 describes: recorded without its
     * addresses, its game server's ConnectionInfo could never name them.
     */
    @Override
    public Map<String, LaunchedInstance> launched(String scalingGroupName, Collection<String> instanceIds) {
        List<Task> asked = tasks(scalingGroupName).stream().filter(t -> RUNNING.equals(t.lastStatus()))
                .filter(t -> instanceIds.contains(ContainerTasks.instanceId(t.taskArn()))).toList();
        List<String> interfaces = asked.stream().map(EcsServiceCompute::networkInterface).flatMap(Optional::stream).toList();
        Map<String, List<String>> publicOnes = interfaces.isEmpty() ? Map.of() : publicAddresses.of(interfaces);
        Map<String, LaunchedInstance> launched = new LinkedHashMap<>();
        for (Task t : asked) {
            Optional<String> networkInterface = networkInterface(t);
            if (networkInterface.isPresent() && !publicOnes.containsKey(networkInterface.get())) {
                continue;
            }
            List<String> addresses = new ArrayList<>(details(t).stream().filter(d -> ADDRESS_DETAILS.contains(d.name()))
                    .map(KeyValuePair::value).toList());
            networkInterface.ifPresent(n -> addresses.addAll(publicOnes.get(n)));
            launched.put(ContainerTasks.instanceId(t.taskArn()), new LaunchedInstance(t.createdAt(), addresses));
        }
        return launched;
    }

    private static Optional<String> networkInterface(Task t) {
        return details(t).stream().filter(d -> NETWORK_INTERFACE.equals(d.name())).map(KeyValuePair::value).findFirst();
    }

    /** The details (name, value) of the task's network interface attachment. */
    private static List<KeyValuePair> details(Task t) {
        return t.attachments().stream().filter(a -> ENI.equals(a.type())).map(Attachment::details)
                .flatMap(List::stream).filter(d -> d.value() != null && !d.value().isBlank()).toList();
    }

    /**
     * Shrinks the service to zero, then deletes it (FORCE at once: its tasks are stopped, protected or
     * not; SAFE once its tasks are gone, protected ones staying until their protection is lifted) and
     * deregisters its task definition; done once ECS says it is INACTIVE or does not know it. A
     * same-named service that is not this group's is left alone, and the deletion is done.
     */
    @Override
    public boolean deleteScalingGroup(String scalingGroupName, boolean force) {
        Optional<Service> found = find(scalingGroupName);
        if (found.isEmpty() || INACTIVE.equals(found.get().status()) || !owned(found.get())) {
            return true;
        }
        Service service = found.get();
        if (DRAINING.equals(service.status())) {
            return false;
        }
        if (service.desiredCount() != 0) {
            updateDesiredCount(scalingGroupName, 0);
        }
        if (!force && service.runningCount() + service.pendingCount() > 0) {
            return false;
        }
        FAILURES.call("delete", scalingGroupName,
                () -> ecs.deleteService(r -> r.cluster(cluster.cluster()).service(scalingGroupName).force(true)));
        try {
            ecs.deregisterTaskDefinition(r -> r.taskDefinition(service.taskDefinition()));
        } catch (ClientException e) {
            // Deregistered already (by a first attempt whose answer was lost): nothing left to do.
        } catch (SdkException e) {
            throw FAILURES.failure("deregister the task definition of", scalingGroupName, e);
        }
        return find(scalingGroupName).map(s -> INACTIVE.equals(s.status())).orElse(true);
    }

    /**
     * The balancer's providers (Fargate alone while Fargate Spot is not viable, the group's own
     * once it is again) as the service's strategy, each keeping its base; nothing is sent when it
     * is the strategy already. A new strategy is a new deployment of the service: ECS replaces its
     * tasks on it (within the deployment configuration set at creation), protected ones once their
     * protection is lifted.
     * No definitions (a container group has none of its own: FleetIQ's InstanceDefinitions is empty)
     * change nothing: an empty strategy would be the cluster's default, which ECS refuses for a
     * service that names one.
     */
    @Override
    public void setInstanceTypes(String scalingGroupName, List<InstanceDefinition> definitions, BalancingStrategy strategy) {
        Service service = requireOwned(scalingGroupName);
        if (definitions.isEmpty()) {
            return;
        }
        List<CapacityProviderStrategyItem> changed =
                CapacityProviderStrategies.of(definitions, service.capacityProviderStrategy());
        if (!CapacityProviderStrategies.same(changed, service.capacityProviderStrategy())) {
            FAILURES.call("change the capacity providers of", scalingGroupName, () -> ecs.updateService(
                    r -> r.cluster(cluster.cluster()).service(scalingGroupName).capacityProviderStrategy(changed)
                            .forceNewDeployment(true)));
        }
    }

    @Override
    public void setDesiredCapacity(String scalingGroupName, int desiredCapacity) {
        requireOwned(scalingGroupName);
        updateDesiredCount(scalingGroupName, desiredCapacity);
    }

    /** On: for {@link #PROTECTION_MINUTES}, renewed by the balancer ({@link #PROTECTION_MARGIN}). */
    @Override
    public void setInstanceProtection(String scalingGroupName, String instanceId, boolean protectedFromScaleIn) {
        requireOwned(scalingGroupName);
        String task = requireTask(scalingGroupName, instanceId, "its protection was not changed");
        UpdateTaskProtectionResponse answer = FAILURES.call("change the protection of " + instanceId + " in",
                scalingGroupName, () -> ecs.updateTaskProtection(r -> {
                    r.cluster(cluster.cluster()).tasks(task).protectionEnabled(protectedFromScaleIn);
                    if (protectedFromScaleIn) {
                        r.expiresInMinutes(PROTECTION_MINUTES);
                    }
                }));
        if (!answer.failures().isEmpty()) {
            throw new ComputeException("ECS did not change the protection of " + instanceId + " in " + scalingGroupName
                    + ": " + answer.failures().get(0).reason(), false, null);
        }
    }

    /**
     * A container group's target tracking is the balancer's own ({@code ContainerTargetTracking}),
     * which asks the standby buffer before it scales in: there is no ECS policy to change.
     */
    @Override
    public void setTargetTrackingScaleIn(GameServerGroup group, boolean scaleIn) {}

    /**
     * The task is stopped first, then the desired count decremented: the other way round, the
     * service's own scale-in could stop another task for the decrement before this one stops (at
     * worst this way, it starts a task that the decrement then ends).
     */
    @Override
    public void terminateInstance(String scalingGroupName, String instanceId, boolean decrementDesiredCapacity) {
        Service service = requireOwned(scalingGroupName);
        String task = requireTask(scalingGroupName, instanceId, "it was not stopped");
        FAILURES.call("stop " + instanceId + " in", scalingGroupName, () -> ecs.stopTask(
                r -> r.cluster(cluster.cluster()).task(task).reason("Gamefleet terminated instance " + instanceId)));
        if (decrementDesiredCapacity) {
            updateDesiredCount(scalingGroupName, Math.max(0, service.desiredCount() - 1));
        }
    }

    private void updateDesiredCount(String name, int desiredCount) {
        FAILURES.call("set the desired count of", name,
                () -> ecs.updateService(r -> r.cluster(cluster.cluster()).service(name).desiredCount(desiredCount)));
    }

    /** The service's running tasks (ListTasks, then DescribeTasks). */
    private List<Task> tasks(String name) {
        List<String> arns = taskArns(name);
        List<Task> tasks = new ArrayList<>();
        for (int i = 0; i < arns.size(); i += DESCRIBE_BATCH) {
            List<String> batch = arns.subList(i, Math.min(arns.size(), i + DESCRIBE_BATCH));
            tasks.addAll(FAILURES.call("describe the tasks of", name,
                    () -> ecs.describeTasks(r -> r.cluster(cluster.cluster()).tasks(batch))).tasks());
        }
        return tasks;
    }

    /** The ARNs of the service's tasks that are to run (desired status RUNNING), every page of them. */
    private List<String> taskArns(String name) {
        List<String> arns = new ArrayList<>();
        String next = null;
        do {
            String token = next;
            ListTasksResponse page = FAILURES.call("list the tasks of", name, () -> ecs.listTasks(
                    r -> r.cluster(cluster.cluster()).serviceName(name).desiredStatus(DesiredStatus.RUNNING).nextToken(token)));
            arns.addAll(page.taskArns());
            next = page.nextToken();
        } while (next != null);
        return arns;
    }

    /** The ARN of the service's task that {@code instanceId} names; refused when it has none. */
    private String requireTask(String name, String instanceId, String consequence) {
        return taskArns(name).stream().filter(arn -> ContainerTasks.instanceId(arn).equals(instanceId)).findFirst()
                .orElseThrow(() -> new ComputeException("Instance " + instanceId + " is not a task of ECS service " + name
                        + "; " + consequence, false, null));
    }

    /** The service, before any change to it: refused unless it is ACTIVE, this stage's and this group's. */
    private Service requireOwned(String name) {
        Service s = find(name).filter(f -> ACTIVE.equals(f.status())).orElseThrow(() -> new ComputeException(
                "ECS service " + name + " does not exist or is being deleted; it was not changed", false, null));
        if (!owned(s)) {
            throw new ComputeException("ECS service " + name + " is not Gamefleet's for stage " + stage + " (its "
                    + Catalog.STAGE_TAG_KEY + " and " + Catalog.MANAGED_TAG_KEY + " tags say otherwise); it was not changed",
                    false, null);
        }
        return s;
    }

    /**
     * Whether the service is this stage's, for the game server group its name is for: its stage tag
     * is this stage and its group tag the group whose service name it has.
     */
    private boolean owned(Service s) {
        String group = tagValue(s, Catalog.MANAGED_TAG_KEY);
        return stage.equals(tagValue(s, Catalog.STAGE_TAG_KEY)) && group != null
                && serviceNameOf.apply(group).equals(s.serviceName());
    }

    private static String tagValue(Service s, String key) {
        return s.tags().stream().filter(t -> key.equals(t.key())).map(Tag::value).findFirst().orElse(null);
    }

    /** A size tag's value; 0 where the tag is missing or not a number (a service Gamefleet did not tag). */
    private static int size(Service s, String key) {
        String value = tagValue(s, key);
        return value != null && value.matches("\\d{1,9}") ? Integer.parseInt(value) : 0;
    }

    /** The service of that name, whatever its status; empty when ECS does not know it (its MISSING failure). */
    private Optional<Service> find(String name) {
        return FAILURES.call("describe", name, () -> ecs.describeServices(
                r -> r.cluster(cluster.cluster()).services(name).include(ServiceField.TAGS))).services().stream()
                .filter(s -> name.equals(s.serviceName())).findFirst();
    }

    private static Tag tag(String key, String value) {
        return Tag.builder().key(key).value(value).build();
    }
}
