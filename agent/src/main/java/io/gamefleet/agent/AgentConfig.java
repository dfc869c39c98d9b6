package io.gamefleet.agent;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.gamefleet.catalog.Settings;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The agent's one JSON file (docs/agent.md, "Configuration"). Absent keys take the defaults below;
 * {@link AgentConfigReader} refuses unknown keys and values that cannot work, naming what to fix.
 */
public record AgentConfig(
        String gameServerGroupName,
        String instanceId,
        String region,
        URI apiEndpoint,
        URI pushEndpoint,
        URI metadataEndpoint,
        URI taskMetadataEndpoint,
        String connectionAddress,
        String command,
        List<String> args,
        Map<String, String> env,
        Integer processes,
        Integer maxGameServersPerInstance,
        Map<String, PortRange> ports,
        String connectionPort,
        // "Mode" as the container groups' contract (issue 32) spells it; "mode" as every other key is.
        @JsonAlias("Mode") Mode mode,
        Path gsdkConfigFile,
        Wrapper wrapper,
        Rebalance rebalance,
        Integer gsdkPort,
        Integer qosPort,
        Path workDirectory,
        Path serversDirectory,
        RunAs runAs,
        Integer runAsUidBase,
        Path archiveDirectory,
        String archiveBucket,
        Long archiveMaxBytes,
        String titleId,
        String buildId,
        Map<String, String> buildMetadata,
        Timings timings) {

    /** PlayFab's agent listens on 56001; a GSDK game server finds the port in its config file. */
    public static final int DEFAULT_GSDK_PORT = 56001;
    /** What one game server's archive holds at most: its logs beyond it are cut or left out, as its report says. */
    public static final long DEFAULT_ARCHIVE_MAX_BYTES = 100L * 1024 * 1024;
    /** Slot i runs as uid and gid {@code runAsUidBase + i}: above the system's and people's ids, below nobody's 65534. */
    public static final int DEFAULT_RUN_AS_UID_BASE = 61000;
    /** Where a sidecar writes the GSDK config file: the task volume both containers mount, GSDK_CONFIG_FILE's value. */
    public static final Path DEFAULT_SIDECAR_GSDK_CONFIG_FILE = Path.of("/gamefleet/gsdk.json");

    public AgentConfig {
        args = args == null ? List.of() : List.copyOf(args);
        env = env == null ? Map.of() : Map.copyOf(env);
        processes = processes == null ? 1 : processes;
        maxGameServersPerInstance = maxGameServersPerInstance == null
                ? Integer.valueOf(Settings.MAX_GAME_SERVERS_PER_INSTANCE.defaultValue()) : maxGameServersPerInstance;
        ports = ports == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ports));
        mode = mode == null ? Mode.GSDK : mode;
        gsdkConfigFile = gsdkConfigFile == null && mode == Mode.SIDECAR ? DEFAULT_SIDECAR_GSDK_CONFIG_FILE : gsdkConfigFile;
        wrapper = wrapper == null ? new Wrapper(null, null) : wrapper;
        // A recommendation is a risk, not an end: by default the processes are told, and the instance goes on.
        rebalance = rebalance == null ? Rebalance.NOTIFY : rebalance;
        // 0: any free port (tests); the agent records the one it got in its state file.
        gsdkPort = gsdkPort == null ? DEFAULT_GSDK_PORT : gsdkPort;
        // 0: no QoS beacon.
        qosPort = qosPort == null ? QosBeacon.DEFAULT_PORT : qosPort;
        workDirectory = workDirectory == null ? Path.of("/var/lib/gamefleet-agent") : workDirectory;
        // Not under the work directory: that is the agent's alone (0700), and the processes must reach their folders.
        // A sidecar's game server is in another container: its folders are on the task volume, beside its config file.
        serversDirectory = serversDirectory == null
                ? mode == Mode.SIDECAR && gsdkConfigFile.getParent() != null ? gsdkConfigFile.getParent() : Path.of("/var/lib/gamefleet-servers")
                : serversDirectory;
        // runAs stays null when not given: the agent picks per-server where it may switch users (RunAs).
        runAsUidBase = runAsUidBase == null ? DEFAULT_RUN_AS_UID_BASE : runAsUidBase;
        // One archive: the folder by default, none when the logs go to a bucket (both given is refused).
        archiveDirectory = archiveDirectory == null && archiveBucket == null ? workDirectory.resolve("archive") : archiveDirectory;
        archiveMaxBytes = archiveMaxBytes == null ? DEFAULT_ARCHIVE_MAX_BYTES : archiveMaxBytes;
        titleId = titleId == null ? "" : titleId;
        buildId = buildId == null ? "" : buildId;
        buildMetadata = buildMetadata == null ? Map.of() : Map.copyOf(buildMetadata);
        timings = timings == null ? Timings.DEFAULTS : timings;
    }

    /** How the agent learns that a process is ready and alive. */
    public enum Mode {
        /** The game server speaks PlayFab's GSDK protocol to the agent. */
        @JsonProperty("gsdk") GSDK,
        /** A game server with no SDK: ready when it listens or prints a line, healthy while it runs. */
        @JsonProperty("wrapper") WRAPPER,
        /**
         * An ECS task's sidecar: the one game server speaks the GSDK from another container of the task,
         * which the agent does not start; the agent ends with it (docs/agent.md, "As an ECS sidecar").
         */
        @JsonProperty("sidecar") SIDECAR;

        /** The game server reports its state in GSDK heartbeats, and is answered with the operations. */
        boolean speaksGsdk() {
            return this != WRAPPER;
        }
    }

    /** What an EC2 rebalance recommendation does, beyond telling every process (its maintenance fields). */
    public enum Rebalance {
        /** Only that: the instance goes on taking claims (an interruption warning, if one follows, ends it). */
        @JsonProperty("notify") NOTIFY,
        /** The graceful end without a deadline: no new process, the StandingBy servers deregistered, the matches played out. */
        @JsonProperty("drain") DRAIN
    }

    /** Which user the game server processes run as. */
    public enum RunAs {
        /** Slot i as uid and gid {@code runAsUidBase + i}, no supplementary groups, no capabilities. */
        @JsonProperty("per-server") PER_SERVER,
        /** The agent's own user: the processes are not isolated from each other. */
        @JsonProperty("agent") AGENT
    }

    /** One named game port: process {@code i} of N gets {@code from + i}. */
    public record PortRange(int from, int to) {
        int size() {
            return to - from + 1;
        }
    }

    /** Wrapper mode's readiness: a TCP listener on the named port, or a line of output matching a regex. */
    public record Wrapper(String readyPort, String readyLine) {}

    /** Every period of the supervision, in seconds (fractions allowed). */
    public record Timings(
            Double startTimeoutSeconds,
            Double heartbeatTimeoutSeconds,
            Double healthPeriodSeconds,
            Double terminateNoticeSeconds,
            Double stopGraceSeconds,
            Double crashBackoffInitialSeconds,
            Double crashBackoffMaxSeconds,
            Double apiRetryInitialSeconds,
            Double apiRetryMaxSeconds,
            Double metadataPollSeconds,
            Double pushPingSeconds,
            Double claimTtlSeconds,
            Double shutdownBudgetSeconds,
            Double archiveReserveSeconds,
            Double standingByHeartbeatSeconds) {

        static final Timings DEFAULTS = new Timings(null, null, null, null, null, null, null, null, null, null, null, null,
                null, null, null);

        public Timings {
            // PlayFab shuts down a server that does not reach StandingBy in time; GameLift's agent allows 5 min.
            startTimeoutSeconds = or(startTimeoutSeconds, 300);
            heartbeatTimeoutSeconds = or(heartbeatTimeoutSeconds, 10);
            // Gamefleet's health timeout is 180 s: three reports in it.
            healthPeriodSeconds = or(healthPeriodSeconds, 60);
            terminateNoticeSeconds = or(terminateNoticeSeconds, 10);
            stopGraceSeconds = or(stopGraceSeconds, 10);
            crashBackoffInitialSeconds = or(crashBackoffInitialSeconds, 1);
            crashBackoffMaxSeconds = or(crashBackoffMaxSeconds, 60);
            apiRetryInitialSeconds = or(apiRetryInitialSeconds, 1);
            apiRetryMaxSeconds = or(apiRetryMaxSeconds, 30);
            // AWS advises polling spot/instance-action every 5 s.
            metadataPollSeconds = or(metadataPollSeconds, 5);
            // A pong is expected within two pings: a half-open connection is found within a minute, one health
            // period, well inside a health lease's last 5 minutes (docs/agent.md, "Push channel").
            pushPingSeconds = or(pushPingSeconds, io.gamefleet.catalog.PushChannel.PING_SECONDS);
            // The stage's claim TTL (FleetIQ's 60 s): DescribeGameServer gives a claim's LastClaimTime, not its end.
            claimTtlSeconds = or(claimTtlSeconds, 60);
            // Below the unit's TimeoutStopSec (120 s), after which systemd KILLs the agent.
            shutdownBudgetSeconds = or(shutdownBudgetSeconds, 90);
            // Within a Spot interruption's 2 minutes, after the matches' Terminate, TERM and KILL (10 + 10 s).
            archiveReserveSeconds = or(archiveReserveSeconds, 30);
            // The heartbeat interval answered to a StandingBy process (1 s otherwise, as PlayFab's agent answers):
            // a claim waits for its next heartbeat, so this bounds claim to Active for the GSDKs that follow it.
            standingByHeartbeatSeconds = or(standingByHeartbeatSeconds, 0.1);
        }

        /** Every timing by its key, in the record's order (the configuration check goes through them all). */
        Map<String, Double> byKey() {
            Map<String, Double> keys = new LinkedHashMap<>();
            keys.put("startTimeoutSeconds", startTimeoutSeconds);
            keys.put("heartbeatTimeoutSeconds", heartbeatTimeoutSeconds);
            keys.put("healthPeriodSeconds", healthPeriodSeconds);
            keys.put("terminateNoticeSeconds", terminateNoticeSeconds);
            keys.put("stopGraceSeconds", stopGraceSeconds);
            keys.put("crashBackoffInitialSeconds", crashBackoffInitialSeconds);
            keys.put("crashBackoffMaxSeconds", crashBackoffMaxSeconds);
            keys.put("apiRetryInitialSeconds", apiRetryInitialSeconds);
            keys.put("apiRetryMaxSeconds", apiRetryMaxSeconds);
            keys.put("metadataPollSeconds", metadataPollSeconds);
            keys.put("pushPingSeconds", pushPingSeconds);
            keys.put("claimTtlSeconds", claimTtlSeconds);
            keys.put("shutdownBudgetSeconds", shutdownBudgetSeconds);
            keys.put("archiveReserveSeconds", archiveReserveSeconds);
            keys.put("standingByHeartbeatSeconds", standingByHeartbeatSeconds);
            return keys;
        }

        private static Double or(Double value, double fallback) {
            return value == null ? fallback : value;
        }

        static java.time.Duration duration(double seconds) {
            return java.time.Duration.ofMillis(Math.round(seconds * 1000));
        }

        java.time.Duration startTimeout() { return duration(startTimeoutSeconds); }
        java.time.Duration heartbeatTimeout() { return duration(heartbeatTimeoutSeconds); }
        java.time.Duration healthPeriod() { return duration(healthPeriodSeconds); }
        java.time.Duration terminateNotice() { return duration(terminateNoticeSeconds); }
        java.time.Duration stopGrace() { return duration(stopGraceSeconds); }
        java.time.Duration crashBackoffInitial() { return duration(crashBackoffInitialSeconds); }
        java.time.Duration crashBackoffMax() { return duration(crashBackoffMaxSeconds); }
        java.time.Duration apiRetryInitial() { return duration(apiRetryInitialSeconds); }
        java.time.Duration apiRetryMax() { return duration(apiRetryMaxSeconds); }
        java.time.Duration metadataPoll() { return duration(metadataPollSeconds); }
        java.time.Duration pushPing() { return duration(pushPingSeconds); }
        java.time.Duration claimTtl() { return duration(claimTtlSeconds); }
        java.time.Duration shutdownBudget() { return duration(shutdownBudgetSeconds); }
        java.time.Duration archiveReserve() { return duration(archiveReserveSeconds); }
        java.time.Duration standingByHeartbeat() { return duration(standingByHeartbeatSeconds); }
    }
}
