package io.gamefleet.agent;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a restarted agent needs to carry on: each process's pid and start time (to adopt its process
 * group again), its ids, state, claim and registration (and a registration attempted with no answer
 * yet), and the GSDK port its processes beat to.
 * Written atomically whenever one of those changes; the processes, in their own sessions, outlive a
 * SIGKILLed agent and go on beating to the same port once it is back.
 */
final class StateFile {
    static final String NAME = "agent-state.json";
    private static final Pattern SESSION_HOST_ID = Pattern.compile("[0-9a-f]{32}");
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    record Saved(int gsdkPort, List<SavedServer> servers) {}

    /**
     * {@code uid}, {@code processStartTicks}, {@code utilizedAttempted} and {@code utilizedAt} are null
     * (false) in a file of an earlier version: the agent's user, the start instant compared instead.
     * {@code claimSessionId}, {@code claimSessionCookie} and {@code claimInitialPlayers}: the claim's
     * session, when it was one's (null in a file of an earlier version: none).
     */
    record SavedServer(int slot, String gameServerId, String sessionHostId, String folder, String startedAt,
            long pid, String processStart, Long processStartTicks, Integer uid, String state, boolean everReady,
            boolean activeSent, String sessionId, String registration, String claimData, String claimedAt,
            String claimExpiresAt, boolean utilizedAttempted, String utilizedAt, String stopReason,
            boolean stopIsFailure, String endedAt, Integer exitCode, boolean archived, boolean registerAttempted,
            String claimSessionId, String claimSessionCookie, List<String> claimInitialPlayers) {}

    private final Path file;

    StateFile(Path workDirectory) {
        this.file = workDirectory.resolve(NAME);
    }

    Optional<Saved> read() throws IOException {
        return Files.exists(file) ? Optional.of(JSON.readValue(file.toFile(), Saved.class)) : Optional.empty();
    }

