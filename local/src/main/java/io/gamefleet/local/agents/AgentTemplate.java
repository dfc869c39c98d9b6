package io.gamefleet.local.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What every simulated instance's agent runs (docs/agent.md's configuration), from
 * {@code --game-server 'COMMAND ARGS'} and {@code --servers-per-instance N}, or a whole
 * {@code --agent-config FILE}; {@link #forInstance} adds what differs per instance (the group, the
 * instance, its ports, its folders, its processes' uids and the edge's endpoints) and the profile's
 * claim TTL, replacing those keys of the file.
 * {@code --demo}'s runs on the demo group's instances only ({@link #onlyOn}); the others on every group's.
 */
public final class AgentTemplate {
    static final String GAME_PORT = "game";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode template;
    private final Optional<String> onlyGroup;

    private AgentTemplate(ObjectNode template, Optional<String> onlyGroup) {
        this.template = template;
        this.onlyGroup = onlyGroup;
    }

    private AgentTemplate(ObjectNode template) {
        this(template, Optional.empty());
    }

    /** The command line runs through {@code sh -c}, so it is written as in a shell; one port, {@code game}. */
    public static AgentTemplate gameServer(String commandLine, int serversPerInstance) {
        if (commandLine.isBlank()) {
            throw new IllegalArgumentException("--game-server needs a command, such as --game-server './server -port {port:game}'");
        }
        return command(List.of("sh", "-c", commandLine), serversPerInstance);
    }

    /** A command and its arguments as they are (no shell); one port, {@code game}. */
    public static AgentTemplate command(List<String> commandAndArgs, int serversPerInstance) {
        ObjectNode t = JSON.createObjectNode();
        t.put("command", commandAndArgs.get(0));
        commandAndArgs.subList(1, commandAndArgs.size()).forEach(t.putArray("args")::add);
        t.put("processes", serversPerInstance);
        t.putObject("ports").putObject(GAME_PORT);
        t.put("connectionPort", GAME_PORT);
        return new AgentTemplate(t);
    }

    /** The same, run only on the instances of {@code group}. */
    public AgentTemplate onlyOn(String group) {
        return new AgentTemplate(template, Optional.of(group));
    }

    /** Whether the agent runs on the instances of {@code group}. */
    boolean runsOn(String group) {
        return onlyGroup.map(group::equals).orElse(true);
    }

    /** The group whose instances alone run the agent, if it is not every group. */
    public Optional<String> onlyGroup() {
        return onlyGroup;
    }

    /** A whole agent configuration; the agent itself checks it when it starts (and names what to fix). */
    public static AgentTemplate read(Path file) {
        JsonNode config;
        try {
            config = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("--agent-config " + file + " cannot be read: " + e.getMessage());
        }
        if (!(config instanceof ObjectNode object)) {
            throw new IllegalArgumentException("--agent-config " + file + " must hold a JSON object (docs/agent.md)");
        }
        if (!object.path("ports").isObject() || object.path("ports").isEmpty()) {
            throw new IllegalArgumentException("--agent-config " + file + " needs \"ports\" with at least one name"
                    + " (the profile gives each instance its own port numbers)");
        }
        return new AgentTemplate(object);
    }

    public int processes() {
        return template.path("processes").asInt(1);
    }

    /** The names of the game ports: each instance gets {@link #processes} consecutive port numbers of each. */
    List<String> portNames() {
        List<String> names = new ArrayList<>();
        template.path("ports").fieldNames().forEachRemaining(names::add);
        return names;
    }

    /**
     * The instance's agent configuration; {@code portsFrom} holds the first port of each of {@link
     * #portNames}, {@code qosPort} its QoS beacon's UDP port, {@code runAsUidBase} the first of its
     * processes' uids (each instance's its own, as all of them share this machine), {@code stage}
     * the profile's settings an agent is told of.
     */
    ObjectNode forInstance(String group, String instanceId, List<Integer> portsFrom, int qosPort, URI api, URI push,
            URI metadata, Path workDirectory, Path serversDirectory, Path archiveDirectory, int runAsUidBase,
            Stage stage) {
        ObjectNode c = template.deepCopy();
        c.put("gameServerGroupName", group);
        c.put("instanceId", instanceId);
        ObjectNode ports = c.putObject("ports");
        List<String> names = portNames();
        for (int i = 0; i < names.size(); i++) {
            ports.putObject(names.get(i)).put("from", portsFrom.get(i)).put("to", portsFrom.get(i) + processes() - 1);
        }
        c.put("gsdkPort", 0);
        c.put("qosPort", qosPort);
        c.put("connectionAddress", "127.0.0.1");
        c.put("region", stage.region());
        c.put("apiEndpoint", api.toString());
        c.put("pushEndpoint", push.toString());
        c.put("metadataEndpoint", metadata.toString());
        c.put("workDirectory", workDirectory.toString());
        c.put("serversDirectory", serversDirectory.toString());
        c.put("archiveDirectory", archiveDirectory.toString());
        c.put("runAsUidBase", runAsUidBase);
        ObjectNode timings = c.has("timings") && c.get("timings").isObject() ? (ObjectNode) c.get("timings") : c.putObject("timings");
        timings.put("claimTtlSeconds", stage.claimTtl().toSeconds());
        c.put("maxGameServersPerInstance", stage.maxGameServersPerInstance());
        return c;
    }

    /**
     * The stage's settings an agent's configuration carries, as the user data writes them from the
     * stack's outputs: its region (what the agent signs for), its claim TTL and its limit per instance.
     */
    public record Stage(String region, Duration claimTtl, int maxGameServersPerInstance) {}

    static ObjectMapper json() {
        return JSON;
    }
}
