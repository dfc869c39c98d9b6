package io.gamefleet.local.bench;

import io.gamefleet.catalog.LocalAccount;
import io.gamefleet.catalog.PushChannel;
import io.gamefleet.domain.Caller;
import io.gamefleet.domain.GameServerService.Claim;
import io.gamefleet.domain.GameServerService.Registration;
import io.gamefleet.local.LocalProfile;
import io.gamefleet.local.demo.ApiClient;
import io.gamefleet.local.edge.Principals;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * What a claim's notice adds to the claim: claims of servers on an instance whose agent is
 * connected (each posts its notice through PostToConnection to the edge, which sends it down the
 * WebSocket) against claims on an instance with no agent (no notice), alternating, on one thread;
 * the DynamoDB calls per claim of each; and the time from the claim's start to the notice's
 * arrival at the agent. Run: {@code NoticeBenchmark [claims per kind, default 1000]}.
 */
public final class NoticeBenchmark {
    private NoticeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int claims = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Benchmarks.DynamoDbCalls calls = new Benchmarks.DynamoDbCalls();
        try (LocalProfile profile = Benchmarks.start(calls)) {
            Benchmarks.createActive(profile, "quiet", 1, 1, List.of("c5.large", "m5.large"));
            Benchmarks.createActive(profile, "pushed", 1, 1, List.of("c5.large", "m5.large"));
            String quiet = profile.fleet().instancesOf("quiet").get(0).instanceId();
            String pushed = profile.fleet().instancesOf("pushed").get(0).instanceId();
            LinkedBlockingQueue<String> notices = new LinkedBlockingQueue<>();
            WebSocket agent = connect(profile.endpoint(), "pushed", pushed, notices);
            int warmUp = 200;
            for (int i = 0; i < claims + warmUp; i++) {
                register(profile, "quiet", "q-" + i, quiet);
                register(profile, "pushed", "p-" + i, pushed);
            }
            Benchmarks.Latencies withNotice = new Benchmarks.Latencies();
            Benchmarks.Latencies without = new Benchmarks.Latencies();
            Benchmarks.Latencies delivered = new Benchmarks.Latencies();
            long[] dynamoCalls = new long[2];
            for (int i = 0; i < claims + warmUp; i++) {
                boolean measured = i >= warmUp;
                calls.reset();
                long start = System.nanoTime();
                claim(profile, "quiet");
                long quietEnd = System.nanoTime();
                long quietCalls = calls.get();
                calls.reset();
                long pushStart = System.nanoTime();
                claim(profile, "pushed");
                long pushEnd = System.nanoTime();
                long pushCalls = calls.get();
                String notice = notices.poll(5, TimeUnit.SECONDS);
                long arrived = System.nanoTime();
                if (notice == null) {
                    throw new IllegalStateException("a claim's notice did not arrive within 5 s");
                }
                if (measured) {
                    without.add(quietEnd - start);
                    withNotice.add(pushEnd - pushStart);
                    delivered.add(arrived - pushStart);
                    dynamoCalls[0] += quietCalls;
                    dynamoCalls[1] += pushCalls;
                }
            }
            agent.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(5, TimeUnit.SECONDS);
            System.out.printf("claims of each kind: %d (after %d warm-up), one thread, in-process, dynoxide%n", claims,
                    warmUp);
            System.out.printf("%-40s %8s %8s %8s %18s%n", "", "p50 ms", "p99 ms", "max ms", "DynamoDB calls/claim");
            row("claim, no agent connected (no notice)", without, dynamoCalls[0] / (double) claims);
            row("claim with its notice posted", withNotice, dynamoCalls[1] / (double) claims);
            row("claim start to notice at the agent", delivered, Double.NaN);
            System.out.printf("the notice adds %.2f ms at p50 and %.2f ms at p99 to the claim%n",
                    withNotice.percentile(0.5) - without.percentile(0.5),
                    withNotice.percentile(0.99) - without.percentile(0.99));
        }
    }

    private static void row(String what, Benchmarks.Latencies l, double callsPerClaim) {
        System.out.printf("%-40s %8.2f %8.2f %8.2f %18s%n", what, l.percentile(0.5), l.percentile(0.99), l.percentile(1),
                Double.isNaN(callsPerClaim) ? "" : String.format("%.2f", callsPerClaim));
    }

    private static void register(LocalProfile profile, String group, String id, String instance) {
        profile.services().gameServers().register(new Registration(group, id, instance, Optional.of("127.0.0.1:7777"),
                Optional.empty()), Caller.ADMINISTRATOR);
    }

    private static void claim(LocalProfile profile, String group) {
        Benchmarks.DynamoDbCalls.as("claim");
        profile.services().gameServers().claim(new Claim(group, Optional.empty(), Optional.empty(), Optional.empty()));
    }

    /** The agent's end: the JDK's WebSocket client, the upgrade signed as the built-in admin. */
    private static WebSocket connect(URI endpoint, String group, String instance, LinkedBlockingQueue<String> notices)
            throws Exception {
        String target = PushChannel.LOCAL_PATH + "?" + PushChannel.GROUP_NAME_PARAMETER + "=" + group + "&"
                + PushChannel.INSTANCE_ID_PARAMETER + "=" + instance;
        var admin = Principals.builtInAdmin();
        WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
        ApiClient.signedHeaders(endpoint, LocalAccount.REGION,
                AwsCredentialsIdentity.create(admin.accessKeyId(), admin.secretAccessKey()), Clock.systemUTC(), "GET",
                target, false, new byte[0]).forEach((name, values) -> {
                    if (!name.equalsIgnoreCase("host")) {
                        values.forEach(v -> builder.header(name, v));
                    }
                });
        return builder.buildAsync(URI.create("ws://" + endpoint.getAuthority() + target), new WebSocket.Listener() {
            private final StringBuilder text = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                text.append(data);
                if (last) {
                    notices.add(text.toString());
                    text.setLength(0);
                }
                webSocket.request(1);
                return null;
            }
        }).get(10, TimeUnit.SECONDS);
    }
}
