package io.gamefleet.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Where the built artifacts are: the functions' shaded jar (every function's code), the agent's
 * (the S3 asset instances install) and the console's files (which a stack with a console serves).
 */
final class LambdaJar {
    private LambdaJar() {}

    /** The Lambda jar at {@code path}, which must exist; {@code contextKey} names the setting in the message. */
    static Path resolve(String path, String contextKey) {
        return resolve(path, contextKey, "Lambda jar", "functions");
    }

    /** The agent's jar at {@code path}, which must exist. */
    static Path resolveAgent(String path, String contextKey) {
        return resolve(path, contextKey, "Agent jar", "agent");
    }

    private static Path resolve(String path, String contextKey, String what, String module) {
        Path jar = Path.of(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(what + " " + jar + " does not exist: build it with "
                    + "'mvn -pl " + module + " -am install -DskipTests' from the repository root, or pass "
                    + "-c " + contextKey + "=<path>");
        }
        return jar;
    }

    /** The console's built files at {@code path}: a folder with an index.html. */
    static Path resolveConsole(String path, String contextKey) {
        Path dist = Path.of(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(dist.resolve("index.html"))) {
            throw new IllegalStateException("Console files " + dist + " have no index.html: build them with "
                    + "'mvn -pl console -am package -DskipTests' (or 'cd console && npm ci && npm run build') from the "
                    + "repository root, or pass -c " + contextKey + "=<folder>");
        }
        return dist;
    }

    /** Vite's output folder (console/vite.config.ts), relative to {@code infra/}. */
    static String defaultConsolePath() {
        return "../console/dist";
    }

    /** The agent's shaded jar (agent/pom.xml's finalName), relative to {@code infra/}. */
    static String defaultAgentPath() {
        return "../agent/target/gamefleet-agent.jar";
    }

    /** Relative to the working directory, which is {@code infra/} when the CDK CLI runs the app. */
    static String defaultPath() {
        return "../functions/target/gamefleet-functions-" + projectVersion() + "-lambda.jar";
    }

    static String projectVersion() {
        try (InputStream in = LambdaJar.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                throw new IllegalStateException("build.properties missing from the infra classpath");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
