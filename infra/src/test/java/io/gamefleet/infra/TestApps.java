package io.gamefleet.infra;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.StackProps;

/** The stack as {@code cdk synth} builds it: with cdk.json's context (the CDK's feature flags), then the test's. */
final class TestApps {
    private static final Map<String, Object> CDK_JSON_CONTEXT = cdkJsonContext();

    private TestApps() {}

    static GamefleetStack stack(Path temp, Map<String, Object> context, String stackName) {
        Map<String, Object> all = new HashMap<>(CDK_JSON_CONTEXT);
        all.putAll(context);
        all.putIfAbsent(DeploymentContext.LAMBDA_JAR, anyJar(temp).toString());
        all.putIfAbsent(DeploymentContext.AGENT_JAR, agentJar(temp).toString());
        all.putIfAbsent(DeploymentContext.CONSOLE_DIST, consoleDist(temp).toString());
        App app = new App(AppProps.builder().context(all).outdir(temp.resolve("cdk.out-" + all.hashCode()).toString())
                .build());
        return new GamefleetStack(app, stackName, StackProps.builder().build());
    }

    /** Any existing file will do as the code asset: synthesis only hashes and copies it. */
    private static Path anyJar(Path temp) {
        Path jar = temp.resolve("functions-lambda.jar");
        try {
            if (!Files.exists(jar)) {
                Files.write(jar, new byte[] {'P', 'K', 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }

    /** Another empty jar, so that the agent's asset is not the functions' (their hashes differ). */
    static Path agentJar(Path temp) {
        Path jar = temp.resolve("gamefleet-agent.jar");
        try {
            if (!Files.exists(jar)) {
                Files.write(jar, new byte[] {'P', 'K', 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 'a'});
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jar;
    }

    /** The console's files as Vite builds them, as far as synthesis reads them: an index.html, an asset. */
    static Path consoleDist(Path temp) {
        Path dist = temp.resolve("console-dist");
        try {
            if (!Files.exists(dist.resolve("index.html"))) {
                Files.createDirectories(dist.resolve("assets"));
                Files.writeString(dist.resolve("index.html"), "<!doctype html><script type=\"module\" src=\"./assets/index.js\"></script>");
                Files.writeString(dist.resolve("assets/index.js"), "console.log('gamefleet');");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dist;
    }

    private static Map<String, Object> cdkJsonContext() {
        try {
            Map<String, Object> cdkJson = new ObjectMapper().readValue(Path.of("cdk.json").toFile(),
                    new TypeReference<Map<String, Object>>() {});
            @SuppressWarnings("unchecked")
            Map<String, Object> context = (Map<String, Object>) cdkJson.getOrDefault("context", Map.of());
            return Map.copyOf(context);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
