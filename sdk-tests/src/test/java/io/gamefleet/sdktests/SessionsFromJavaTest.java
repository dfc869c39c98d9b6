package io.gamefleet.sdktests;

import static io.gamefleet.sdktests.JavaClients.anInstance;
import static io.gamefleet.sdktests.JavaClients.awaitActive;
import static io.gamefleet.sdktests.JavaClients.createGroup;
import static io.gamefleet.sdktests.JavaClients.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.sdktests.LocalGamefleet.Caller;
import io.gamefleet.sdktests.LocalGamefleet.Profile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.gamelift.GameLiftClient;

/**
 * docs/api.md's Java example of Gamefleet's own routes ({@link GamefleetRoutes}, the page's code
 * as it is there) run against the local profile: the AWS SDK's SigV4 signer for execute-api and
 * its HTTP client, with nothing hand-signed.
 */
@ExtendWith(LocalGamefleet.class)
class SessionsFromJavaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MARKER = "// docs/api.md, \"From Java\"";

    @Test
    void thePagesJavaExampleIsGamefleetRoutesAsItIs() throws IOException {
        Path dir = Profile.moduleDir();
        String source = Files.readString(dir.resolve("src/test/java/io/gamefleet/sdktests/GamefleetRoutes.java"));
        int marker = source.indexOf(MARKER);
        assertThat(marker).as("the marker in GamefleetRoutes.java").isPositive();
        String shown = source.substring(source.indexOf('\n', marker) + 1);
        assertThat(Files.readString(dir.resolve("../docs/api.md"))).contains("```java\n" + shown + "```\n");
    }

    @Test
    void itCreatesDescribesAndListsASessionOnTheLocalProfile(Profile profile) throws IOException {
        String group = uniqueName("java-sessions");
        try (GameLiftClient admin = JavaClients.gameLift(profile, LocalGamefleet.ADMIN)) {
            createGroup(admin, group);
            awaitActive(admin, group);
            String instance = anInstance(admin, group);
            admin.registerGameServer(r -> r.gameServerGroupName(group).gameServerId(group + "-gs")
                    .instanceId(instance).connectionInfo("127.0.0.1:7777"));
        }
        Caller caller = LocalGamefleet.MATCHMAKER;
        String id = UUID.randomUUID().toString();
        try (SdkHttpClient http = UrlConnectionHttpClient.create()) {
            GamefleetRoutes routes = new GamefleetRoutes(profile.endpoint().toString().replaceFirst("/$", ""),
                    LocalGamefleet.REGION, StaticCredentialsProvider.create(
                            AwsBasicCredentials.create(caller.accessKeyId(), caller.secretAccessKey())), http);

            JsonNode created = JSON.readTree(routes.createSession(group,
                    "{\"SessionId\":\"" + id + "\",\"SessionCookie\":\"map=dust2\",\"InitialPlayers\":[\"p1\"]}"))
                    .get("Session");
            assertThat(created.get("State").asText()).isEqualTo("CLAIMED");
            assertThat(created.get("GameServer").get("ConnectionInfo").asText()).isEqualTo("127.0.0.1:7777");

            JsonNode described = JSON.readTree(routes.describeSession(group, id)).get("Session");
            assertThat(described.get("GameServerId").asText()).isEqualTo(group + "-gs");
            JsonNode listed = JSON.readTree(routes.listSessions(group, "?Limit=10"));
            assertThat(listed.get("Sessions")).singleElement().satisfies(s ->
                    assertThat(s.get("SessionId").asText()).isEqualTo(id));

            assertThatThrownBy(() -> routes.describeSession(group, UUID.randomUUID().toString()))
                    .hasMessageContaining(": 404 ").hasMessageContaining("NotFoundException");
        }
    }
}
