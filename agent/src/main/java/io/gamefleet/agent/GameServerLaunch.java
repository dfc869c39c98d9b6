package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;

/**
 * What one game server process is started with: the config's command and arguments with their
 * placeholders filled, PlayFab's GSDK config file and {@code PF_*} variables, its folders, and of the
 * agent's own environment only what is harmless to hand on (PATH, LANG, LC_*, TZ): never the agent's
 * credentials or any other secret of its environment.
 */
final class GameServerLaunch {
    /** PlayFab's agent writes the process's stdout and stderr to this file of its log folder. */
    static final String CONSOLE_LOG = "PF_ConsoleLogs.txt";
    static final String GSDK_CONFIG = "gsdkConfig.json";
    /** Where a process looks for its programs when the agent has no PATH (systemd always gives one). */
    static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AgentConfig config;
    private final String instanceId;
    private final String address;
    private final ServerFolders folders;
    private final Map<String, String> handedOn;

    /** {@code agentEnvironment}: the agent's own environment, of which only the allow-list reaches a process. */
    GameServerLaunch(AgentConfig config, String instanceId, String address, ServerFolders folders,
            Map<String, String> agentEnvironment) {
        this.config = config;
        this.instanceId = instanceId;
        this.address = address;
        this.folders = folders;
        this.handedOn = allowed(agentEnvironment);
    }

    /** PATH, LANG, LC_* and TZ: what a program needs to find programs and speak the locale, and no secret. */
    static Map<String, String> allowed(Map<String, String> agentEnvironment) {
        Map<String, String> allowed = new TreeMap<>();
        agentEnvironment.forEach((name, value) -> {
            if (name.equals("PATH") || name.equals("LANG") || name.equals("TZ") || name.startsWith("LC_")) {
                allowed.put(name, value);
            }
        });
        allowed.putIfAbsent("PATH", DEFAULT_PATH);
        return allowed;
    }

    /** Process {@code slot}'s port of each name. */
    Map<String, Integer> ports(int slot) {
        return ports(config, slot);
    }

    /** Process {@code slot}'s port of each name of {@code config}'s ports. */
    static Map<String, Integer> ports(AgentConfig config, int slot) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        config.ports().forEach((name, range) -> ports.put(name, range.from() + slot));
        return ports;
    }

    /** ConnectionInfo for FleetIQ: the instance's address and the connection port. */
    String connectionInfo(int slot) {
        String name = config.connectionPort() != null ? config.connectionPort() : config.ports().keySet().iterator().next();
        return address + ":" + ports(slot).get(name);
    }

    /** Creates the server's folders and GSDK config file; returns how to start it. */
    ProcessLauncher.LaunchSpec prepare(ServerRecord s, int gsdkPort) throws IOException {
        Path logs = s.logFolder();
        Path console = logs.resolve(CONSOLE_LOG);
        folders.create(s, console);
        Path shared = folders.shared();
        Path certificates = folders.certificates();
        Map<String, Integer> ports = ports(s.slot);
        byte[] gsdkConfig = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(gsdkConfig(s, gsdkPort, ports, logs, shared,
                certificates));
        // A sidecar's game server is started by ECS, with GSDK_CONFIG_FILE set to the one path on the task volume.
        Path gsdkFile = config.mode() == AgentConfig.Mode.SIDECAR ? folders.writeForContainer(config.gsdkConfigFile(), gsdkConfig)
                : folders.writeOwn(s, folders.configFolder(s).resolve(GSDK_CONFIG), gsdkConfig);

        Map<String, String> env = new TreeMap<>(handedOn);
        env.put("HOME", s.folder.toString());
        env.put("TMPDIR", s.folder.toString());
        // With GSDK_CONFIG_FILE, the GSDKs (C++, C#, Java, Unity, Unreal) read the rest from the file, and
        // only PF_TITLE_ID, PF_BUILD_ID and PF_REGION from the environment: the session host id stays in the file.
        env.put("GSDK_CONFIG_FILE", gsdkFile.toString());
        env.put("PF_TITLE_ID", config.titleId());
        env.put("PF_BUILD_ID", config.buildId());
        env.put("PF_REGION", config.region() == null ? "" : config.region());
        env.put("PF_VM_ID", instanceId);
        env.put("PF_SERVER_INSTANCE_NUMBER", String.valueOf(s.slot));
        env.put("PF_SERVER_LOG_DIRECTORY", logs.toString());
        env.put("PF_SERVER_DUMP_DIRECTORY", logs.resolve("_dumps").toString());
        env.put("PF_SHARED_CONTENT_FOLDER", shared.toString());
        env.put("CERTIFICATE_FOLDER", certificates.toString());
        env.put("PF_PUBLIC_IPV4_ADDRESS", address);
        env.put("PF_FQDN", address);
        env.put("GAMEFLEET_GAME_SERVER_ID", s.gameServerId);
        env.put("GAMEFLEET_GAME_SERVER_GROUP_NAME", config.gameServerGroupName());
        ports.forEach((name, port) -> env.put("GAMEFLEET_PORT_" + name.toUpperCase().replaceAll("[^A-Z0-9]", "_"), String.valueOf(port)));
        config.env().forEach((k, v) -> env.put(k, fill(v, s, ports)));

        List<String> command = new ArrayList<>();
        command.add(config.command());
        config.args().forEach(a -> command.add(fill(a, s, ports)));
        return new ProcessLauncher.LaunchSpec(command, env, s.folder, console, s.uid);
    }

    /** The PATH a process looks its command up in (the config's env may set another). */
    String processPath() {
        return config.env().getOrDefault("PATH", handedOn.get("PATH"));
    }

    private ObjectNode gsdkConfig(ServerRecord s, int gsdkPort, Map<String, Integer> ports, Path logs, Path shared,
            Path certificates) {
        ObjectNode c = JSON.createObjectNode();
        c.put("heartbeatEndpoint", "127.0.0.1:" + gsdkPort);
        c.put("sessionHostId", s.sessionHostId);
        c.put("vmId", instanceId);
        c.put("logFolder", logs.toString());
        c.put("sharedContentFolder", shared.toString());
        c.put("certificateFolder", certificates.toString());
        c.putObject("gameCertificates");
        ObjectNode metadata = c.putObject("buildMetadata");
        config.buildMetadata().forEach(metadata::put);
        ObjectNode gamePorts = c.putObject("gamePorts");
        ports.forEach((name, port) -> gamePorts.put(name, String.valueOf(port)));
        c.put("publicIpV4Address", address);
        c.put("fullyQualifiedDomainName", address);
        c.put("serverInstanceNumber", s.slot);
        ObjectNode connection = c.putObject("gameServerConnectionInfo");
        connection.put("publicIpV4Adress", address); // sic: the GSDKs read this spelling
        ArrayNode portsConfiguration = connection.putArray("gamePortsConfiguration");
        ports.forEach((name, port) -> portsConfiguration.addObject()
                .put("name", name).put("serverListeningPort", port).put("clientConnectionPort", port));
        return c;
    }

    private String fill(String text, ServerRecord s, Map<String, Integer> ports) {
        Matcher m = AgentConfigReader.PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "gameServerId" -> s.gameServerId;
                case "logFolder" -> s.logFolder().toString();
                case "instanceId" -> instanceId;
                case "serverInstanceNumber" -> String.valueOf(s.slot);
                case "port" -> String.valueOf(ports.get(m.group(2)));
                default -> m.group();
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
