package io.gamefleet.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.local.agents.ReadableClasspath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What the classes with real agents on the local profile share: the agent's scripted game servers as
 * child JVMs, one group's servers on one instance, a process's console log, waiting for real processes.
 */
final class AgentsOnProfile {
    /** Real processes and real JVMs on a loaded machine: how long a step may take before it failed. */
    static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LocalProfileExtension local;
    private final String group;

    AgentsOnProfile(LocalProfileExtension local, String group) {
        this.local = local;
        this.group = group;
    }

    /**
     * {@code java ... MAIN ARGS} for a main of the agent's test sources ({@code io.gamefleet.agent.NAME},
     * Jackson and the JDK only), with its test classes before this module's test classpath.
     */
    static List<String> agentTestMain(String name, String... args) {
        // As root, the agents run it as a uid of its own, which cannot read root's local Maven repository.
        String classpath = ReadableClasspath.of(System.getProperty("gamefleet.agent.test-classes") + java.io.File.pathSeparator
                + System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx64m", "-cp", classpath, "io.gamefleet.agent." + name));
        command.addAll(List.of(args));
        return command;
    }

    /** An agent configuration file (docs/agent.md) in {@code folder}, with short timings for tests. */
    static Path agentConfig(Path folder, String json) {
        Path file = folder.resolve("agent-config.json");
        try {
            Files.writeString(file, JSON.readTree(json).toPrettyString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** A server of the group on {@code instance}, registered, AVAILABLE and not claimed. */
    Optional<JsonNode> available(String instance) {
        for (JsonNode s : local.admin().listServers(group, "").ok().body().path("GameServers")) {
            if (s.path("InstanceId").asText().equals(instance) && !"CLAIMED".equals(s.path("ClaimStatus").asText())
                    && "AVAILABLE".equals(s.path("UtilizationStatus").asText())) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The ids of the group's registered servers on {@code instance}. */
    List<String> registered(String instance) {
        List<String> ids = new ArrayList<>();
        for (JsonNode s : local.admin().listServers(group, "").ok().body().path("GameServers")) {
            if (s.path("InstanceId").asText().equals(instance)) {
                ids.add(s.path("GameServerId").asText());
            }
        }
        return ids;
    }

    /** The instance's push connection, once its agent has opened it. */
    Optional<String> pushConnection(String instance) {
        return local.profile().services().groups().describeInstances(group, Optional.of(List.of(instance)), 10,
                Optional.empty()).items().stream().findFirst().map(i -> i.pushConnectionId());
    }

    /** The instance's running processes' folders. */
    private Path servers(String instance) {
        return local.profile().agents().orElseThrow().serversFolder().resolve(instance);
    }

    /** The running process's output (its console log, in its folder in the instance's servers folder). */
    String console(String instance, String gameServerId) {
        Path logs = servers(instance).resolve(gameServerId);
        try (Stream<Path> files = Files.walk(logs)) {
            Path log = files.filter(p -> p.getFileName().toString().equals("PF_ConsoleLogs.txt")).findFirst().orElse(null);
            return log == null ? "" : Files.readString(log);
        } catch (IOException e) {
            return "";
        }
    }

    /** The game server ids whose processes the instance's agent has started (running, or ended and not yet archived). */
    List<String> started(String instance) {
        try (Stream<Path> folders = Files.list(servers(instance))) {
            return folders.map(p -> p.getFileName().toString()).filter(name -> name.startsWith("gs-")).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** An ended server's archived report ({@code agent-report.json}), once the agent has archived it. */
    JsonNode report(Path archive, String instance, String gameServerId) {
        Path report = archive.resolve(group).resolve(instance).resolve(gameServerId).resolve("agent-report.json");
        return await("the archived report of " + gameServerId, () -> {
            try {
                return Files.exists(report) ? JSON.readTree(report.toFile()) : null;
            } catch (IOException e) {
                return null; // being written
            }
        });
    }

    /** Live processes whose command line contains {@code marker} (a test's temporary folder names its processes). */
    static List<ProcessHandle> processes(String marker) {
        return ProcessHandle.allProcesses().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().orElse("").contains(marker)).toList();
    }

    /** The agent's scripted GSDK game server (python3); the calling class is skipped where python3 is not on PATH. */
    static Path scriptedGsdkServer() throws InterruptedException {
        boolean python3;
        try {
            python3 = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (java.io.IOException e) {
            python3 = false;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(python3, "python3 runs the scripted GSDK game server and is not on PATH");
        return Path.of(System.getProperty("gamefleet.agent.test-resources"), "scripted_gsdk_server.py");
    }

    static <T> T await(String what, Supplier<T> found) {
        return GamefleetClient.await(what, PATIENCE, found);
    }
}
