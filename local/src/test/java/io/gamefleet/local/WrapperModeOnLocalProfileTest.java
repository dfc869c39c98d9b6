package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code local/run --agent-config} in wrapper mode, end to end: a game server with no SDK at all
 * (the agent's {@code PlainTcpServer}, a child JVM that listens on its game port and exits when told
 * "quit") is ready when its port accepts a connection, registered AVAILABLE with its port, claimable
 * (UTILIZED at once: there is no channel to tell it), deregistered when it exits, and replaced.
 */
class WrapperModeOnLocalProfileTest {
    @RegisterExtension
    static final LocalProfileExtension LOCAL = new LocalProfileExtension().inRealTime()
            .localOnly("the simulated instances' agents");

    private static final String GROUP = "wrapped";

    @TempDir
    Path folder;

    private final AgentsOnProfile servers = new AgentsOnProfile(LOCAL, GROUP);

    @Test
    void aPlainTcpServerIsReadyWhenItListensIsClaimedAndIsDeregisteredAndReplacedWhenItExits() throws Exception {
        ObjectMapper json = new ObjectMapper();
        // The folder in its arguments names this test's processes; PlainTcpServer ignores the extra argument.
        List<String> command = AgentsOnProfile.agentTestMain("PlainTcpServer", "{port:game}", "300", folder.toString());
        Path config = AgentsOnProfile.agentConfig(folder, """
                {"command": %s, "args": %s, "mode": "wrapper", "wrapper": {"readyPort": "game"}, "ports": {"game": {}},
                 "timings": {"startTimeoutSeconds": 20, "stopGraceSeconds": 1}}
                """.formatted(json.writeValueAsString(command.get(0)),
                json.writeValueAsString(command.subList(1, command.size()))));
        LOCAL.admin().createActive(GamefleetClient.groupBody(GROUP, 1, 1));
        String instance = LOCAL.profile().fleet().instancesOf(GROUP).get(0).instanceId();
        InstanceAgents agents = LOCAL.profile().runAgents(AgentTemplate.read(config));

        JsonNode server = AgentsOnProfile.await("registered AVAILABLE once it listens",
                () -> servers.available(instance).orElse(null));
        String id = server.get("GameServerId").asText();
        String connection = server.get("ConnectionInfo").asText();
        assertThat(connection).startsWith("127.0.0.1:");
        int port = Integer.parseInt(connection.substring(connection.indexOf(':') + 1));
        assertThat(servers.console(instance, id)).contains("listening on " + port);

        AgentsOnProfile.await("the agent's push connection", () -> servers.pushConnection(instance).orElse(null));
        LOCAL.matchmaker().claim(GROUP, GamefleetClient.obj().put("GameServerId", id)).ok();
        AgentsOnProfile.await("UTILIZED", () -> LOCAL.admin().describeServer(GROUP, id).ok().server()
                .path("UtilizationStatus").asText().equals("UTILIZED") ? id : null);

        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port); OutputStream out = s.getOutputStream()) {
            out.write("quit".getBytes(StandardCharsets.US_ASCII));
        }
        AgentsOnProfile.await("deregistered when it exits", () -> LOCAL.admin().describeServer(GROUP, id).status() == 404
                ? id : null);
        JsonNode report = servers.report(agents.archive(), instance, id);
        assertThat(report.path("exitCode").asInt(-1)).as("%s", report).isZero();
        assertThat(Files.readString(agents.archive().resolve(GROUP).resolve(instance).resolve(id)
                .resolve("PF_ConsoleLogs.txt"))).contains("quitting");
        JsonNode next = AgentsOnProfile.await("a new server in its place", () -> servers.available(instance)
                .filter(s -> !s.get("GameServerId").asText().equals(id)).orElse(null));
        assertThat(next.get("ConnectionInfo").asText()).isEqualTo(connection);
    }
}
