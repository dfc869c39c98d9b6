package io.gamefleet.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.auth.credentials.InstanceProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkSystemSetting;

/**
 * {@code java -cp gamefleet-agent.jar io.gamefleet.agent.AgentHostMain}: many instances' agents in one
 * JVM (the local profile's simulated instances), started and stopped by JSON lines on stdin:
 * <pre>
 * {"start":"i-...","config":"/path/agent.json"}
 * {"stop":"i-..."}
 * </pre>
 * A stop, the end of stdin (whoever started this JVM is gone, however it died) and a SIGTERM stop the
 * agents' processes with the graceful sequence ({@link Agent#shutdown()}): Terminate, then TERM, the
 * grace, KILL of each process group, each deregistered and archived. Each agent signs with its instance profile's
 * keys from its own {@code metadataEndpoint}, through the SDK's instance profile provider, as on EC2.
 * Each agent starts on a thread of its own, so one whose start is retried (its metadata unreadable, its
 * GSDK port busy) holds up no other; a stop ends such a start. A sidecar (mode {@code sidecar}: a
 * simulated ECS task's agent, its task's endpoints in its file) is stopped once its game server is
 * over, as {@link AgentMain} exits then, with the line {@code agent host: the sidecar of <id> is over}.
 */
public final class AgentHostMain {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Each instance's agent as it starts: its thread (interrupted by a stop) and the agent, or null once it failed. */
    private record Starting(Thread thread, CompletableFuture<Agent> agent) {}

    private static final Map<String, Starting> AGENTS = new ConcurrentHashMap<>();

    private AgentHostMain() {}

    public static void main(String[] args) throws Exception {
        // Every agent here names its metadata endpoint, and the SDK's instance profile provider is given it:
        // the profile's AWS_EC2_METADATA_DISABLED (which keeps any default endpoint out of reach) must not
        // turn that provider off.
        System.setProperty(SdkSystemSetting.AWS_EC2_METADATA_DISABLED.property(), "false");
        // A SIGTERM of this JVM stops every agent as the end of stdin does: its processes end with the graceful sequence.
        Runtime.getRuntime().addShutdownHook(new Thread(AgentHostMain::stopAll, "stop-all"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.isBlank()) {
                handle(line);
            }
        }
        System.err.println("agent host: stdin closed: stopping every agent and its processes");
        stopAll();
        System.exit(0);
    }

    /** Stops every agent at once, each on its thread, and waits for them all. */
    private static void stopAll() {
        List<Thread> stopping = AGENTS.keySet().stream().map(AgentHostMain::stopInBackground).toList();
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void handle(String line) {
        JsonNode command;
        try {
            command = JSON.readTree(line);
        } catch (Exception e) {
            System.err.println("agent host: not a JSON command, ignored: " + e.getMessage());
            return;
        }
        if (command.hasNonNull("start")) {
            start(command);
        } else if (command.hasNonNull("stop")) {
            stopInBackground(command.get("stop").asText());
        } else {
            System.err.println("agent host: neither start nor stop, ignored: " + line);
        }
    }

    private static void start(JsonNode command) {
        String instanceId = command.get("start").asText();
        CompletableFuture<Agent> agent = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                AgentConfig config = AgentConfigReader.read(Path.of(command.path("config").asText()));
                if (config.metadataEndpoint() == null) {
                    throw new AgentConfigReader.ConfigException("no metadataEndpoint: the agent takes its instance's keys"
                            + " from it");
                }
                var credentials = InstanceProfileCredentialsProvider.builder()
                        .endpoint(config.metadataEndpoint().toString()).build();
                Agent started = Agent.start(config, credentials);
                agent.complete(started);
                started.gameServerOver().thenRun(() -> {
                    System.err.println("agent host: the sidecar of " + instanceId + " is over (its game server ended): stopping it");
                    stopInBackground(instanceId);
                });
            } catch (AgentConfigReader.ConfigException | Agent.StartFailure e) {
                System.err.println("agent host: the agent of " + instanceId + " cannot start: " + e.getMessage());
            } catch (InterruptedException e) {
                System.err.println("agent host: the agent of " + instanceId + " was stopped while it started");
            } catch (Exception e) {
                System.err.println("agent host: the agent of " + instanceId + " failed to start: " + e);
            } finally {
                if (agent.complete(null)) {
                    AGENTS.values().removeIf(s -> s.agent() == agent); // a later start of that instance tries again
                }
            }
        }, "start-" + instanceId);
        if (AGENTS.putIfAbsent(instanceId, new Starting(thread, agent)) == null) {
            thread.start();
        }
    }

    /** Stops the instance's agent on a thread of its own: its processes' grace does not hold up the others. */
    private static Thread stopInBackground(String instanceId) {
        Starting starting = AGENTS.remove(instanceId);
        Thread t = new Thread(() -> {
            if (starting == null) {
                return;
            }
            if (!starting.agent().isDone()) {
                starting.thread().interrupt(); // a start still trying again gives up
            }
            Agent agent = starting.agent().join();
            if (agent == null) {
                return;
            }
            try {
                agent.shutdown();
            } catch (Exception e) {
                System.err.println("agent host: stopping the agent of " + instanceId + " failed: " + e);
            }
        }, "stop-" + instanceId);
        t.start();
        return t;
    }
}
