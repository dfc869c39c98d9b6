package io.gamefleet.local.edge;

import static org.assertj.core.api.Assertions.assertThat;

import io.gamefleet.catalog.Role;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The console's files and config at /console/: only GET, only files inside the built folder. */
class ConsoleServiceTest {
    private static final Principal ADMIN = new Principal("admin-key", "admin-secret", Role.ADMIN, Optional.empty());

    @TempDir
    Path root;
    private Path dist;

    /** What the service answered. */
    private record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name);
        }
    }

    @BeforeEach
    void build() throws IOException {
        dist = Files.createDirectories(root.resolve("console/dist"));
        Files.writeString(dist.resolve("index.html"), "<!doctype html><title>console</title>");
        Files.createDirectories(dist.resolve("assets"));
        Files.writeString(dist.resolve("assets/index-abc.js"), "console.log(1)");
        Files.writeString(root.resolve("console/secret.txt"), "not served");
    }

    private Answer get(Path folder, String path) throws IOException {
        ConsoleService.Answer answer = new ConsoleService(folder, ADMIN, "run-token", "eu-west-1").answer(path);
        return new Answer(answer.status(), answer.headers(), new String(answer.body(), StandardCharsets.UTF_8));
    }

    @Test
    void servesTheBuiltFilesWithTheirTypes() throws IOException {
        Answer index = get(dist, "/console/");
        assertThat(index.status()).isEqualTo(200);
        assertThat(index.header("Content-Type")).startsWith("text/html");
        assertThat(index.header("Cache-Control")).isEqualTo("no-cache");
        assertThat(index.body()).contains("<title>console</title>");
        Answer script = get(dist, "/console/assets/index-abc.js");
        assertThat(script.header("Content-Type")).startsWith("text/javascript");
        assertThat(script.header("Cache-Control")).contains("immutable");
        assertThat(get(dist, "/console").header("Location")).isEqualTo("/console/");
    }

    @Test
    void everyAnswerKeepsThePageToItsOwnFilesAndOriginAndOutOfOtherPagesFrames() throws IOException {
        for (String path : List.of("/console/", "/console/assets/index-abc.js", "/console/config.json", "/console",
                "/console/no-such-file")) {
            Answer answer = get(dist, path);
            assertThat(answer.header("Content-Security-Policy")).as(path).contains("default-src 'none'",
                    "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'",
                    // its own origin, and the other local edges: the regions it is peered with
                    "connect-src 'self' http://127.0.0.1:* http://localhost:*;").doesNotContain("unsafe");
            assertThat(answer.header("X-Frame-Options")).as(path).isEqualTo("DENY");
            assertThat(answer.header("X-Content-Type-Options")).as(path).isEqualTo("nosniff");
        }
    }

    @Test
    void handsThePageTheLocalAdminsKeysAndTheRunsToken() throws IOException {
        Answer config = get(dist, "/console/config.json");
        assertThat(config.status()).isEqualTo(200);
        assertThat(config.body()).contains("\"accessKeyId\":\"admin-key\"", "\"secretAccessKey\":\"admin-secret\"",
                "\"region\":\"eu-west-1\"", "\"local\":true", "\"localToken\":\"run-token\"");
        assertThat(config.header("Cache-Control")).isEqualTo("no-store");
    }

    @Test
    void servesNothingOutsideTheBuiltFolder() throws IOException {
        for (String path : List.of("/console/../secret.txt", "/console/%2e%2e/secret.txt", "/console/assets/%2E%2E/%2E%2E/secret.txt",
                "/console/nothing.js")) {
            Answer answer = get(dist, path);
            assertThat(answer.status()).as(path).isEqualTo(404);
            assertThat(answer.body()).as(path).contains("NotFoundException").doesNotContain("not served");
        }
    }

    @Test
    void saysHowToBuildAConsoleThatIsNotBuilt() throws IOException {
        Answer answer = get(root.resolve("missing"), "/console/");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body()).contains("the console is not built", "npm run build");
    }
}
