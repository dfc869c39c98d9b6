package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AgentConfigReaderTest {
    private static final String MINIMAL = """
            {"gameServerGroupName": "g", "command": "/game", "ports": {"game": {"from": 7000, "to": 7003}}, "processes": 4}
            """;

    @Test
    void aMinimalFileTakesTheDefaults() {
        AgentConfig c = AgentConfigReader.parse("agent.json", MINIMAL);
        assertThat(c.gsdkPort()).isEqualTo(56001);
        assertThat(c.qosPort()).as("PlayFab's QoS beacon port").isEqualTo(3075);
        assertThat(c.mode()).isEqualTo(AgentConfig.Mode.GSDK);
        assertThat(c.timings().startTimeoutSeconds()).isEqualTo(300);
        assertThat(c.timings().healthPeriodSeconds()).isEqualTo(60);
        assertThat(c.timings().metadataPollSeconds()).isEqualTo(5);
        assertThat(c.timings().pushPingSeconds()).as("a pong expected within two: a half-open connection found in a minute")
                .isEqualTo(30);
        assertThat(c.timings().shutdownBudgetSeconds()).as("below the unit's TimeoutStopSec of 120 s").isEqualTo(90);
        assertThat(c.timings().archiveReserveSeconds()).isEqualTo(30);
        assertThat(c.rebalance()).as("a recommendation is told, the instance goes on").isEqualTo(AgentConfig.Rebalance.NOTIFY);
        assertThat(c.archiveDirectory()).isEqualTo(c.workDirectory().resolve("archive"));
        assertThat(c.serversDirectory()).isEqualTo(java.nio.file.Path.of("/var/lib/gamefleet-servers"));
        assertThat(c.runAs()).as("decided at start, by the agent's privileges").isNull();
        assertThat(c.runAsUidBase()).isEqualTo(61000);
        assertThat(c.timings().claimTtlSeconds()).isEqualTo(60);
        assertThat(c.timings().standingByHeartbeatSeconds()).isEqualTo(0.1);
    }

    @Test
    void theQosPortIsAPortOrZeroForNoBeacon() {
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"qosPort\": 0"))
                .qosPort()).isZero();
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"qosPort\": 70000")))
                .hasMessageContaining("qosPort 70000 is not a port (3075, PlayFab's, by default; 0 turns the QoS beacon off)");
    }

    @Test
    void theStandingByHeartbeatIsFrom50MillisecondsToTheOtherStatesSecond() {
        for (String refused : new String[] {"0.01", "1.5"}) {
            assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                    "\"processes\": 4, \"timings\": {\"standingByHeartbeatSeconds\": " + refused + "}")))
                    .hasMessageContaining("timings.standingByHeartbeatSeconds is " + Double.parseDouble(refused)
                            + ": it must be from 0.05 to 1.0");
        }
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"timings\": {\"standingByHeartbeatSeconds\": 1}")).timings().standingByHeartbeat())
                .isEqualTo(java.time.Duration.ofSeconds(1));
    }

    @Test
    void rebalanceIsDrainOrNotifyAndTheShutdownBudgetHoldsTheStopsGrace() {
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"rebalance\": \"drain\""))
                .rebalance()).isEqualTo(AgentConfig.Rebalance.DRAIN);
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"rebalance\": \"ignore\""))).hasMessageContaining("[drain, notify]");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"timings\": {\"shutdownBudgetSeconds\": 15}")))
                .hasMessageContaining("timings.shutdownBudgetSeconds is 15.0: it must be at least terminateNoticeSeconds + "
                        + "stopGraceSeconds (20.0)");
    }

    @Test
    void theUnitGivesAStoppingAgentMoreThanItsDefaultShutdownBudget() throws Exception {
        // The unit's copy in scripts/agent-user-data.sh is held equal to it by AgentUserDataTest (local module).
        String unit = java.nio.file.Files.readString(java.nio.file.Path.of("..", "scripts", "gamefleet-agent.service"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^TimeoutStopSec=(\\d+)$").matcher(unit);
        assertThat(m.find()).as("TimeoutStopSec in the unit").isTrue();
        double budget = AgentConfigReader.parse("agent.json", MINIMAL).timings().shutdownBudgetSeconds();
        assertThat(Double.parseDouble(m.group(1))).as("systemd KILLs the agent after TimeoutStopSec").isGreaterThan(budget + 10);
    }

    @Test
    void runAsIsPerServerOrAgentWithAUidBaseThatIsNeverRootAndFoldersThatDoNotOverlap() {
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"runAs\": \"per-server\""))
                .runAs()).isEqualTo(AgentConfig.RunAs.PER_SERVER);
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"runAs\": \"agent\""))
                .runAs()).isEqualTo(AgentConfig.RunAs.AGENT);
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"runAs\": \"root\"")))
                .hasMessageContaining("from String \"root\"").hasMessageContaining("[per-server, agent]");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"runAsUidBase\": 0")))
                .hasMessageContaining("runAsUidBase 0 is not a uid for 4 processes").hasMessageContaining("at least 1 (never root)");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"runAsUidBase\": 2147483646")))
                .hasMessageContaining("runAsUidBase 2147483646 is not a uid for 4 processes");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"workDirectory\": \"/var/lib/g\", \"serversDirectory\": \"/var/lib/g/servers\"")))
                .hasMessageContaining("serversDirectory /var/lib/g/servers and workDirectory /var/lib/g overlap");
    }

    @Test
    void anUnknownKeyIsNamedWithTheKeysThatAreKnown() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\"", "\"procesess\"")))
                .hasMessageContaining("unknown key \"procesess\"").hasMessageContaining("processes");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json",
                MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"timings\": {\"startTimeout\": 3}")))
                .hasMessageContaining("unknown key \"startTimeout\" in timings").hasMessageContaining("startTimeoutSeconds");
    }

    @Test
    void theLogsGoToABucketOrAFolderNeverBoth() {
        AgentConfig toS3 = AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"archiveBucket\": \"gamefleet-agentarchive-1a2b\""));
        assertThat(toS3.archiveBucket()).isEqualTo("gamefleet-agentarchive-1a2b");
        assertThat(toS3.archiveDirectory()).isNull();
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"archiveBucket\": \"logs\", \"archiveDirectory\": \"/var/logs\"")))
                .hasMessageContaining("archiveBucket and archiveDirectory are both set")
                .hasMessageContaining("keep archiveBucket (S3, in AWS) or archiveDirectory (a folder, locally), not both");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"archiveBucket\": \"s3://logs/\"")))
                .hasMessageContaining("archiveBucket \"s3://logs/\" is not an S3 bucket name");
    }

    @Test
    void theGameServersUsersAreTheBaseAndOnePerSlotAsTheUserDatasMetadataRuleNamesThem() {
        assertThat(AgentMain.gameServerUids(AgentConfigReader.parse("agent.json", MINIMAL))).isEqualTo("61000-61003");
        assertThat(AgentMain.gameServerUids(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 1, \"runAsUidBase\": 70000")))).isEqualTo("70000-70000");
    }

    @Test
    void aServersArchiveHoldsAtMost100MiBByDefaultAndTheCapIsAtLeastAByte() {
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL).archiveMaxBytes()).isEqualTo(100L * 1024 * 1024);
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"archiveMaxBytes\": 1000000000000")).archiveMaxBytes()).isEqualTo(1_000_000_000_000L);
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"archiveMaxBytes\": 0")))
                .hasMessageContaining("archiveMaxBytes is 0: it must be at least 1");
    }

    @Test
    void aMissingCommandIsNamed() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"command\": \"/game\",", "")))
                .hasMessageContaining("command is missing");
    }

    @Test
    void moreProcessesThanTheStagesCapOnAnInstanceIsAConfigurationError() {
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL).maxGameServersPerInstance()).as("the stage's default").isEqualTo(16);
        String aboveTheCap = MINIMAL.replace("\"processes\": 4", "\"processes\": 4, \"maxGameServersPerInstance\": 3");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", aboveTheCap))
                .hasMessageContaining("processes is 4, above the stage's maxGameServersPerInstance 3");
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"maxGameServersPerInstance\": 4")).processes()).isEqualTo(4);
    }

    @Test
    void aPortRangeTooSmallForTheProcessesSaysHowToWidenIt() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4", "\"processes\": 5")))
                .hasMessageContaining("ports.game (7000-7003) has 4 ports for 5 processes: widen it to at least 7000-7004");
    }

    @Test
    void portsAreAtMostEightOfNamesTheHealthReportCarries() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"game\"", "\"game port\"")))
                .hasMessageContaining("ports.game port: a port's name is 1 to 32 letters, digits, '_', '.' or '-'");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"game\"", "\"" + "g".repeat(33) + "\"")))
                .hasMessageContaining("a port's name is 1 to 32");
        StringBuilder nine = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            nine.append(i == 0 ? "" : ", ").append("\"p").append(i).append("\": {\"from\": ").append(7000 + 10 * i)
                    .append(", \"to\": ").append(7003 + 10 * i).append("}");
        }
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"game\": {\"from\": 7000, \"to\": 7003}",
                nine.toString()))).hasMessageContaining("ports names 9 ranges: at most 8");
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL.replace("\"game\"", "\"Game_1.udp-" + "x".repeat(21) + "\""))
                .ports()).hasSize(1);
    }

    @Test
    void placeholdersMustBeKnownAndNamePorts() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"args\": [\"{serverId}\", \"{port:query}\"]")))
                .hasMessageContaining("unknown placeholder {serverId}")
                .hasMessageContaining("placeholder {port:query} names no port");
    }

    @Test
    void wrapperModeNeedsAReadinessSignal() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"mode\": \"wrapper\"")))
                .hasMessageContaining("wrapper mode needs wrapper.readyPort");
    }

    @Test
    void everyTimingThatIsNotAbove0IsRefusedByName() {
        for (java.lang.reflect.RecordComponent key : AgentConfig.Timings.class.getRecordComponents()) {
            for (String value : new String[] {"0", "-1"}) {
                assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                        "\"processes\": 4, \"timings\": {\"" + key.getName() + "\": " + value + "}")))
                        .as(key.getName() + " " + value)
                        .hasMessageContaining("timings." + key.getName() + " is " + Double.parseDouble(value) + ": it must be above 0");
            }
        }
    }

    @Test
    void everyTimingOverADayIsRefusedByName() {
        for (java.lang.reflect.RecordComponent key : AgentConfig.Timings.class.getRecordComponents()) {
            assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                    "\"processes\": 4, \"timings\": {\"" + key.getName() + "\": 1e18}")))
                    .as(key.getName())
                    .hasMessageContaining("timings." + key.getName() + " is 1.0E18: it must be at most 86400 (a day)");
        }
        assertThatCode(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"timings\": {\"startTimeoutSeconds\": 86400}"))).doesNotThrowAnyException();
    }

    @Test
    void aBackoffsMaximumBelowItsFirstDelayIsRefused() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"timings\": {\"crashBackoffInitialSeconds\": 5, \"crashBackoffMaxSeconds\": 2, "
                        + "\"apiRetryMaxSeconds\": 0.5}")))
                .hasMessageContaining("timings.crashBackoffMaxSeconds is 2.0: it must be at least crashBackoffInitialSeconds (5.0)")
                .hasMessageContaining("timings.apiRetryMaxSeconds is 0.5: it must be at least apiRetryInitialSeconds (1.0)");
    }

    @Test
    void notJsonAndWrongTypesAreRefused() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", "{")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("4}", "\"four\"}")))
                .isInstanceOf(AgentConfigReader.ConfigException.class);
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"mode\": \"docker\""))).isInstanceOf(AgentConfigReader.ConfigException.class);
    }

    private static final String SIDECAR = """
            {"Mode": "sidecar", "gameServerGroupName": "g", "ports": {"game": {"from": 7777, "to": 7777}}}
            """;

    @Test
    void aSidecarTakesTheTaskVolumesGsdkConfigFileAndOneGameServer() {
        AgentConfig c = AgentConfigReader.parse("agent.json", SIDECAR);
        assertThat(c.mode()).as("\"Mode\", as the containers' contract spells it").isEqualTo(AgentConfig.Mode.SIDECAR);
        assertThat(c.gsdkConfigFile()).isEqualTo(java.nio.file.Path.of("/gamefleet/gsdk.json"));
        assertThat(c.serversDirectory()).as("its game server's folders beside the file, on the task volume")
                .isEqualTo(java.nio.file.Path.of("/gamefleet"));
        assertThat(c.processes()).isEqualTo(1);
        assertThat(c.gsdkPort()).isEqualTo(56001);
        assertThat(AgentConfigReader.parse("agent.json", SIDECAR.replace("\"Mode\"", "\"mode\"")).mode())
                .isEqualTo(AgentConfig.Mode.SIDECAR);
        assertThat(AgentConfigReader.parse("agent.json", MINIMAL).gsdkConfigFile()).as("a launched process's is in its folder").isNull();
    }

    @Test
    void gamefleetAgentModeInTheEnvironmentMakesAnInstancesFileASidecars(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("agent.json"),
                "{\"mode\": \"gsdk\", \"gameServerGroupName\": \"g\", \"ports\": {\"game\": {\"from\": 7777, \"to\": 7777}}}");
        assertThat(AgentConfigReader.read(file, java.util.Map.of("GAMEFLEET_AGENT_MODE", "sidecar")).mode())
                .isEqualTo(AgentConfig.Mode.SIDECAR);
        assertThatThrownBy(() -> AgentConfigReader.read(file, java.util.Map.of()))
                .as("without it, the file's mode: an instance's agent needs a command").hasMessageContaining("command is missing");
        assertThatThrownBy(() -> AgentConfigReader.read(file, java.util.Map.of("GAMEFLEET_AGENT_MODE", "docker")))
                .isInstanceOf(AgentConfigReader.ConfigException.class).hasMessageContaining("[gsdk, sidecar, wrapper]");
    }

    @Test
    void aTasksEnvironmentNamesASidecarsGroupAndGsdkFileOverTheImagesOneFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // The agent image's file names no group: each container group's task definition does.
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("agent.json"),
                "{\"ports\": {\"game\": {\"from\": 7777, \"to\": 7777}}}");
        AgentConfig c = AgentConfigReader.read(file, java.util.Map.of("GAMEFLEET_AGENT_MODE", "sidecar",
                "GAMEFLEET_GAME_SERVER_GROUP", "arena", "GSDK_CONFIG_FILE", "/gamefleet/x/gsdk.json"));
        assertThat(c.gameServerGroupName()).isEqualTo("arena");
        assertThat(c.gsdkConfigFile()).isEqualTo(java.nio.file.Path.of("/gamefleet/x/gsdk.json"));
        // An instance's agent takes neither: its launched processes get their own GSDK files.
        java.nio.file.Path instance = java.nio.file.Files.writeString(dir.resolve("instance.json"), MINIMAL);
        AgentConfig onInstance = AgentConfigReader.read(instance, java.util.Map.of("GAMEFLEET_GAME_SERVER_GROUP", "arena",
                "GSDK_CONFIG_FILE", "/gamefleet/gsdk.json"));
        assertThat(onInstance.gameServerGroupName()).isNotEqualTo("arena");
        assertThat(onInstance.gsdkConfigFile()).isNull();
    }

    @Test
    void aTasksEnvironmentNamesASidecarsPortsOverTheImagesFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("agent.json"),
                "{\"ports\": {\"game\": {\"from\": 7777, \"to\": 7777}}, \"connectionPort\": \"game\"}");
        AgentConfig c = AgentConfigReader.read(file, java.util.Map.of("GAMEFLEET_AGENT_MODE", "sidecar",
                "GAMEFLEET_GAME_SERVER_GROUP", "arena",
                "GAMEFLEET_GAME_PORTS", "{\"play\": {\"from\": 7000, \"to\": 7000}, \"query\": {\"from\": 27015, \"to\": 27015}}"));
        assertThat(c.ports()).as("the task's, the file's gone").containsOnlyKeys("play", "query");
        assertThat(c.ports().get("play")).isEqualTo(new AgentConfig.PortRange(7000, 7000));
        assertThat(c.connectionPort()).as("the first of the task's: the file's named a port it no longer has")
                .isIn(null, "play");
        assertThatThrownBy(() -> AgentConfigReader.read(file, java.util.Map.of("GAMEFLEET_AGENT_MODE", "sidecar",
                "GAMEFLEET_GAME_SERVER_GROUP", "arena", "GAMEFLEET_GAME_PORTS", "{play")))
                .isInstanceOf(AgentConfigReader.ConfigException.class).hasMessageContaining("GAMEFLEET_GAME_PORTS is not JSON");
        java.nio.file.Path instance = java.nio.file.Files.writeString(dir.resolve("instance.json"), MINIMAL);
        assertThat(AgentConfigReader.read(instance, java.util.Map.of("GAMEFLEET_GAME_PORTS", "{\"play\": {\"from\": 7000, \"to\": 7000}}"))
                .ports()).as("an instance's agent takes its file's").doesNotContainKey("play");
    }

    @Test
    void aSidecarWithAProcessToStartOrSeveralGameServersIsRefusedWithWhatToRemove() {
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",", "\"g\", \"command\": \"/game\",")))
                .hasMessageContaining("command, args or env is set, and in mode \"sidecar\" the agent starts no process: the game "
                        + "server is the task's other container (its image's command); remove them");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",", "\"g\", \"args\": [\"-x\"],")))
                .hasMessageContaining("command, args or env is set");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",", "\"g\", \"processes\": 2,")
                .replace("\"to\": 7777", "\"to\": 7778")))
                .hasMessageContaining("processes is 2, and in mode \"sidecar\" the agent serves one game server, its task's game "
                        + "server container");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",", "\"g\", \"runAs\": \"per-server\",")))
                .hasMessageContaining("runAs is \"per-server\", and in mode \"sidecar\" the game server runs as its container's user");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",",
                "\"g\", \"wrapper\": {\"readyPort\": \"game\"},"))).hasMessageContaining("wrapper is set");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", SIDECAR.replace("\"g\",",
                "\"g\", \"gsdkConfigFile\": \"gsdk.json\",")))
                .hasMessageContaining("gsdkConfigFile gsdk.json is not an absolute file path on the task volume");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"gsdkConfigFile\": \"/gamefleet/gsdk.json\"")))
                .hasMessageContaining("gsdkConfigFile is set, and only a sidecar (mode \"sidecar\") has one");
        assertThatThrownBy(() -> AgentConfigReader.parse("agent.json", MINIMAL.replace("\"processes\": 4",
                "\"processes\": 4, \"taskMetadataEndpoint\": \"http://127.0.0.1:9/v4/x\"")))
                .hasMessageContaining("taskMetadataEndpoint is set, and only a sidecar");
    }
}
