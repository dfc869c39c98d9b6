package io.gamefleet.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.gamefleet.catalog.AgentSidecar;
import io.gamefleet.catalog.PushChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/** Reads the agent's JSON file and refuses, with what to fix, a file the agent cannot run with. */
public final class AgentConfigReader {
    /** No timing needs more than a day; far beyond it, the agent's time arithmetic would overflow. */
    static final int MAX_TIMING_SECONDS = 86_400;
    /** A faster StandingBy heartbeat than this is load on the agent for a few milliseconds of a claim. */
    static final double MIN_STANDING_BY_HEARTBEAT_SECONDS = 0.05;
    /** {@code {gameServerId}}, {@code {logFolder}}, {@code {instanceId}}, {@code {port:NAME}}. */
    static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z]+)(?::([A-Za-z0-9_.-]+))?}");
    private static final Pattern S3_BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    static final List<String> PLACEHOLDERS = List.of("gameServerId", "logFolder", "instanceId", "serverInstanceNumber", "port");

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private AgentConfigReader() {}

    /** The configuration error: its message says what to fix. */
    public static final class ConfigException extends RuntimeException {
        ConfigException(String message) {
            super(message);
        }
    }

    /**
     * What a task's environment sets over the file (an image's one file serves on an instance and in
     * every container group's task): the mode, and for a sidecar the group, the GSDK file's path and
     * the game server container's ports, which the ECS adapter writes into the task definition.
     */
    static final String MODE_VARIABLE = AgentSidecar.MODE_VARIABLE;
    private static final Map<String, String> SIDECAR_VARIABLES = Map.of(
            AgentSidecar.GROUP_VARIABLE, "gameServerGroupName",
            AgentSidecar.GSDK_CONFIG_FILE_VARIABLE, "gsdkConfigFile");

    public static AgentConfig read(Path file) {
        return read(file, Map.of());
    }

    /**
     * The file, its {@code mode} replaced by {@link #MODE_VARIABLE}'s value where {@code environment}
     * has one; in sidecar mode, its group, GSDK file and ports by the task's variables too.
     */
    public static AgentConfig read(Path file, Map<String, String> environment) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read the agent's configuration: " + e.getMessage());
        }
        return parse(file.toString(), text, environment);
    }

    static AgentConfig parse(String source, String text) {
        return parse(source, text, Map.of());
    }

    private static AgentConfig parse(String source, String text, Map<String, String> environment) {
        AgentConfig config;
        try {
            com.fasterxml.jackson.databind.JsonNode tree = JSON.readTree(text);
            if (tree instanceof com.fasterxml.jackson.databind.node.ObjectNode object) {
                String mode = environment.get(MODE_VARIABLE);
                if (mode != null) {
                    object.remove("Mode");
                    object.put("mode", mode);
                }
                String effective = object.has("mode") ? object.get("mode").asText()
                        : object.has("Mode") ? object.get("Mode").asText() : "";
                if (effective.equals(AgentSidecar.MODE)) {
                    SIDECAR_VARIABLES.forEach((variable, key) -> {
                        String value = environment.get(variable);
                        if (value != null && !value.isBlank()) {
                            object.put(key, value);
                        }
                    });
                    taskPorts(source, environment.get(AgentSidecar.GAME_PORTS_VARIABLE), object);
                }
            }
            config = tree == null || tree.isMissingNode() || tree.isNull() ? null : JSON.treeToValue(tree, AgentConfig.class);
        } catch (UnrecognizedPropertyException e) {
            throw new ConfigException(source + ": unknown key \"" + e.getPropertyName() + "\"" + where(e)
                    + "; the keys there are " + e.getKnownPropertyIds().stream().map(String::valueOf).sorted()
                    .collect(Collectors.joining(", ")) + " (docs/agent.md)");
        } catch (JsonMappingException e) {
            throw new ConfigException(source + ": " + e.getOriginalMessage() + where(e) + " (docs/agent.md)");
        } catch (JsonProcessingException e) {
            throw new ConfigException(source + ": not JSON: " + e.getOriginalMessage());
        }
        if (config == null) {
            throw new ConfigException(source + ": empty; it needs at least gameServerGroupName and command");
        }
        List<String> problems = problems(config);
        if (!problems.isEmpty()) {
            throw new ConfigException(source + ": " + String.join("; ", problems) + " (docs/agent.md)");
        }
        return config;
    }

    /**
     * The task's ports (its game server container's port mappings) over the file's {@code ports},
     * and so its {@code connectionPort}: the first of them.
     */
    private static void taskPorts(String source, String value, com.fasterxml.jackson.databind.node.ObjectNode config)
            throws JsonProcessingException {
        if (value == null || value.isBlank()) {
            return;
        }
        com.fasterxml.jackson.databind.JsonNode ports;
        try {
            ports = JSON.readTree(value);
        } catch (JsonProcessingException e) {
            throw new ConfigException(source + ": " + AgentSidecar.GAME_PORTS_VARIABLE + " is not JSON: " + e.getOriginalMessage());
        }
        config.set("ports", ports);
        config.remove("connectionPort");
    }

    private static String where(JsonMappingException e) {
        String path = e.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
        int dot = path.lastIndexOf('.');
        return dot < 0 ? "" : " in " + path.substring(0, dot);
    }

    static List<String> problems(AgentConfig c) {
        List<String> problems = new ArrayList<>();
        if (blank(c.gameServerGroupName())) {
            problems.add("gameServerGroupName is missing: the group the game servers register in");
        }
        if (c.mode() == AgentConfig.Mode.SIDECAR) {
            sidecarProblems(c, problems);
        } else if (blank(c.command())) {
            problems.add("command is missing: the game server's executable (its arguments go in args)");
        }
        if (c.mode() != AgentConfig.Mode.SIDECAR && c.gsdkConfigFile() != null) {
            problems.add("gsdkConfigFile is set, and only a sidecar (mode \"sidecar\") has one file at a fixed path: a "
                    + "process the agent starts gets its own, in its folder");
        }
        if (c.mode() != AgentConfig.Mode.SIDECAR && c.taskMetadataEndpoint() != null) {
            problems.add("taskMetadataEndpoint is set, and only a sidecar (mode \"sidecar\") runs in an ECS "
                    + "task: an instance's agent reads the instance metadata (metadataEndpoint)");
        }
        if (c.processes() < 1) {
            problems.add("processes is " + c.processes() + ": it must be at least 1");
        }
        if (c.processes() > c.maxGameServersPerInstance()) {
            problems.add("processes is " + c.processes() + ", above the stage's maxGameServersPerInstance "
                    + c.maxGameServersPerInstance() + ": Gamefleet refuses an instance's registrations past it; run at most "
                    + c.maxGameServersPerInstance() + " processes, or raise the stage's (CDK context maxGameServersPerInstance,"
                    + " then the stack output MaxGameServersPerInstance into the user data)");
        }
        c.ports().forEach((name, range) -> {
            if (!name.matches(PushChannel.PORT_NAME)) {
                problems.add("ports." + name + ": a port's name is 1 to 32 letters, digits, '_', '.' or '-' (" + PushChannel.PORT_NAME
                        + "), as its {port:NAME} placeholder and the health report take it");
            }
            if (range.from() < 1 || range.to() > 65535 || range.to() < range.from()) {
                problems.add("ports." + name + " is " + range.from() + "-" + range.to() + ": it needs 1 <= from <= to <= 65535");
            } else if (range.size() < c.processes()) {
                problems.add("ports." + name + " (" + range.from() + "-" + range.to() + ") has " + range.size()
                        + " ports for " + c.processes() + " processes: widen it to at least "
                        + range.from() + "-" + (range.from() + c.processes() - 1) + " or lower processes");
            }
        });
        if (c.ports().size() > PushChannel.PROCESS_MAX_PORTS) {
            problems.add("ports names " + c.ports().size() + " ranges: at most " + PushChannel.PROCESS_MAX_PORTS
                    + ", which the health report carries to Gamefleet");
        }
        if (c.ports().isEmpty()) {
            problems.add("ports is empty: name at least one game port range, e.g. \"ports\": {\"game\": {\"from\": 7777, \"to\": 7786}}");
        }
        if (c.connectionPort() != null && !c.ports().containsKey(c.connectionPort())) {
            problems.add("connectionPort \"" + c.connectionPort() + "\" is not one of ports " + c.ports().keySet());
        }
        if (c.archiveBucket() != null && c.archiveDirectory() != null) {
            problems.add("archiveBucket and archiveDirectory are both set: the logs go to one archive; keep archiveBucket "
                    + "(S3, in AWS) or archiveDirectory (a folder, locally), not both");
        } else if (c.archiveBucket() != null && !S3_BUCKET.matcher(c.archiveBucket()).matches()) {
            problems.add("archiveBucket \"" + c.archiveBucket() + "\" is not an S3 bucket name (the stack output "
                    + "AgentArchiveBucketName: 3 to 63 lowercase letters, digits, dots and hyphens)");
        }
        if (c.runAsUidBase() < 1 || (long) c.runAsUidBase() + c.processes() - 1 > Integer.MAX_VALUE) {
            problems.add("runAsUidBase " + c.runAsUidBase() + " is not a uid for " + c.processes() + " processes: slot i runs as "
                    + "runAsUidBase + i, so it must be at least 1 (never root) and leave room below " + Integer.MAX_VALUE);
        }
        Path work = c.workDirectory().toAbsolutePath().normalize();
        Path servers = c.serversDirectory().toAbsolutePath().normalize();
        if (servers.startsWith(work) || work.startsWith(servers)) {
            problems.add("serversDirectory " + c.serversDirectory() + " and workDirectory " + c.workDirectory() + " overlap: the work "
                    + "directory is the agent's alone (0700), and each process must reach its folder in serversDirectory; "
                    + "give them two separate folders (the defaults: /var/lib/gamefleet-agent, /var/lib/gamefleet-servers)");
        }
        if (c.archiveMaxBytes() < 1) {
            problems.add("archiveMaxBytes is " + c.archiveMaxBytes() + ": it must be at least 1 (the default is "
                    + AgentConfig.DEFAULT_ARCHIVE_MAX_BYTES + ", 100 MiB)");
        }
        if (c.gsdkPort() < 0 || c.gsdkPort() > 65535) {
            problems.add("gsdkPort " + c.gsdkPort() + " is not a port (0 takes any free one)");
        }
        if (c.qosPort() < 0 || c.qosPort() > 65535) {
            problems.add("qosPort " + c.qosPort() + " is not a port (" + QosBeacon.DEFAULT_PORT
                    + ", PlayFab's, by default; 0 turns the QoS beacon off)");
        }
        List<String> texts = new ArrayList<>(c.args());
        texts.addAll(c.env().values());
        for (String text : texts) {
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                String name = m.group(1);
                if (!PLACEHOLDERS.contains(name)) {
                    problems.add("unknown placeholder " + m.group() + " in \"" + text + "\"; the placeholders are "
                            + "{gameServerId}, {logFolder}, {instanceId}, {serverInstanceNumber}, {port:NAME}");
                } else if (name.equals("port") && !c.ports().containsKey(m.group(2))) {
                    problems.add("placeholder " + m.group() + " names no port of ports " + c.ports().keySet());
                }
            }
        }
        if (c.mode() == AgentConfig.Mode.WRAPPER) {
            AgentConfig.Wrapper w = c.wrapper();
            if (w.readyPort() == null && w.readyLine() == null) {
                problems.add("wrapper mode needs wrapper.readyPort (a name of ports) or wrapper.readyLine (a regex of the output)");
            }
            if (w.readyPort() != null && !c.ports().containsKey(w.readyPort())) {
                problems.add("wrapper.readyPort \"" + w.readyPort() + "\" is not one of ports " + c.ports().keySet());
            }
            if (w.readyLine() != null) {
                try {
                    Pattern.compile(w.readyLine());
                } catch (PatternSyntaxException e) {
                    problems.add("wrapper.readyLine is not a regex: " + e.getDescription());
                }
            }
        }
        AgentConfig.Timings t = c.timings();
        for (Map.Entry<String, Double> e : t.byKey().entrySet()) {
            if (!(e.getValue() > 0)) {
                problems.add("timings." + e.getKey() + " is " + e.getValue() + ": it must be above 0");
            } else if (e.getValue() > MAX_TIMING_SECONDS) {
                problems.add("timings." + e.getKey() + " is " + e.getValue() + ": it must be at most "
                        + MAX_TIMING_SECONDS + " (a day)");
            }
        }
        if (t.shutdownBudgetSeconds() < t.terminateNoticeSeconds() + t.stopGraceSeconds()) {
            problems.add("timings.shutdownBudgetSeconds is " + t.shutdownBudgetSeconds() + ": it must be at least "
                    + "terminateNoticeSeconds + stopGraceSeconds (" + (t.terminateNoticeSeconds() + t.stopGraceSeconds())
                    + "), or a stopping agent KILLs its processes before their TERM's grace (and keep it below the unit's "
                    + "TimeoutStopSec)");
        }
        if (t.standingByHeartbeatSeconds() < MIN_STANDING_BY_HEARTBEAT_SECONDS
                || t.standingByHeartbeatSeconds() > GsdkReplies.HEARTBEAT_INTERVAL_MS / 1000.0) {
            problems.add("timings.standingByHeartbeatSeconds is " + t.standingByHeartbeatSeconds() + ": it must be from "
                    + MIN_STANDING_BY_HEARTBEAT_SECONDS + " to " + GsdkReplies.HEARTBEAT_INTERVAL_MS / 1000.0
                    + " (the interval answered in the other states)");
        }
        backoffBounds(problems, "crashBackoff", t.crashBackoffInitialSeconds(), t.crashBackoffMaxSeconds());
        backoffBounds(problems, "apiRetry", t.apiRetryInitialSeconds(), t.apiRetryMaxSeconds());
        return problems;
    }

    /** What an ECS task's sidecar cannot have: it starts no process, and serves its task's one game server. */
    private static void sidecarProblems(AgentConfig c, List<String> problems) {
        if (c.command() != null || !c.args().isEmpty() || !c.env().isEmpty()) {
            problems.add("command, args or env is set, and in mode \"sidecar\" the agent starts no process: the game server "
                    + "is the task's other container (its image's command); remove them");
        }
        if (c.processes() != 1) {
            problems.add("processes is " + c.processes() + ", and in mode \"sidecar\" the agent serves one game server, "
                    + "its task's game server container: remove processes (ECS runs more tasks for more game servers)");
        }
        if (c.runAs() == AgentConfig.RunAs.PER_SERVER) {
            problems.add("runAs is \"per-server\", and in mode \"sidecar\" the game server runs as its container's user, "
                    + "which the agent does not choose: remove runAs");
        }
        if (c.wrapper().readyPort() != null || c.wrapper().readyLine() != null) {
            problems.add("wrapper is set, and in mode \"sidecar\" the game server speaks the GSDK: remove wrapper");
        }
        if (!c.gsdkConfigFile().isAbsolute() || c.gsdkConfigFile().getParent() == null) {
            problems.add("gsdkConfigFile " + c.gsdkConfigFile() + " is not an absolute file path on the task volume (the "
                    + "default: " + AgentConfig.DEFAULT_SIDECAR_GSDK_CONFIG_FILE + ", the game server container's GSDK_CONFIG_FILE)");
        }
    }

    private static void backoffBounds(List<String> problems, String backoff, double initial, double max) {
        if (initial > 0 && max > 0 && max < initial) {
            problems.add("timings." + backoff + "MaxSeconds is " + max + ": it must be at least " + backoff
                    + "InitialSeconds (" + initial + ")");
        }
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
