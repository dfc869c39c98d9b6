package io.gamefleet.local;

import io.gamefleet.local.agents.AgentTemplate;
import io.gamefleet.local.agents.InstanceAgents;
import io.gamefleet.local.demo.DemoGame;
import io.gamefleet.local.demo.DemoGameServer;
import io.gamefleet.local.edge.LogLevel;
import io.gamefleet.local.edge.Principal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/** {@code local/run}: starts the local profile in the foreground until Ctrl-C or SIGTERM. */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws InterruptedException {
        long started = System.nanoTime();
        Launch launch;
        try {
            Optional<Launch> asked = RunFlags.parse(List.of(args));
            if (asked.isEmpty()) {
                System.out.print(RunFlags.help());
                System.exit(0);
                return;
            }
            launch = asked.get();
        } catch (IllegalArgumentException e) {
            System.err.println("local/run: " + e.getMessage());
            System.err.println("local/run: --help lists every flag");
            System.exit(2);
            return;
        }
        LocalProfile.Options options = launch.options();
        Principal admin = options.principals().get(0);
        List<String> regions = launch.regions();
        LocalRegions run;
        try {
            run = LocalRegions.start(options, regions);
            for (LocalProfile profile : run.profiles()) {
                launch.spotInterruptionsPerHour().forEach(profile.fleet()::setInterruptionRate);
            }
        } catch (LocalRegions.NotStarted e) {
            System.err.println("local/run: could not start" + (regions.size() > 1 ? " region " + e.region() : "") + ": "
                    + whyNotStarted(e.port(), e.getCause()));
            System.exit(1);
            return;
        } catch (RuntimeException e) {
            System.err.println("local/run: could not start: " + whyNotStarted(options.port(), e));
            System.exit(1);
            return;
        }
        // The agents and the demo run in the first region: one agent host per run, as ports and uids are the machine's.
        LocalProfile first = run.profiles().get(0);
        Optional<InstanceAgents> agents;
        try {
            agents = launch.agents().map(template -> first.runAgents(template,
                    agentLines(options.log(), System.err::println)));
        } catch (RuntimeException e) {
            System.err.println("local/run: could not start the agents: " + e.getMessage());
            run.close();
            System.exit(1);
            return;
        }
        Optional<DemoGame> demo = Optional.empty();
        if (launch.demo()) {
            demo = Optional.of(DemoGame.calling(first.endpoint(), first.region(), admin, first.fleet(), options.clock(),
                    line -> System.out.println("demo: " + line)));
        }
        // A child process a profile needs ended and cannot be started again without loss.
        for (LocalProfile profile : run.profiles()) {
            profile.failure().thenAccept(reason -> {
                System.err.println("local/run: stopping: " + (regions.size() > 1 ? profile.region() + ": " : "") + reason);
                new Thread(() -> System.exit(1), "local-exit").start();
            });
        }
        Optional<DemoGame> demoToStop = demo;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("Gamefleet local profile stopping");
            demoToStop.ifPresent(DemoGame::close);
            run.close();
            stopped.countDown();
        }));
        long readyMillis = (System.nanoTime() - started) / 1_000_000;
        if (regions.size() == 1) {
            System.out.println("Gamefleet local profile ready in " + readyMillis + " ms");
            System.out.println("  API:         " + first.endpoint());
            System.out.println("  console:     " + first.consoleEndpoint());
        } else {
            System.out.println("Gamefleet local profile ready in " + readyMillis + " ms: " + regions.size()
                    + " regions, peered (GET /regions lists them)");
            for (LocalProfile profile : run.profiles()) {
                System.out.println("  " + String.format("%-13s", profile.region() + ":") + "API " + profile.endpoint()
                        + ", console " + profile.consoleEndpoint());
            }
        }
        System.out.println("  credentials: " + admin.accessKeyId() + " / " + admin.secretAccessKey()
                + (regions.size() == 1 ? " (region " + first.region() + ", SigV4 service execute-api)"
                        : " (in every region; sign for the region you call, SigV4 service execute-api)"));
        System.out.println("  try:         curl --aws-sigv4 \"aws:amz:" + first.region() + ":execute-api\" --user "
                + admin.accessKeyId() + ":" + admin.secretAccessKey() + " " + first.endpoint()
                + (regions.size() == 1 ? "/game-server-groups" : "/regions"));
        System.out.println("  local token: " + first.localToken() + (regions.size() == 1 ? "" : " (every region's)"));
        System.out.println("               (header X-Gamefleet-Local-Token of POST /_local/* and the Lambda Invoke path)");
        if (regions.size() > 1) {
            System.out.println("  outages:     POST /_local/regions/<region>/outage and .../recover, on any region's port");
        }
        for (LocalProfile profile : run.profiles()) {
            String region = regions.size() == 1 ? "" : " of " + profile.region();
            System.out.println("  logs:        " + profile.logsDirectory() + region + " (the emulators' output"
                    + (agents.isPresent() && profile == first ? ", the agents' folders and archive" : "") + "; "
                    + (options.keepTemp() ? "kept" : "removed at exit, unless --keep-temp") + ")");
            System.out.println("  metrics:     " + profile.logsDirectory().resolve("metrics.log")
                    + " (CloudWatch embedded metric format)");
        }
        System.out.println("  log:         " + logLine(options.log()) + " on standard error" + (regions.size() == 1
                ? "" : ", requests after their region") + " (--log " + LogLevel.choices() + ")");
        launch.agents().ifPresent(a -> System.out.println("  agents:      " + agentsLine(a, launch.demo())
                + (regions.size() == 1 ? "" : ", in " + first.region())));
        agents.ifPresent(a -> {
            System.out.println("               the agent jar " + a.jar() + " in one JVM; its lines on standard error (\"agent: \")");
            System.out.println("               running servers' output: " + a.serversFolder()
                    + "/<instanceId>/<gameServerId>/logs/PF_ConsoleLogs.txt");
            System.out.println("               ended servers' logs:     " + a.archive() + "/<group>/<instanceId>/<gameServerId>/");
        });
        System.out.println("  Ctrl-C stops it.");
        demo.ifPresent(DemoGame::runEverySecond);
        stopped.await();
    }

    /** What the agents run, and where. */
    static String agentsLine(AgentTemplate agents, boolean demo) {
        String where = agents.onlyGroup().map(g -> "on every instance of group " + g).orElse("on every instance of every group");
        String what = demo ? "the demo game server (" + DemoGameServer.class.getName() + ", GSDK protocol)" : "your game server";
        return where + ", " + agents.processes() + " process(es) of " + what + " each";
    }

    /** What the log shows, at this level. */
    static String logLine(LogLevel level) {
        return switch (level) {
            case ALL -> "a line per request, the agents' metadata reads and heartbeats too; the functions' logs";
            case REQUESTS -> "a line per request but the agents' metadata reads and heartbeats; the functions' logs";
            case QUIET -> "the functions' logs, no request's line";
            case ERRORS -> "only requests refused or failed, the functions' and agents' warnings and errors";
        };
    }

    /** The agents' lines ({@code agent: <time> <LEVEL> ...}) the level keeps: with errors, not the INFO ones. */
    static Consumer<String> agentLines(LogLevel level, Consumer<String> out) {
        return line -> {
            String[] words = line.split(" ", 4);
            if (words.length < 4 || level.logs(words[2])) {
                out.accept(line);
            }
        };
    }

    /** What a failed start says: a port in use (a BindException, wrapped or not) names the port and --port. */
    static String whyNotStarted(int port, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException) {
                return "port " + port + " is in use (" + e.getMessage() + "); stop what uses it, or pick another"
                        + " with --port N (--port 0: any free port)";
            }
        }
        return e.getMessage();
    }

    /**
     * What the command line asks for: the profiles' options (the first region's), the simulated Spot
     * interruption rates, whether to run the demo game ({@link DemoGame}), the agents, and the regions.
     */
    record Launch(LocalProfile.Options options, Map<String, Double> spotInterruptionsPerHour, boolean demo,
            Optional<AgentTemplate> agents, List<String> regions) {}

    /** The command line's launch ({@code --help} is no launch: {@link #main} prints the help). */
    static Launch parse(List<String> args) {
        return RunFlags.parse(args).orElseThrow(() -> new IllegalArgumentException("--help starts nothing"));
    }
}
