package io.gamefleet.local.ecs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.catalog.ContainerTasks;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The local stand-in for Amazon ECS: task definitions by family and revision, services with a
 * desired count and a capacity provider strategy, and their tasks, in memory. Requests and answers
 * are ECS's own JSON shapes ({@link EcsShapes}; the edge's {@code EcsService} speaks its wire). Like the simulated
 * fleet it follows the profile's clock: {@link #tick} (every second with the scheduler, or a
 * test's call) starts the tasks whose start delay has passed, ends those whose stop is due, and
 * brings each service to its desired count.
 *
 * <p>A service's scale-in stops its newest tasks that are not protected (ECS task scale-in
 * protection, until its expiry on the clock); while only protected ones are left, it runs above its
 * desired count. A task that stopped (an essential container exited, StopTask, an interruption) is
 * replaced while its service wants it, at the next tick, as ECS's service scheduler notices it (so
 * StopTask followed at once by a lower desired count starts no replacement). CreateService and
 * UpdateService bring the service to its count at once. Stopping a task sends SIGTERM to its processes and SIGKILL
 * at its containers' stopTimeout (30 s unless given; 120 s for a Fargate Spot interruption, {@link
 * #interrupt}), on the clock. Every task state change goes to EventBridge as "ECS Task State Change".
 *
 * <p>Its clusters are those it is made with (nothing creates one); stopped tasks are shown for an
 * hour, a deleted service as INACTIVE. Compatibilities are EC2 and, for an awsvpc definition with a
 * task cpu and memory, FARGATE.
 */
