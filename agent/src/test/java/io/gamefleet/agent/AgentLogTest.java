package io.gamefleet.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;

/**
 * What a process (or a notice) puts in the agent's log cannot make a line of its own: a GSDK flavor
 * with a line break, ANSI escapes and a Unicode line separator, sent over HTTP as a process would,
 * stays on its event's one line; a claim notice the agent cannot read leaves its length and its first
 * characters in the log, never the claim's data.
 */
class AgentLogTest {
    @TempDir Path work;

    @Test
    void aProcessCannotForgeALineOfTheAgentsLog() throws Exception {
        AgentFixture agent = new AgentFixture(work);
        agent.tick();
        ServerRecord s = agent.server(0);
        GsdkEndpoint endpoint = new GsdkEndpoint(agent.supervisor.sessions(), 0, SocketOwners.PROC_NET);
        int port = endpoint.start();
        try {
            String forged = "Java\\n2026-12-01T10:00:00Z INFO gs-0000000000000000: claimed\\r\\u001b[2K\\u001b[31mred"
                    + "\\u2028\\u202eevil\\u0085\\u007f\\t";
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + port + "/v1/metrics/" + s.sessionHostId + "/gsdkinfo")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"Flavor\": \"" + forged + "\", \"Version\": \"1\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
        } finally {
            endpoint.stop();
        }
        String line = agent.log.stream().filter(l -> l.contains(": GSDK ")).findFirst().orElseThrow();
        assertThat(line).isEqualTo("2026-12-01T10:00:00Z INFO " + s.gameServerId + ": GSDK Java\\n2026-12-01T10:00:00Z"
                + " INFO gs-0000000000000000: claimed\\r\\u001b[2K\\u001b[31mred\\u2028\\u202eevil\\u0085\\u007f\\t 1");
        assertThat(line.chars().filter(c -> c < 0x20 || c >= 0x7f && c <= 0x9f)).isEmpty();
    }

    @Test
    void aLongValueIsCutAndSaidSo() {
        assertThat(AgentLog.printable("x".repeat(AgentLog.MAX_MESSAGE + 5)))
                .isEqualTo("x".repeat(AgentLog.MAX_MESSAGE) + "... (5 more characters)");
        assertThat(AgentLog.printable("plain text: ünïcode, €, 日本")).isEqualTo("plain text: ünïcode, €, 日本");
    }

    @Test
    void anUnreadableClaimNoticeLeavesNoClaimDataInTheLog() throws Exception {
        AgentFixture agent = new AgentFixture(work, "{\"processes\": 1}");
        agent.tick();
        ServerRecord s = agent.standingBy(0);
        PushConnection push = agent.pushConnection(URI.create("ws://127.0.0.1:1/push"), AnonymousCredentialsProvider.create(),
                Executors.newSingleThreadScheduledExecutor(), Duration.ofMinutes(5));
        String notice = "{\"action\":\"claimed\",\"gameServerGroupName\":\"g\",\"gameServerId\":\"" + s.gameServerId
                + "\",\"gameServerData\":\"player-token=SECRET-TICKET\",\"claimedAt\":\"not a time\"}";

        push.receive(notice);

        String line = agent.log.stream().filter(l -> l.contains("unreadable notice")).findFirst().orElseThrow();
        assertThat(line).contains("unreadable notice (" + notice.length() + " characters, starting "
                + notice.substring(0, PushConnection.NOTICE_PREFIX) + "): ").doesNotContain("SECRET-TICKET");
        assertThat(String.join("\n", agent.log)).doesNotContain("SECRET-TICKET");
    }

    @Test
    void eachEscapedRangeIsEscapedToItsEdgesAndNotOneCharacterBeyond() {
        for (char c : new char[] {'\u0000', '\u001f', '\u007f', '\u0080', '\u009f', '\u2028', '\u2029', '\u202a', '\u202e',
                '\u2066', '\u2069'}) {
            assertThat(AgentLog.printable("a" + c + "b")).as("U+%04X", (int) c).isEqualTo(String.format("a\\u%04xb", (int) c));
        }
        String kept = " ~\u00a0\u2027\u202f\u2065\u206a";
        assertThat(AgentLog.printable(kept)).isEqualTo(kept);
    }

    @Test
    void aLineIsTheTimeTheLevelAndTheMessageEvenAShortOne() {
        List<String> lines = new ArrayList<>();
        AgentLog log = new AgentLog(Clock.fixed(Instant.parse("2026-12-01T10:00:00.123456Z"), ZoneOffset.UTC), lines::add);
        log.info("up");
        log.warn("");
        assertThat(lines).containsExactly("2026-12-01T10:00:00.123Z INFO up", "2026-12-01T10:00:00.123Z WARN ");
    }

    @Test
    void theAgentsLogGoesToStandardError() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            AgentLog.stderr(Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC)).info("to the journal");
        } finally {
            System.setErr(stderr);
        }
        assertThat(captured.toString(StandardCharsets.UTF_8)).isEqualTo("2026-12-01T10:00:00Z INFO to the journal" + System.lineSeparator());
    }
}
