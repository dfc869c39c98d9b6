package io.gamefleet.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gamefleet.catalog.Lifetimes;
import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** local/run's flags, parsed without starting anything. */
class MainTest {
    @Test
    void flagsBecomeOptions() {
        Main.Launch launch = Main.parse(List.of("--port", "0", "--claim-ttl-seconds", "30", "--balancer-rate-seconds", "5",
                "--spot-interruption-rate", "c4.large=0.5", "--spot-interruption-rate", "m4.large=2"));
        assertThat(launch.options().port()).isZero();
        assertThat(launch.options().claimTtl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(launch.options().balancerRate()).isEqualTo(Duration.ofSeconds(5));
        assertThat(launch.spotInterruptionsPerHour()).containsEntry("c4.large", 0.5).containsEntry("m4.large", 2.0);
        assertThat(launch.demo()).isFalse();
        assertThat(Main.parse(List.of("--demo", "--port", "0")).demo()).isTrue();
    }

    @Test
    void theEdgesFlagsBecomeOptions() {
        LocalProfile.Options defaults = Main.parse(List.of()).options();
        assertThat(defaults.localToken()).hasSizeGreaterThanOrEqualTo(40)
                .isNotEqualTo(Main.parse(List.of()).options().localToken()); // a new one each run
        assertThat(defaults.allowUnsignedPayload()).isFalse();
        assertThat(defaults.keepTemp()).isFalse();
        assertThat(defaults.log()).isEqualTo(io.gamefleet.local.edge.LogLevel.REQUESTS);
        assertThat(defaults.strictSigning()).isFalse();
        LocalProfile.Options set = Main.parse(List.of("--local-token", "0123456789abcdefXYZ", "--allow-unsigned-payload",
                "--keep-temp", "--quiet", "--strict-signing")).options();
        assertThat(set.localToken()).isEqualTo("0123456789abcdefXYZ");
        assertThat(set.allowUnsignedPayload()).isTrue();
        assertThat(set.keepTemp()).isTrue();
        assertThat(set.log()).isEqualTo(io.gamefleet.local.edge.LogLevel.QUIET);
        assertThat(set.strictSigning()).isTrue();
        assertThatThrownBy(() -> Main.parse(List.of("--local-token", "short"))).hasMessageContaining("--local-token");
        assertThat(Main.parse(List.of("--log", "all")).options().log()).isEqualTo(io.gamefleet.local.edge.LogLevel.ALL);
        assertThat(Main.parse(List.of("--log=errors")).options().log()).isEqualTo(io.gamefleet.local.edge.LogLevel.ERRORS);
        assertThatThrownBy(() -> Main.parse(List.of("--log", "loud")))
                .hasMessage("--log takes one of all, requests, quiet, errors, not loud");
    }

    /** What one instance may do, and the fleet the throttles are sized for: the stage's settings, as flags. */
    @Test
    void theStagesLimitsAreFlagsWithTheCatalogsDefaults() {
        assertThat(Main.parse(List.of()).options().limits())
                .isEqualTo(new LocalProfile.Limits(16, true, 10_000, 30, 20, true, Lifetimes.defaults()));
        assertThat(Main.parse(List.of("--max-game-servers-per-instance", "4", "--connection-info-check", "off",
                "--expected-game-servers", "200", "--heartbeat-seconds", "10", "--claims-per-second", "50")).options()
                .limits()).isEqualTo(new LocalProfile.Limits(4, false, 200, 10, 50, true, Lifetimes.defaults()));
        assertThatThrownBy(() -> Main.parse(List.of("--connection-info-check", "yes")))
                .hasMessage("--connection-info-check must be on or off, not yes");
        assertThatThrownBy(() -> Main.parse(List.of("--max-game-servers-per-instance", "0")))
                .hasMessageContaining("--max-game-servers-per-instance must be a whole number from 1");
    }

    /** Instance lifetimes to watch on one machine: minutes, where AWS's are days. */
    @Test
    void theLifetimesAreDurationsAndAGuaranteeNotBelowTheMaximumIsRefusedByItsFlag() {
        assertThat(Main.parse(List.of("--max-instance-lifetime", "4m", "--guaranteed-server-lifetime", "2m")).options()
                .limits().lifetime()).isEqualTo(new Lifetimes(Duration.ofMinutes(4), Duration.ofMinutes(2)));
        assertThat(Main.parse(List.of("--max-instance-lifetime", "10d", "--guaranteed-server-lifetime", "90s")).options()
                .limits().lifetime()).isEqualTo(new Lifetimes(Duration.ofDays(10), Duration.ofSeconds(90)));
        assertThat(Main.parse(List.of("--max-instance-lifetime", "0")).options().limits().lifetime().limited()).isFalse();
        assertThatThrownBy(() -> Main.parse(List.of("--max-instance-lifetime", "4m")))
                .hasMessage("--guaranteed-server-lifetime (23 h) must be below --max-instance-lifetime (4 min): an instance"
                        + " would be retiring, and take no claim, from its launch");
        assertThatThrownBy(() -> Main.parse(List.of("--max-instance-lifetime", "4m", "--guaranteed-server-lifetime", "4m")))
                .hasMessageStartingWith("--guaranteed-server-lifetime (4 min) must be below --max-instance-lifetime (4 min)");
        assertThatThrownBy(() -> Main.parse(List.of("--max-instance-lifetime", "four minutes")))
                .hasMessage("--max-instance-lifetime takes a duration such as 30s, 10m, 240h or 10d (0: none), not four"
                        + " minutes");
        assertThatThrownBy(() -> Main.parse(List.of("--guaranteed-server-lifetime", "-2m")))
                .hasMessageContaining("--guaranteed-server-lifetime takes a duration");
    }

    @Test
    void moreServersPerInstanceThanTheStageAllowsAreRefusedAtStart() {
        assertThatThrownBy(() -> Main.parse(List.of("--game-server", "/bin/true", "--servers-per-instance", "17")))
                .hasMessage("--servers-per-instance 17 is more than --max-game-servers-per-instance 16, the most game"
                        + " servers one instance may have registered: the processes past it would be refused"
                        + " LimitExceededException; run fewer, or raise --max-game-servers-per-instance");
        assertThat(Main.parse(List.of("--game-server", "/bin/true", "--servers-per-instance", "17",
                "--max-game-servers-per-instance", "17")).agents().orElseThrow().processes()).isEqualTo(17);
        assertThatThrownBy(() -> Main.parse(List.of("--demo", "--max-game-servers-per-instance", "1")))
                .hasMessageStartingWith("the demo's ");
    }

    @Test
    void aPortInUseNamesThePortAndTheFlag() throws IOException {
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            IOException failure = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () ->
                    new io.gamefleet.local.edge.EdgeServer(new io.gamefleet.local.edge.EdgeServer.Settings("us-east-1", port, "t",
                            false, Optional.empty(), io.gamefleet.local.edge.LogLevel.QUIET, Optional.empty(), false), List.of(), java.time.Clock.systemUTC()));
            assertThat(Main.whyNotStarted(port, new IllegalStateException(failure.getMessage(), failure)))
                    .contains("port " + port + " is in use").contains("--port");
            assertThat(Main.whyNotStarted(port, new IllegalStateException("dynoxide did not start")))
                    .isEqualTo("dynoxide did not start");
        }
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> Main.parse(List.of("--spot-interruption-rate", "c4.large")))
                .hasMessageContaining("TYPE=PER_HOUR");
        assertThatThrownBy(() -> Main.parse(List.of("--spot-interruption-rate", "c4.large=-1")))
                .hasMessageContaining("TYPE=PER_HOUR");
        assertThatThrownBy(() -> Main.parse(List.of("--port", "http"))).hasMessageContaining("--port");
        assertThatThrownBy(() -> Main.parse(List.of("--frobnicate", "1"))).hasMessageContaining("unknown flag");
        assertThatThrownBy(() -> Main.parse(List.of("--dynamodb-endpoint", "nope"))).hasMessageContaining("URL");
    }

    /** The help lists every flag, and docs/local-profile.md's table the same ones, in the same order. */
    @Test
    void theHelpAndTheDocsTableNameTheSameFlags() throws IOException {
        List<String> table = new java.util.ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of("..", "docs", "local-profile.md"))) {
            if (line.equals("## Flags")) {
                inTable = true;
            } else if (inTable && line.startsWith("## ")) {
                break;
            } else if (inTable && line.startsWith("| `--")) {
                table.add(line.substring(3, line.indexOf('`', 3)).split(" ")[0]);
            }
        }
        assertThat(table).hasSizeGreaterThan(20).containsExactlyElementsOf(RunFlags.names());
        String help = RunFlags.help();
        assertThat(RunFlags.names()).allSatisfy(flag -> assertThat(help).contains(flag));
        assertThat(help).contains("--port=N").contains("(default 4590)").contains("--quiet");
    }

    @Test
    void aFlagGivenTwiceCountsItsLastAndTheHelpIsNoLaunch() {
        assertThat(Main.parse(List.of("--port", "1", "--port=2")).options().port()).isEqualTo(2);
        assertThat(RunFlags.parse(List.of("--help"))).isEmpty();
        assertThat(RunFlags.parse(List.of("-h"))).isEmpty();
        assertThatThrownBy(() -> Main.parse(List.of("--port"))).hasMessage("--port needs a value");
        assertThatThrownBy(() -> Main.parse(List.of("--quite"))).hasMessage("unknown flag --quite; did you mean --quiet?");
        assertThatThrownBy(() -> Main.parse(List.of("arena"))).hasMessageStartingWith("unexpected argument arena");
        assertThatThrownBy(() -> Main.parse(List.of("--localstack"))).hasMessageContaining("--dynamodb-endpoint");
    }

    /** One profile per region, the first on --port; us-east-1 alone unless told. */
    @Test
    void theRegionsFlagNamesEachRegionOnceAndItsFirstIsTheOptionsRegion() {
        assertThat(Main.parse(List.of()).regions()).containsExactly("us-east-1");
        assertThat(Main.parse(List.of()).options().region()).isEqualTo("us-east-1");
        Main.Launch two = Main.parse(List.of("--regions", "eu-west-1,ap-southeast-2"));
        assertThat(two.regions()).containsExactly("eu-west-1", "ap-southeast-2");
        assertThat(two.options().region()).isEqualTo("eu-west-1");
        assertThat(two.options().port()).isEqualTo(4590);

        assertThatThrownBy(() -> Main.parse(List.of("--regions", "us-east-1,us-east-1")))
                .hasMessage("--regions names us-east-1 twice");
        assertThatThrownBy(() -> Main.parse(List.of("--regions", "us-east-1,mars-north-1")))
                .hasMessageEndingWith("mars-north-1 is not an AWS region");
        assertThatThrownBy(() -> Main.parse(List.of("--regions", "us-east-1,"))).hasMessageEndingWith("one is empty");
        assertThatThrownBy(() -> Main.parse(List.of("--regions", "aws-global"))).hasMessageContaining("not an AWS region");
        assertThatThrownBy(() -> Main.parse(List.of("--regions", "us-east-1,eu-west-1", "--dynamodb-endpoint",
                "http://127.0.0.1:4566"))).hasMessageContaining("each region's own emulators");
        assertThat(Main.parse(List.of("--regions", "eu-west-1", "--dynamodb-endpoint", "http://127.0.0.1:4566"))
                .options().dynamoDbEndpoint()).isPresent();
        assertThatThrownBy(() -> Main.parse(List.of("--regions", "us-east-1,eu-west-1", "--port", "65535")))
                .hasMessageContaining("leaves no port");
        assertThat(Main.parse(List.of("--regions", "us-east-1,eu-west-1", "--port", "0")).options().port()).isZero();
    }

    @Test
    void theAgentsFlags(@TempDir Path dir) throws IOException {
        assertThat(Main.parse(List.of()).agents()).isEmpty();
        assertThat(Main.parse(List.of("--game-server", "./server {port:game}")).agents().orElseThrow().processes()).isEqualTo(1);
        assertThat(Main.parse(List.of("--game-server", "./server", "--servers-per-instance", "4")).agents().orElseThrow()
                .processes()).isEqualTo(4);
        Path config = Files.writeString(dir.resolve("agent.json"), "{\"command\": \"./server\", \"processes\": 3,"
                + " \"ports\": {\"game\": {\"from\": 7777, \"to\": 7779}}}");
        assertThat(Main.parse(List.of("--agent-config", config.toString())).agents().orElseThrow().processes()).isEqualTo(3);

        assertThatThrownBy(() -> Main.parse(List.of("--game-server", "./server", "--agent-config", config.toString())))
                .hasMessageContaining("exclude each other");
        assertThatThrownBy(() -> Main.parse(List.of("--servers-per-instance", "2"))).hasMessageContaining("--game-server");
        assertThatThrownBy(() -> Main.parse(List.of("--game-server", "./server", "--servers-per-instance", "0")))
                .hasMessageContaining("--servers-per-instance");
        assertThatThrownBy(() -> Main.parse(List.of("--game-server", " "))).hasMessageContaining("needs a command");
        Path noPorts = Files.writeString(dir.resolve("no-ports.json"), "{\"command\": \"./server\"}");
        assertThatThrownBy(() -> Main.parse(List.of("--agent-config", noPorts.toString()))).hasMessageContaining("\"ports\"");
        assertThatThrownBy(() -> Main.parse(List.of("--agent-config", dir.resolve("missing.json").toString())))
                .hasMessageContaining("cannot be read");
    }

    @Test
    void theDemoRunsItsGameServerUnderTheAgentOnTheDemoGroupOnly() {
        var demo = Main.parse(List.of("--demo")).agents().orElseThrow();
        assertThat(demo.onlyGroup()).contains("demo");
        assertThat(demo.processes()).isEqualTo(2);
        assertThat(Main.agentsLine(demo, true)).contains("group demo").contains("io.gamefleet.local.demo.DemoGameServer");
        assertThat(Main.agentsLine(Main.parse(List.of("--game-server", "./server")).agents().orElseThrow(), false))
                .contains("every group").contains("your game server");
        assertThatThrownBy(() -> Main.parse(List.of("--demo", "--game-server", "./server")))
                .hasMessageContaining("one or the other");
    }

    @Test
    void aPrincipalsFileWithAMalformedInstanceIdIsRefused(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("good.json"), "[{\"AccessKeyId\":\"gs\",\"SecretAccessKey\":\"s\","
                + "\"Role\":\"GAME_SERVER\",\"InstanceId\":\"i-0123456789abcdef0\"}]");
        assertThat(Main.parse(List.of("--principals", good.toString())).options().principals())
                .anySatisfy(p -> {
                    assertThat(p.role()).isEqualTo(Role.GAME_SERVER);
                    assertThat(p.instanceId()).isEqualTo(Optional.of("i-0123456789abcdef0"));
                });
        // Taken as it is, such an id would make the principal unbound: free to act for any instance.
        for (String id : List.of("\"not-an-instance\"", "\"i-0123\"", "\"\"", "17", "\"i-0123456789abcdef0 \"")) {
            Path bad = Files.writeString(dir.resolve("bad.json"), "[{\"AccessKeyId\":\"gs\",\"SecretAccessKey\":\"s\","
                    + "\"Role\":\"GAME_SERVER\",\"InstanceId\":" + id + "}]");
            assertThatThrownBy(() -> Main.parse(List.of("--principals", bad.toString())))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("InstanceId must be an EC2 instance id").hasMessageContaining(id);
        }
        Path admin = Files.writeString(dir.resolve("admin.json"), "[{\"AccessKeyId\":\"ops\",\"SecretAccessKey\":\"s\","
                + "\"Role\":\"ADMIN\",\"InstanceId\":\"i-0123456789abcdef0\"}]");
        assertThatThrownBy(() -> Main.parse(List.of("--principals", admin.toString())))
                .hasMessageContaining("only a GAME_SERVER principal may have an InstanceId");
    }
}