public final class SimulatedEcs implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The path of each task's own endpoint on the edge: {@code <prefix><taskId>/<secret>/metadata/<container>}. */
    public static final String TASK_ENDPOINTS = "/_local/tasks/";
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** Fargate Spot's notice: SIGTERM, then SIGKILL at most two minutes later. */
    static final Duration SPOT_NOTICE = Duration.ofMinutes(2);
    private static final Duration STOPPED_SHOWN = Duration.ofHours(1);
    static final Duration CLOSE_GRACE = Duration.ofSeconds(10);
    private static final int MAX_PROTECTION_MINUTES = 2880;
    private static final int DEFAULT_PROTECTION_MINUTES = 120;

    /** A refusal as ECS words it: its {@code __type} and message (a 400). */
    public static final class EcsException extends RuntimeException {
        private final String type;

        EcsException(String type, String message) {
            super(message);
            this.type = type;
        }

        public String type() {
            return type;
        }
    }

    private final Clock clock;
    private final Duration startDelay;
    private final String region;
    private final String accountId;
    private final Set<String> clusters;
    private final List<String> zones;
    private final TaskLauncher launcher;
    private final URI edge;
    private final EcsShapes shapes;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, List<ObjectNode>> definitions = new LinkedHashMap<>();
    private final Map<String, ArrayNode> definitionTags = new LinkedHashMap<>();
    private final Map<String, SimulatedService> services = new LinkedHashMap<>();
    private final Map<String, SimulatedTask> tasks = new LinkedHashMap<>();
    private volatile Consumer<Map<String, Object>> events = e -> { };
    private int launched;

    /**
     * ECS of {@code accountId} in {@code region}, with these clusters (by name); a task is RUNNING
     * once {@code startDelay} has passed on the clock, its containers started by {@code launcher},
     * and its endpoints served by the edge at {@code edge}.
     */
    public SimulatedEcs(Clock clock, Duration startDelay, String region, String accountId, Set<String> clusters,
            TaskLauncher launcher, URI edge) {
        this.clock = clock;
        this.startDelay = startDelay;
        this.region = region;
        this.accountId = accountId;
        this.clusters = Set.copyOf(clusters);
        this.zones = List.of(region + "a", region + "b", region + "c");
        this.launcher = launcher;
        this.edge = edge;
        this.shapes = new EcsShapes(region, accountId);
    }

    /** Where its EventBridge events go (the local event router). */
    public void sendEventsTo(Consumer<Map<String, Object>> sink) {
        this.events = sink;
    }

    // ---- task definitions

    public ObjectNode registerTaskDefinition(JsonNode request) {
        String family = text(request, "family");
        if (family == null || !family.matches("[A-Za-z0-9_-]{1,255}")) {
            throw new EcsException("ClientException", "Family must be 1-255 letters, digits, hyphens or underscores.");
        }
        JsonNode containers = request.path("containerDefinitions");
        if (!containers.isArray() || containers.isEmpty()) {
            throw new EcsException("ClientException", "Container list cannot be empty.");
        }
        for (JsonNode c : containers) {
            if (text(c, "name") == null || text(c, "image") == null) {
                throw new EcsException("ClientException", "Container.name and Container.image should not be null or empty.");
            }
        }
        ObjectNode definition = request.deepCopy();
        definition.remove("tags");
        synchronized (this) {
            List<ObjectNode> revisions = definitions.computeIfAbsent(family, f -> new ArrayList<>());
            int revision = revisions.size() + 1;
            String arn = "arn:aws:ecs:" + region + ":" + accountId + ":task-definition/" + family + ":" + revision;
            definition.put("taskDefinitionArn", arn).put("revision", revision).put("status", "ACTIVE");
            ArrayNode compatibilities = definition.putArray("compatibilities").add("EC2");
            if ("awsvpc".equals(text(request, "networkMode")) && request.hasNonNull("cpu") && request.hasNonNull("memory")) {
                compatibilities.add("FARGATE");
            }
            definition.set("registeredAt", EcsShapes.timestamp(clock.instant()));
            revisions.add(definition);
            definitionTags.put(arn, request.path("tags").isArray() ? (ArrayNode) request.get("tags").deepCopy()
                    : JSON.createArrayNode());
            ObjectNode answer = JSON.createObjectNode();
            answer.set("taskDefinition", definition.deepCopy());
            answer.set("tags", definitionTags.get(arn).deepCopy());
            return answer;
        }
    }

    public synchronized ObjectNode describeTaskDefinition(JsonNode request) {
        ObjectNode definition = definition(text(request, "taskDefinition"))
                .orElseThrow(() -> new EcsException("ClientException", "Unable to describe task definition."));
        ObjectNode answer = JSON.createObjectNode();
        answer.set("taskDefinition", definition.deepCopy());
        if (includes(request, "TAGS")) {
            answer.set("tags", definitionTags.get(definition.get("taskDefinitionArn").asText()).deepCopy());
        }
        return answer;
    }

    public synchronized ObjectNode deregisterTaskDefinition(JsonNode request) {
        String reference = text(request, "taskDefinition");
        if (reference == null || !reference.contains(":")) {
            throw new EcsException("ClientException", "A revision must be given: family:revision or the task definition's ARN.");
        }
        ObjectNode definition = definition(reference)
                .orElseThrow(() -> new EcsException("ClientException", "The specified task definition does not exist."));
        definition.put("status", "INACTIVE").set("deregisteredAt", EcsShapes.timestamp(clock.instant()));
        ObjectNode answer = JSON.createObjectNode();
        answer.set("taskDefinition", definition.deepCopy());
        return answer;
    }

    /** By family (its latest ACTIVE revision), family:revision or ARN. */
    private Optional<ObjectNode> definition(String reference) {
        if (reference == null) {
            return Optional.empty();
        }
        String name = reference.substring(reference.lastIndexOf('/') + 1);
        int colon = name.lastIndexOf(':');
        List<ObjectNode> revisions = definitions.getOrDefault(colon < 0 ? name : name.substring(0, colon), List.of());
        if (colon < 0) {
            return revisions.stream().filter(d -> d.get("status").asText().equals("ACTIVE"))
                    .reduce((first, second) -> second);
        }
        try {
            int revision = Integer.parseInt(name.substring(colon + 1));
            return revision >= 1 && revision <= revisions.size() ? Optional.of(revisions.get(revision - 1)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    // ---- services

    public ObjectNode createService(JsonNode request) {
        return changing(sent -> {
            String cluster = cluster(request);
            String name = text(request, "serviceName");
            if (name == null || !name.matches("[A-Za-z0-9_-]{1,255}")) {
                throw new EcsException("InvalidParameterException", "serviceName must be 1-255 letters, digits, hyphens or underscores.");
            }
            SimulatedService existing = services.get(cluster + "/" + name);
            if (existing != null && !existing.status.equals("INACTIVE")) {
                throw new EcsException("InvalidParameterException", "Creation of service was not idempotent.");
            }
            ObjectNode definition = definition(text(request, "taskDefinition"))
                    .filter(d -> d.get("status").asText().equals("ACTIVE"))
                    .orElseThrow(() -> new EcsException("ClientException", "TaskDefinition not found."));
            int desired = desiredCount(request.path("desiredCount").asInt(0));
            SimulatedService s = new SimulatedService(cluster, name, "arn:aws:ecs:" + region + ":" + accountId + ":service/" + cluster + "/"
                    + name, request.deepCopy(), clock.instant());
            s.taskDefinitionArn = definition.get("taskDefinitionArn").asText();
            s.desired = desired;
            s.strategy = strategy(request.path("capacityProviderStrategy"));
            services.put(cluster + "/" + name, s);
            reconcile(s, clock.instant(), sent);
            return serviceAnswer(s);
        });
    }

    private static int desiredCount(int desired) {
        if (desired < 0) {
            throw new EcsException("InvalidParameterException", "desiredCount must be 0 or more.");
        }
        return desired;
    }

    private ObjectNode serviceAnswer(SimulatedService s) {
        ObjectNode answer = JSON.createObjectNode();
        answer.set("service", shapes.service(s, count(s, "RUNNING"), count(s, "PROVISIONING")));
        return answer;
    }

    public synchronized ObjectNode describeServices(JsonNode request) {
        String cluster = cluster(request);
        atMost(request, "services", 10);
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode found = answer.putArray("services");
        ArrayNode failures = answer.putArray("failures");
        for (JsonNode reference : request.path("services")) {
            SimulatedService s = services.get(cluster + "/" + lastSegment(reference.asText()));
            if (s == null) {
                failures.addObject().put("arn", "arn:aws:ecs:" + region + ":" + accountId + ":service/" + cluster + "/"
                        + lastSegment(reference.asText())).put("reason", "MISSING");
            } else {
                ObjectNode shown = shapes.service(s, count(s, "RUNNING"), count(s, "PROVISIONING"));
                if (!includes(request, "TAGS")) {
                    shown.remove("tags");
                }
                found.add(shown);
            }
        }
        return answer;
    }

    public ObjectNode updateService(JsonNode request) {
        return changing(sent -> {
            SimulatedService s = service(request);
            if (!s.status.equals("ACTIVE")) {
                throw new EcsException("ServiceNotActiveException", "Service was not ACTIVE.");
            }
            int desired = request.hasNonNull("desiredCount") ? desiredCount(request.get("desiredCount").asInt()) : s.desired;
            if (request.hasNonNull("taskDefinition")) {
                s.taskDefinitionArn = definition(text(request, "taskDefinition"))
                        .orElseThrow(() -> new EcsException("ClientException", "TaskDefinition not found."))
                        .get("taskDefinitionArn").asText();
            }
            if (request.has("capacityProviderStrategy")) {
                s.strategy = strategy(request.get("capacityProviderStrategy"));
            }
            s.desired = desired;
            reconcile(s, clock.instant(), sent);
            return serviceAnswer(s);
        });
    }

    /** Without {@code force}, refused while the service wants tasks; its tasks are stopped, protected ones too. */
    public ObjectNode deleteService(JsonNode request) {
        return changing(sent -> {
            SimulatedService s = service(request);
            if (s.status.equals("INACTIVE")) {
                throw new EcsException("ServiceNotActiveException", "Service was not ACTIVE.");
            }
            if (s.desired > 0 && !request.path("force").asBoolean(false)) {
                throw new EcsException("InvalidParameterException", "The service cannot be stopped while it is scaled above 0.");
            }
            s.desired = 0;
            s.status = "DRAINING";
            reconcile(s, clock.instant(), sent);
            return serviceAnswer(s);
        });
    }

    private SimulatedService service(JsonNode request) {
        String cluster = cluster(request);
        String name = text(request, "service");
        SimulatedService s = name == null ? null : services.get(cluster + "/" + lastSegment(name));
        if (s == null) {
            throw new EcsException("ServiceNotFoundException", "Service not found.");
        }
        return s;
    }

    private static ArrayNode strategy(JsonNode given) {
        ArrayNode strategy = JSON.createArrayNode();
        for (JsonNode item : given) {
            if (text(item, "capacityProvider") == null || item.path("weight").asInt(0) < 0 || item.path("base").asInt(0) < 0) {
                throw new EcsException("InvalidParameterException", "A capacity provider strategy item needs a capacityProvider,"
                        + " and a weight and base of 0 or more.");
            }
            strategy.addObject().put("capacityProvider", item.get("capacityProvider").asText())
                    .put("weight", item.path("weight").asInt(0)).put("base", item.path("base").asInt(0));
        }
        return strategy;
    }

    private int count(SimulatedService s, String lastStatus) {
        return (int) tasks.values().stream().filter(t -> t.service == s && t.lastStatus.equals(lastStatus)).count();
    }

    // ---- tasks

    public synchronized ObjectNode listTasks(JsonNode request) {
        String cluster = cluster(request);
        String serviceName = text(request, "serviceName");
        String family = text(request, "family");
        String desiredStatus = request.path("desiredStatus").asText("RUNNING");
        if (serviceName != null && !services.containsKey(cluster + "/" + lastSegment(serviceName))) {
            throw new EcsException("ServiceNotFoundException", "Service not found.");
        }
        List<String> arns = tasks.values().stream().filter(t -> t.cluster.equals(cluster))
                .filter(t -> serviceName == null || t.service != null && t.service.name.equals(lastSegment(serviceName)))
                .filter(t -> family == null || t.definition.get("family").asText().equals(family))
                .filter(t -> t.desiredStatus.equals(desiredStatus)).map(t -> t.arn).toList();
        int max = Math.max(1, Math.min(100, request.path("maxResults").asInt(100)));
        int from = 0;
        if (request.hasNonNull("nextToken")) {
            try {
                from = Integer.parseInt(new String(Base64.getUrlDecoder().decode(request.get("nextToken").asText())));
            } catch (IllegalArgumentException e) {
                throw new EcsException("InvalidParameterException", "Invalid nextToken.");
            }
        }
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode page = answer.putArray("taskArns");
        arns.stream().skip(from).limit(max).forEach(page::add);
        if (from + max < arns.size()) {
            answer.put("nextToken", Base64.getUrlEncoder().encodeToString(Integer.toString(from + max).getBytes()));
        }
        return answer;
    }

    public synchronized ObjectNode describeTasks(JsonNode request) {
        String cluster = cluster(request);
        atMost(request, "tasks", 100);
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode found = answer.putArray("tasks");
        ArrayNode failures = answer.putArray("failures");
        for (JsonNode reference : request.path("tasks")) {
            task(cluster, reference, failures).ifPresent(t -> found.add(shapes.task(t)));
        }
        return answer;
    }

    public ObjectNode stopTask(JsonNode request) {
        return changing(sent -> {
            String cluster = cluster(request);
            SimulatedTask t = Optional.ofNullable(text(request, "task")).map(r -> tasks.get(lastSegment(r)))
                    .filter(found -> found.cluster.equals(cluster))
                    .orElseThrow(() -> new EcsException("InvalidParameterException", "The referenced task was not found."));
            Instant now = clock.instant();
            stop(t, now, "UserInitiated", request.path("reason").asText("Task stopped by user"), stopTimeout(t), sent);
            ObjectNode answer = JSON.createObjectNode();
            answer.set("task", shapes.task(t));
            return answer;
        });
    }

    public synchronized ObjectNode getTaskProtection(JsonNode request) {
        String cluster = cluster(request);
        atMost(request, "tasks", 10);
        Instant now = clock.instant();
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode protectedTasks = answer.putArray("protectedTasks");
        ArrayNode failures = answer.putArray("failures");
        for (JsonNode reference : request.path("tasks")) {
            task(cluster, reference, failures).ifPresent(t -> protectedTasks.add(EcsShapes.protection(t, now)));
        }
        return answer;
    }

    public synchronized ObjectNode updateTaskProtection(JsonNode request) {
        String cluster = cluster(request);
        atMost(request, "tasks", 10);
        if (!request.has("protectionEnabled")) {
            throw new EcsException("InvalidParameterException", "protectionEnabled must be given.");
        }
        boolean enabled = request.get("protectionEnabled").asBoolean();
        int minutes = request.path("expiresInMinutes").asInt(DEFAULT_PROTECTION_MINUTES);
        if (minutes < 1 || minutes > MAX_PROTECTION_MINUTES) {
            throw new EcsException("InvalidParameterException", "expiresInMinutes must be from 1 to " + MAX_PROTECTION_MINUTES + ".");
        }
        Instant now = clock.instant();
        ObjectNode answer = JSON.createObjectNode();
        ArrayNode protectedTasks = answer.putArray("protectedTasks");
        ArrayNode failures = answer.putArray("failures");
        for (JsonNode reference : request.path("tasks")) {
            task(cluster, reference, failures).ifPresent(t -> {
                if (!t.desiredStatus.equals("RUNNING") || t.service == null) {
                    failures.addObject().put("arn", t.arn).put("reason", "TASK_NOT_VALID")
                            .put("detail", "The task is stopping or not part of a service.");
                } else {
                    protect(t, enabled, minutes, now);
                    protectedTasks.add(EcsShapes.protection(t, now));
                }
            });
        }
        return answer;
    }

    /** The cluster's task of this ARN or id; else a MISSING failure. */
    private Optional<SimulatedTask> task(String cluster, JsonNode reference, ArrayNode failures) {
        SimulatedTask t = tasks.get(lastSegment(reference.asText()));
        if (t == null || !t.cluster.equals(cluster)) {
            failures.addObject().put("arn", reference.asText()).put("reason", "MISSING");
            return Optional.empty();
        }
        return Optional.of(t);
    }

    private static void protect(SimulatedTask t, boolean enabled, int minutes, Instant now) {
        t.protectionEnabled = enabled;
        t.protectionExpiry = enabled ? now.plus(Duration.ofMinutes(minutes)) : null;
    }

    // ---- the task's own endpoint (task metadata v4)

    /** The task of these endpoints' path, if its secret matches and it has not stopped. */
    private Optional<SimulatedTask> ownTask(String taskId, String secret) {
        SimulatedTask t = tasks.get(taskId);
        if (t == null || t.lastStatus.equals("STOPPED") || !java.security.MessageDigest.isEqual(
                t.secret.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                secret.getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            return Optional.empty();
        }
        return Optional.of(t);
    }

    /** Task metadata v4's {@code ${ECS_CONTAINER_METADATA_URI_V4}/task} of the task; empty if not its endpoint. */
    public synchronized Optional<ObjectNode> taskMetadata(String taskId, String secret) {
        return ownTask(taskId, secret).map(shapes::metadata);
    }

    // ---- interruption, and the clock

    /** What an interruption answers: the task's ARN and instance id, and when it is killed. */
    public record Interrupted(String taskArn, String instanceId, Instant killAt) {}

    /** The task of this id, or the unstopped one of this FleetIQ instance id ({@link ContainerTasks#instanceId}). */
    private Optional<SimulatedTask> find(String taskIdOrInstanceId) {
        SimulatedTask direct = tasks.get(taskIdOrInstanceId);
        if (direct != null) {
            return Optional.of(direct);
        }
        return tasks.values().stream().filter(t -> !t.lastStatus.equals("STOPPED"))
                .filter(t -> ContainerTasks.instanceId(t.id).equals(taskIdOrInstanceId)).findFirst();
    }

    /**
     * A Fargate Spot interruption: SIGTERM to the task's processes now, the task stopping with stopCode
     * SpotInterruption (its event sent; its replacement starts at the next {@link #tick}), and SIGKILL
     * two minutes later on the clock. Empty if no task that has not stopped has this id; a task
     * already stopping is left as it is.
     */
    public Optional<Interrupted> interrupt(String taskIdOrInstanceId) {
        return changing(sent -> {
            Optional<SimulatedTask> found = find(taskIdOrInstanceId).filter(t -> !t.lastStatus.equals("STOPPED"));
            found.filter(t -> t.desiredStatus.equals("RUNNING")).ifPresent(t -> {
                Instant now = clock.instant();
                stop(t, now, "SpotInterruption", "Your Spot Task was interrupted.", SPOT_NOTICE, sent);
            });
            return found.map(t -> new Interrupted(t.arn, ContainerTasks.instanceId(t.id), t.killAt));
        });
    }

    /**
     * Advances ECS to the clock: starts the tasks whose start delay has passed, stops those whose
     * essential container exited, ends those whose processes are gone or whose stop timeout ran out
     * (SIGKILL), forgets those stopped an hour ago, and brings every service to its desired count.
     */
    public void tick() {
        changing(sent -> {
            Instant now = clock.instant();
            for (SimulatedTask t : List.copyOf(tasks.values())) {
                advance(t, now, sent);
            }
            tasks.values().removeIf(t -> t.stoppedAt != null && !now.isBefore(t.stoppedAt.plus(STOPPED_SHOWN)));
            for (SimulatedService s : List.copyOf(services.values())) {
                reconcile(s, now, sent);
            }
            return null;
        });
    }

    /** Runs a change under the lock; the events it makes are sent after, outside it (their rules' functions call back). */
    private <T> T changing(Function<List<Map<String, Object>>, T> change) {
        List<Map<String, Object>> sent = new ArrayList<>();
        T result;
        synchronized (this) {
            result = change.apply(sent);
        }
        sent.forEach(events);
        return result;
    }

    private void advance(SimulatedTask t, Instant now, List<Map<String, Object>> sent) {
        if (t.lastStatus.equals("PROVISIONING") && t.desiredStatus.equals("RUNNING")
                && !now.isBefore(t.createdAt.plus(startDelay))) {
            try {
                t.running = launcher.launch(launch(t));
                t.lastStatus = "RUNNING";
                t.startedAt = now;
                changed(t, now, sent);
            } catch (RuntimeException e) {
                stop(t, now, "TaskFailedToStart", "CannotStartContainerError: " + e.getMessage(), Duration.ZERO, sent);
            }
        } else if (t.lastStatus.equals("RUNNING") && t.desiredStatus.equals("RUNNING")) {
            t.running.advance();
        }
        if (t.lastStatus.equals("RUNNING") && t.desiredStatus.equals("RUNNING") && t.running.essentialExited()) {
            stop(t, now, "EssentialContainerExited", "Essential container in task exited", stopTimeout(t), sent);
        }
        if (t.desiredStatus.equals("STOPPED") && !t.lastStatus.equals("STOPPED")
                && (t.running == null || t.running.ended() || !now.isBefore(t.killAt))) {
            if (t.running != null) {
                t.running.kill();
            }
            t.lastStatus = "STOPPED";
            t.stoppedAt = now;
            changed(t, now, sent);
        }
    }

    /** Marks the task to stop and sends its processes SIGTERM; SIGKILL follows {@code timeout} later, at the latest. */
    private void stop(SimulatedTask t, Instant now, String stopCode, String reason, Duration timeout, List<Map<String, Object>> sent) {
        if (!t.desiredStatus.equals("RUNNING")) {
            return;
        }
        t.desiredStatus = "STOPPED";
        t.stopCode = stopCode;
        t.stoppedReason = reason;
        t.stoppingAt = now;
        t.killAt = now.plus(timeout);
        t.protectionEnabled = false;
        // As ECS tells it: first the stop asked of the task as it was (a RUNNING task's, for an interruption).
        changed(t, now, sent);
        if (t.running != null) {
            t.lastStatus = "STOPPING";
            t.running.terminate();
        } else {
            t.lastStatus = "STOPPED";
            t.stoppedAt = now;
            changed(t, now, sent);
        }
    }

    /** The largest stopTimeout of its containers, else ECS's default. */
    private static Duration stopTimeout(SimulatedTask t) {
        int seconds = 0;
        for (JsonNode c : t.definition.path("containerDefinitions")) {
            seconds = Math.max(seconds, c.path("stopTimeout").asInt(0));
        }
        return seconds > 0 ? Duration.ofSeconds(seconds) : STOP_TIMEOUT;
    }

    /**
     * Brings the service to its desired count: new tasks (PROVISIONING) up to it, or its newest
     * unprotected tasks stopped down to it; a deleted (DRAINING) one is INACTIVE once its tasks stopped.
     */
    private void reconcile(SimulatedService s, Instant now, List<Map<String, Object>> sent) {
        if (s.status.equals("INACTIVE")) {
            return;
        }
        List<SimulatedTask> live = new ArrayList<>(tasks.values().stream().filter(t -> t.service == s)
                .filter(t -> t.desiredStatus.equals("RUNNING")).toList());
        if (s.status.equals("DRAINING")) {
            live.forEach(t -> stop(t, now, "ServiceSchedulerInitiated", "Service deleted", stopTimeout(t), sent));
            if (tasks.values().stream().noneMatch(t -> t.service == s && !t.lastStatus.equals("STOPPED"))) {
                s.status = "INACTIVE";
            }
            return;
        }
        ObjectNode definition = definition(s.taskDefinitionArn).orElseThrow();
        for (int n = live.size(); n < s.desired; n++) {
            live.add(newTask(s, definition, now));
        }
        java.util.Collections.reverse(live);
        int excess = live.size() - s.desired;
        for (SimulatedTask t : live) {
            if (excess <= 0) {
                break;
            }
            if (!t.protectedAt(now)) {
                stop(t, now, "ServiceSchedulerInitiated", "Scaling activity initiated by (deployment ecs-svc/"
                        + Integer.toHexString(s.arn.hashCode()) + ")", stopTimeout(t), sent);
                excess--;
            }
        }
    }

    private SimulatedTask newTask(SimulatedService s, ObjectNode definition, Instant now) {
        byte[] id = new byte[16];
        random.nextBytes(id);
        byte[] secret = new byte[32];
        random.nextBytes(secret);
        String taskId = HexFormat.of().formatHex(id);
        SimulatedTask t = new SimulatedTask(taskId, "arn:aws:ecs:" + region + ":" + accountId + ":task/" + s.cluster + "/" + taskId,
                s.cluster, s, definition, capacityProvider(s), zones.get(launched++ % zones.size()),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret), now);
        tasks.put(taskId, t);
        return t;
    }

    /** The strategy's provider for the next task: each base first, then the one whose weight's share it keeps lowest. */
    private String capacityProvider(SimulatedService s) {
        if (s.strategy.isEmpty()) {
            return null;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        tasks.values().stream().filter(t -> t.service == s && t.desiredStatus.equals("RUNNING") && t.capacityProvider != null)
                .forEach(t -> counts.merge(t.capacityProvider, 1, Integer::sum));
        for (JsonNode item : s.strategy) {
            if (counts.getOrDefault(item.get("capacityProvider").asText(), 0) < item.get("base").asInt()) {
                return item.get("capacityProvider").asText();
            }
        }
        String best = s.strategy.get(0).get("capacityProvider").asText();
        double lowest = Double.MAX_VALUE;
        for (JsonNode item : s.strategy) {
            int weight = item.get("weight").asInt();
            if (weight > 0) {
                String name = item.get("capacityProvider").asText();
                double share = (double) (Math.max(0, counts.getOrDefault(name, 0) - item.get("base").asInt()) + 1) / weight;
                if (share < lowest) {
                    lowest = share;
                    best = name;
                }
            }
        }
        return best;
    }

    /** What the launcher runs: each container's command and environment, with ECS's endpoints of the task. */
    private TaskLauncher.Launch launch(SimulatedTask t) {
        List<TaskLauncher.Container> containers = new ArrayList<>();
        URI own = edge.resolve(TASK_ENDPOINTS + t.id + "/" + t.secret + "/");
        for (JsonNode c : t.definition.path("containerDefinitions")) {
            List<String> command = new ArrayList<>();
            c.path("entryPoint").forEach(a -> command.add(a.asText()));
            c.path("command").forEach(a -> command.add(a.asText()));
            Map<String, String> environment = new LinkedHashMap<>();
            c.path("environment").forEach(e -> environment.put(e.path("name").asText(), e.path("value").asText()));
            environment.put("ECS_CONTAINER_METADATA_URI_V4", own.resolve("metadata/" + c.get("name").asText()).toString());
            environment.put("AWS_REGION", region);
            environment.put("AWS_DEFAULT_REGION", region);
            Map<String, String> mounts = new LinkedHashMap<>();
            c.path("mountPoints").forEach(m -> mounts.put(m.path("containerPath").asText(), m.path("sourceVolume").asText()));
            Map<String, String> dependsOn = new LinkedHashMap<>();
            c.path("dependsOn").forEach(d -> dependsOn.put(d.path("containerName").asText(), d.path("condition").asText()));
            List<String> health = new ArrayList<>();
            c.path("healthCheck").path("command").forEach(a -> health.add(a.asText()));
            containers.add(new TaskLauncher.Container(c.get("name").asText(), c.get("image").asText(), command,
                    c.path("essential").asBoolean(true), environment, mounts, dependsOn, health));
        }
        return new TaskLauncher.Launch(t.arn, t.id, ContainerTasks.instanceId(t.id), containers);
    }

    /** A task state change: its version moves on, and its event is sent once the lock is left. */
    private void changed(SimulatedTask t, Instant now, List<Map<String, Object>> sent) {
        t.version++;
        sent.add(shapes.stateChange(t, now));
    }

    // ---- shared

    private String cluster(JsonNode request) {
        String cluster = lastSegment(request.path("cluster").asText("default"));
        if (!clusters.contains(cluster)) {
            throw new EcsException("ClusterNotFoundException", "Cluster not found.");
        }
        return cluster;
    }

    private static String lastSegment(String nameOrArn) {
        return nameOrArn.substring(nameOrArn.lastIndexOf('/') + 1);
    }

    /** ECS's limit on a list of references: 1 to {@code max}. */
    private static void atMost(JsonNode request, String member, int max) {
        JsonNode list = request.path(member);
        if (!list.isArray() || list.isEmpty() || list.size() > max) {
            throw new EcsException("InvalidParameterException", member + " must list 1 to " + max + " references.");
        }
    }

    private static boolean includes(JsonNode request, String what) {
        for (JsonNode i : request.path("include")) {
            if (i.asText().equals(what)) {
                return true;
            }
        }
        return false;
    }

    private static String text(JsonNode node, String member) {
        JsonNode v = node.get(member);
        return v == null || !v.isTextual() || v.asText().isEmpty() ? null : v.asText();
    }

    /**
     * Ends every task's processes, the profile's end: SIGTERM, and SIGKILL to what is left after
     * {@link #CLOSE_GRACE} (real time: the clock may stand still), so their graceful ends run.
     */
    @Override
    public synchronized void close() {
        List<TaskLauncher.Running> left = tasks.values().stream()
                .filter(t -> t.running != null && !t.lastStatus.equals("STOPPED")).map(t -> t.running).toList();
        left.forEach(TaskLauncher.Running::terminate);
        long deadline = System.nanoTime() + CLOSE_GRACE.toNanos();
        while (System.nanoTime() < deadline && !left.stream().allMatch(TaskLauncher.Running::ended)) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        left.forEach(TaskLauncher.Running::kill);
    }
}