    void save(Supervisor supervisor) throws IOException {
        List<SavedServer> servers;
        synchronized (supervisor.lock) {
            servers = supervisor.servers().map(StateFile::saved).toList();
        }
        Path temp = file.resolveSibling(NAME + ".tmp");
        // The agent's alone (0600): it names every process's session host id.
        Files.deleteIfExists(temp);
        Files.setPosixFilePermissions(Files.createFile(temp), ServerFolders.AGENT_ONLY_FILE);
        Files.write(temp, JSON.writeValueAsBytes(new Saved(supervisor.gsdkPort(), servers)));
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static SavedServer saved(ServerRecord s) {
        Notices.Claimed c = s.claim;
        Notices.Session session = c == null ? null : c.session();
        return new SavedServer(s.slot, s.gameServerId, s.sessionHostId, s.folder.toString(), s.startedAt.toString(),
                s.process == null ? -1 : s.process.pid(),
                s.process == null ? null : s.process.startInstant().toString(),
                s.process == null ? null : s.process.startTicks(), s.uid,
                s.state == null ? null : s.state.name(), s.everReady, s.activeSent, s.sessionId, s.registration.name(),
                c == null ? null : c.gameServerData(), c == null ? null : c.claimedAt().toString(),
                c == null ? null : c.claimExpiresAt().toString(), s.utilizedAttempted,
                s.utilizedAt == null ? null : s.utilizedAt.toString(), s.stopReason, s.stopIsFailure,
                s.endedAt == null ? null : s.endedAt.toString(), s.exitCode, s.archived, s.registerAttempted,
                session == null ? null : session.sessionId(), session == null ? null : session.sessionCookie(),
                session == null ? null : session.initialPlayers());
    }

    /**
     * Gives the supervisor the processes of the earlier run: those still running (same pid, start
     * time, session and uid) are adopted; the others ended while the agent was away, and are
     * deregistered and archived. An entry that names a folder, an id or a slot this agent would not
     * have given is refused, logged, and left alone: nothing of it is adopted, archived or removed.
     */
    static void restore(Saved saved, Supervisor supervisor, ProcessLauncher launcher, ServerFolders folders, Clock clock,
            AgentLog log) {
        Instant now = clock.instant();
        Set<Integer> slotsTaken = new HashSet<>();
        for (SavedServer v : saved.servers()) {
            Path folder;
            try {
                folder = folders.ownFolder(v.gameServerId(), v.folder());
                if (v.sessionHostId() == null || !SESSION_HOST_ID.matcher(v.sessionHostId()).matches()) {
                    throw new ServerFolders.NotOurs("its session host id is not one this agent gives (32 hex digits)");
                }
                if (v.slot() < 0 || (v.endedAt() == null && !slotsTaken.add(v.slot()))) {
                    throw new ServerFolders.NotOurs("its slot " + v.slot() + " is not a slot or is another running process's");
                }
                // A uid is killed whole when its process ends: only the slot's own (or none, the agent's user).
                if (v.uid() != null && v.uid() != ServerUsers.AGENT_USER && v.uid() != supervisor.users().uid(v.slot())) {
                    throw new ServerFolders.NotOurs("its uid " + v.uid() + " is not slot " + v.slot() + "'s ("
                            + (supervisor.users().perServer() ? "uid " + supervisor.users().uid(v.slot()) : "the agent's user")
                            + "; was runAs or runAsUidBase changed while it ran?)");
                }
            } catch (ServerFolders.NotOurs e) {
                log.warn("state file: the entry for " + v.gameServerId() + " (pid " + v.pid() + ") is refused and left alone: "
                        + e.getMessage() + "; nothing of it is adopted, archived or removed");
                continue;
            }
            int uid = v.uid() == null ? ServerUsers.AGENT_USER : v.uid();
            ServerRecord s = new ServerRecord(v.slot(), v.gameServerId(), v.sessionHostId(), folder,
                    Instant.parse(v.startedAt()), uid);
            s.state = v.state() == null ? null : GameState.valueOf(v.state());
            s.everReady = v.everReady();
            s.activeSent = v.activeSent();
            s.sessionId = v.sessionId();
            s.registration = ServerRecord.Registration.valueOf(v.registration());
            s.registerAttempted = v.registerAttempted();
            s.utilizedAttempted = v.utilizedAttempted();
            s.utilizedAt = v.utilizedAt() == null ? null : Instant.parse(v.utilizedAt());
            if (v.claimExpiresAt() != null) {
                s.claim = new Notices.Claimed(v.gameServerId(), v.claimData(), Instant.parse(v.claimedAt()),
                        Instant.parse(v.claimExpiresAt()), v.claimSessionId() == null ? null
                                : new Notices.Session(v.claimSessionId(), v.claimSessionCookie(),
                                        v.claimInitialPlayers() == null ? List.of() : v.claimInitialPlayers()));
            }
            s.stopReason = v.stopReason();
            s.stopIsFailure = v.stopIsFailure();
            s.termAt = s.stopReason == null ? null : now;
            s.exitCode = v.exitCode();
            s.archived = v.archived();
            s.endedAt = v.endedAt() == null ? null : Instant.parse(v.endedAt());
            if (s.endedAt == null) {
                Optional<GameProcess> process = v.processStart() == null && v.processStartTicks() == null ? Optional.empty()
                        : launcher.adopt(v.pid(), v.processStartTicks(),
                                v.processStart() == null ? null : Instant.parse(v.processStart()), uid);
                if (process.isPresent() && v.slot() >= supervisor.slots().length) {
                    // The configuration now has fewer processes: this one has no slot to run in.
                    process.get().kill();
                    s.endedAt = now;
                    log.warn(s.gameServerId + ": pid " + v.pid() + " killed: slot " + v.slot() + " is beyond processes");
                } else if (process.isPresent()) {
                    s.process = process.get();
                    // Its heartbeats went unanswered while the agent was away: count from now.
                    s.lastHeartbeat = s.state == null ? null : now;
                    log.info(s.gameServerId + ": adopted pid " + v.pid() + " (" + s.state + ")");
                } else {
                    s.endedAt = now;
                    log.info(s.gameServerId + ": pid " + v.pid() + " ended while the agent was away (or is no longer that process)");
                }
            }
            supervisor.adopt(s);
        }
    }
}
