package io.gamefleet.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * What one game server process is started with: the config's command and arguments with their
 * placeholders filled, PlayFab's GSDK config file and {@code PF_*} variables, its log folder.
 */
final class GameServerLaunch {
    /** PlayFab's agent writes the process's stdout and stderr to this file of its log folder. */
    static final String CONSOLE_LOG = "PF_ConsoleLogs.txt";
    static final String GSDK_CONFIG = "gsdkConfig.json";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AgentConfig config;
    private final String instanceId;
    private final String address;

    GameServerLaunch(AgentConfig config, String instanceId, String address) {
        this.config = config;
        this.instanceId = instanceId;
        this.address = address;
    }

    /** Process {@code slot}'s port of each name. */
    Map<String, Integer> ports(int slot) {
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
        Path logs = Files.createDirectories(s.logFolder());
        Files.createDirectories(logs.resolve("_dumps"));
        Path configFolder = Files.createDirectories(s.folder.resolve("config"));
        Path shared = Files.createDirectories(config.workDirectory().resolve("shared"));
        Path certificates = Files.createDirectories(config.workDirectory().resolve("certificates"));
        Map<String, Integer> ports = ports(s.slot);
        Path gsdkFile = configFolder.resolve(GSDK_CONFIG);
        Files.writeString(gsdkFile, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(
                gsdkConfig(s, gsdkPort, ports, logs, shared, certificates)));

        Map<String, String> env = new HashMap<>(System.getenv());
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
        // The C++ GSDK's fallbacks when there is no config file.
        env.put("HEARTBEAT_ENDPOINT", "127.0.0.1:" + gsdkPort);
        env.put("SESSION_HOST_ID", s.sessionHostId);
        env.put("GSDK_LOG_FOLDER", logs.toString());
        env.put("SHARED_CONTENT_FOLDER", shared.toString());
        env.put("GAMEFLEET_GAME_SERVER_ID", s.gameServerId);
        env.put("GAMEFLEET_GAME_SERVER_GROUP_NAME", config.gameServerGroupName());
        ports.forEach((name, port) -> env.put("GAMEFLEET_PORT_" + name.toUpperCase().replaceAll("[^A-Z0-9]", "_"), String.valueOf(port)));
        config.env().forEach((k, v) -> env.put(k, fill(v, s, ports)));

        List<String> command = new ArrayList<>();
        command.add(config.command());
        config.args().forEach(a -> command.add(fill(a, s, ports)));
        return new ProcessLauncher.LaunchSpec(command, env, s.folder, logs.resolve(CONSOLE_LOG));
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
