package io.gamefleet.infra;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Where the functions' shaded jar is: what the app deploys as every function's code. */
final class LambdaJar {
    private LambdaJar() {}

    /** The jar at {@code path}, which must exist; {@code contextKey} names the setting in the message. */
    static Path resolve(String path, String contextKey) {
        Path jar = Path.of(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Lambda jar " + jar + " does not exist: build it with "
                    + "'mvn -pl functions -am install -DskipTests' from the repository root, or pass "
                    + "-c " + contextKey + "=<path>");
        }
        return jar;
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
