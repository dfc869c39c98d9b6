package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the configuration adds to a process's start: its ports by name in the environment, the
 * config's own variables with their placeholders filled, and its build metadata in the GSDK config
 * file. The rest of a start (the GSDK variables, the allow-list of the agent's environment) is
 * {@link SupervisorTest}'s.
 */
class GameServerLaunchTest {
    @TempDir Path work;

    @Test
    void theConfigsPortsVariablesAndBuildMetadataReachTheProcess() throws Exception {
        AgentConfig config = AgentConfigReader.parse("agent.json", "{\"gameServerGroupName\": \"g\", \"command\": \"/opt/game/server\", "
                + "\"processes\": 2, \"ports\": {\"game\": {\"from\": 7000, \"to\": 7001}, \"query-port\": {\"from\": 8000, \"to\": 8001}}, "
                + "\"env\": {\"GAME_MODE\": \"duel\", \"CRASH_DIR\": \"{logFolder}/crashes\", \"QUERY\": \"{port:query-port}\", "
                + "\"PATH\": \"/opt/game/bin:/usr/bin\"}, \"buildMetadata\": {\"map\": \"dust2\", \"season\": \"7\"}, "
                + "\"workDirectory\": \"" + work.resolve("agent") + "\", \"serversDirectory\": \"" + work.resolve("servers") + "\"}");
        ServerFolders folders = new ServerFolders(config.workDirectory(), config.serversDirectory());
        folders.prepare();
        GameServerLaunch launch = new GameServerLaunch(config, "i-1", "10.0.0.5", folders, AgentFixture.AGENT_ENVIRONMENT);
        ServerRecord s = new ServerRecord(1, "gs-0000000000000001", "session", folders.folderOf("gs-0000000000000001"),
                Instant.parse("2026-12-01T10:00:00Z"));

        ProcessLauncher.LaunchSpec spec = launch.prepare(s, 56001);

        assertThat(spec.environment()).containsEntry("GAMEFLEET_PORT_GAME", "7001").containsEntry("GAMEFLEET_PORT_QUERY_PORT", "8001")
                .containsEntry("GAME_MODE", "duel").containsEntry("CRASH_DIR", s.logFolder() + "/crashes")
                .containsEntry("QUERY", "8001").as("the config's PATH over the agent's").containsEntry("PATH", "/opt/game/bin:/usr/bin");
        JsonNode gsdk = AgentFixture.JSON.readTree(Path.of(spec.environment().get("GSDK_CONFIG_FILE")).toFile());
        assertThat(AgentFixture.JSON.convertValue(gsdk.path("buildMetadata"), Map.class))
                .isEqualTo(Map.of("map", "dust2", "season", "7"));
    }
}
