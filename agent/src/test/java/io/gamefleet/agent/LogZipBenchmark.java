package io.gamefleet.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.UUID;

/**
 * What the S3 archive's zip makes of a game server's logs: a synthetic 10-minute game's console log
 * (timestamps, 20 ticks a second of frame statistics, players joining, leaving and acting, now and then
 * a warning with a stack trace; seeded, so every run writes the same bytes) and the demo game server's
 * few lines, each zipped by {@link LogZip} with an {@code agent-report.json}. Prints figures; asserts
 * nothing.
 *
 * <pre>mvn -q -pl agent -am test-compile exec:java -Dexec.mainClass=io.gamefleet.agent.LogZipBenchmark -Dexec.classpathScope=test [-Dexec.args="600"]</pre>
 */
public final class LogZipBenchmark {
    private LogZipBenchmark() {}

    public static void main(String[] args) throws IOException {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        Path work = Files.createTempDirectory("log-zip-benchmark");
        try {
            measure(work.resolve("synthetic"), syntheticGame(seconds), seconds + " s synthetic game");
            measure(work.resolve("demo"), demoGameServer(), "demo game server");
        } finally {
            LogFolderCopy.deleteTree(work);
        }
    }

    private static void measure(Path folder, String consoleLog, String what) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("PF_ConsoleLogs.txt"), consoleLog);
        Files.writeString(folder.resolve(LogArchive.REPORT), """
                {
                  "gameServerId" : "6f1c2a9e-3b7d-4c1e-9a55-0d2f4e8b7c31",
                  "startedAt" : "2026-12-01T10:00:00Z",
                  "endedAt" : "2026-12-01T10:10:00Z",
                  "lastState" : "Active",
                  "stopReason" : "exited",
                  "exitCode" : 0
                }""");
        long raw = Files.size(folder.resolve("PF_ConsoleLogs.txt")) + Files.size(folder.resolve(LogArchive.REPORT));
        Path zip = folder.resolveSibling(folder.getFileName() + S3LogArchive.ZIP);
        long start = System.nanoTime();
        LogZip.write(folder, zip);
        double ms = (System.nanoTime() - start) / 1e6;
        long zipped = Files.size(zip);
        System.out.printf("%-24s %,11d bytes -> %,9d bytes zipped: ratio %5.1f (%.1f%% of the logs), %.0f ms%n",
                what, raw, zipped, (double) raw / zipped, 100.0 * zipped / raw, ms);
    }

    /** About 1.5 KB a second: a server's tick statistics, its players' events, a rare warning. */
    static String syntheticGame(int seconds) {
        Random random = new Random(42);
        StringBuilder log = new StringBuilder();
        Instant start = Instant.parse("2026-12-01T10:00:00Z");
        String[] players = new String[12];
        for (int i = 0; i < players.length; i++) {
            players[i] = UUID.nameUUIDFromBytes(("player" + i).getBytes()).toString();
        }
        String[] actions = {"fired weapon", "picked up item", "entered zone", "used ability", "respawned"};
        for (int tick = 0; tick < seconds * 20; tick++) {
            Instant at = start.plus(Duration.ofMillis(tick * 50L + random.nextInt(5)));
            if (tick % 20 == 0) {
                log.append(at).append(" INFO  [GameLoop] tick ").append(tick).append(" players ").append(players.length)
                        .append(" frame_ms ").append(String.format("%.2f", 8 + random.nextGaussian()))
                        .append(" rtt_ms ").append(30 + random.nextInt(40)).append(" heap_mb ").append(400 + random.nextInt(50))
                        .append('\n');
            }
            if (random.nextInt(4) == 0) {
                String player = players[random.nextInt(players.length)];
                log.append(at).append(" DEBUG [Session] player ").append(player).append(' ')
                        .append(actions[random.nextInt(actions.length)]).append(" at (").append(random.nextInt(2000))
                        .append(", ").append(random.nextInt(2000)).append(", ").append(random.nextInt(200)).append(")\n");
            }
            if (random.nextInt(4000) == 0) {
                log.append(at).append(" WARN  [Net] packet loss from ").append(players[random.nextInt(players.length)])
                        .append(": resending 3 frames\n\tat game.net.Reliable.resend(Reliable.java:212)\n"
                                + "\tat game.net.Channel.flush(Channel.java:88)\n\tat game.loop.GameLoop.tick(GameLoop.java:147)\n");
            }
        }
        return log.toString();
    }

    /** What the local profile's demo game server prints in a match of 2 players. */
    static String demoGameServer() {
        return """
                demo game server 6f1c2a9e-3b7d-4c1e-9a55-0d2f4e8b7c31 on port 30000
                ready for players (StandingBy)
                Active: match demo-match-1
                player-1 joined (1 playing)
                player-2 joined (2 playing)
                player-1 left (1 playing)
                player-2 left (0 playing)
                match over: exiting
                """;
    }
}
