package io.gamefleet.api;

import static io.gamefleet.json.Json.NODES;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gamefleet.domain.GameServer;
import io.gamefleet.domain.GameServerGroup;
import io.gamefleet.domain.GameServerInstance;
import io.gamefleet.domain.GameServerProcess;
import io.gamefleet.domain.InstanceDefinition;
import io.gamefleet.domain.Page;
import io.gamefleet.domain.ProcessReport;
import io.gamefleet.domain.Session;
import io.gamefleet.domain.SessionService;
import io.gamefleet.domain.StandbyPolicy;
import io.gamefleet.domain.StandbyService;
import io.gamefleet.wiring.Services;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The FleetIQ output shapes, as trees that {@link io.gamefleet.json.Json} writes. Absent members
 * are omitted, never null; timestamps are epoch seconds with a millisecond fraction, as in the AWS
 * JSON protocol.
 */
final class Outputs {
    private Outputs() {}

    static ObjectNode group(GameServerGroup g) {
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", g.name());
        n.put("GameServerGroupArn", g.arn());
        putIfPresent(n, "RoleArn", g.roleArn()); // a container group has none
        ArrayNode definitions = n.putArray("InstanceDefinitions");
        for (InstanceDefinition d : g.instanceDefinitions()) {
            ObjectNode def = definitions.addObject().put("InstanceType", d.instanceType());
            if (d.weightedCapacity() != null) {
                def.put("WeightedCapacity", d.weightedCapacity());
            }
        }
        n.put("BalancingStrategy", g.balancingStrategy().name());
        n.put("GameServerProtectionPolicy", g.protectionPolicy().name());
        putIfPresent(n, "AutoScalingGroupArn", g.autoScalingGroupArn());
        n.put("Status", g.status().name());
        putIfPresent(n, "StatusReason", g.statusReason());
        ArrayNode suspended = n.putArray("SuspendedActions");
        g.suspendedActions().stream().map(Enum::name).sorted().forEach(suspended::add);
        time(n, "CreationTime", g.creationTime());
        time(n, "LastUpdatedTime", g.lastUpdatedTime());
        return n;
    }

    static ObjectNode server(GameServer s, String groupArn, Instant now) {
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", s.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("GameServerId", s.gameServerId());
        n.put("InstanceId", s.instanceId());
        putIfPresent(n, "ConnectionInfo", s.connectionInfo());
        putIfPresent(n, "GameServerData", s.gameServerData());
        if (s.isClaimedAt(now)) {
            n.put("ClaimStatus", "CLAIMED");
        }
        n.put("UtilizationStatus", s.utilizationStatus().name());
        time(n, "RegistrationTime", s.registrationTime());
        time(n, "LastClaimTime", s.lastClaimTime());
        time(n, "LastHealthCheckTime", s.lastHealthCheckTime());
        n.put("InstanceStatus", s.instanceStatus().name());
        return n;
    }

    static ObjectNode instance(GameServerInstance i, String groupArn) {
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", i.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("InstanceId", i.instanceId());
        n.put("InstanceStatus", i.instanceStatus().name());
        putIfPresent(n, "InstanceType", i.instanceType());
        time(n, "LaunchTime", i.launchTime());
        return n;
    }

    /** A game server's answer: {"GameServer": {...}}, claimed or not as of now. */
    static JsonNode serverResponse(Services services, GameServer server) {
        return wrap("GameServer", server(server,
                services.settings().groupArn(server.gameServerGroupName()), services.clock().instant()));
    }

    /**
     * Gamefleet's own shape of a game server's process, in FleetIQ's style: {"GameServerProcess":
     * {...}}, the process's members absent when its agent reported none.
     */
    static JsonNode processResponse(Services services, GameServerProcess p) {
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", p.gameServerGroupName());
        n.put("GameServerGroupArn", services.settings().groupArn(p.gameServerGroupName()));
        n.put("GameServerId", p.gameServerId());
        n.put("InstanceId", p.instanceId());
        ProcessReport r = p.process();
        if (r != null) {
            if (r.state() != null) {
                n.put("State", r.state().name());
            }
            n.put("ConnectedPlayers", r.connectedPlayers());
            ArrayNode players = n.putArray("PlayerIds");
            r.playerIds().forEach(players::add);
            n.put("Crashes", r.crashes());
            n.put("StartTimeouts", r.startTimeouts());
            if (r.lastExitCode() != null) {
                n.put("LastExitCode", r.lastExitCode());
            }
            ports(n, r.ports());
            time(n, "ReportTime", p.reportedAt());
        }
        return wrap("GameServerProcess", n);
    }

    /**
     * Gamefleet's own shape of a session, in FleetIQ's style: {"Session": {...}}, its server's
     * FleetIQ shape while the server is the session's, the named ports its agent reported of its
     * process, and the players its agent last reported on it.
     */
    static JsonNode sessionResponse(Services services, SessionService.SessionView view) {
        return wrap("Session", session(services, view));
    }

    /** A session as {@link #sessionResponse} holds it, and ListSessions lists it. */
    static ObjectNode session(Services services, SessionService.SessionView view) {
        Session s = view.session();
        String groupArn = services.settings().groupArn(s.gameServerGroupName());
        ObjectNode n = NODES.objectNode();
        n.put("SessionId", s.sessionId());
        n.put("GameServerGroupName", s.gameServerGroupName());
        n.put("GameServerGroupArn", groupArn);
        n.put("Region", services.settings().region());
        n.put("State", view.state().name());
        putIfPresent(n, "SessionCookie", s.request().sessionCookie());
        ArrayNode initial = n.putArray("InitialPlayers");
        s.request().initialPlayers().forEach(initial::add);
        n.put("GameServerId", s.gameServerId());
        view.server().ifPresent(server -> n.put("InstanceId", server.instanceId()));
        time(n, "CreationTime", s.claimTime());
        time(n, "ClaimExpirationTime", s.claimExpiresAt());
        view.server().ifPresent(server -> n.set("GameServer", server(server, groupArn, services.clock().instant())));
        view.server().map(GameServer::process).ifPresent(p -> ports(n, p.ports()));
        view.process().ifPresent(p -> {
            n.put("ConnectedPlayers", p.connectedPlayers());
            ArrayNode players = n.putArray("PlayerIds");
            p.playerIds().forEach(players::add);
        });
        return n;
    }

    /** A process's named ports as {"Ports": {name: port}}, absent when its agent named none. */
    private static void ports(ObjectNode n, Map<String, Integer> ports) {
        if (!ports.isEmpty()) {
            ObjectNode named = n.putObject("Ports");
            ports.forEach(named::put);
        }
    }

    /**
     * What DescribeGameServerSession answers: what the claimed notice hands the game of its
     * session (its id, cookie when it has one, initial players), and no more.
     */
    static JsonNode serverSessionResponse(Session s) {
        ObjectNode n = NODES.objectNode();
        n.put("SessionId", s.sessionId());
        putIfPresent(n, "SessionCookie", s.request().sessionCookie());
        ArrayNode initial = n.putArray("InitialPlayers");
        s.request().initialPlayers().forEach(initial::add);
        return wrap("Session", n);
    }

    /** A standby policy as PutStandbyPolicy takes it, with its group and its last evaluation. */
    static JsonNode standbyResponse(Services services, StandbyService.StandbyView view) {
        StandbyPolicy p = view.policy();
        ObjectNode n = NODES.objectNode();
        n.put("GameServerGroupName", view.gameServerGroupName());
        n.put("GameServerGroupArn", services.settings().groupArn(view.gameServerGroupName()));
        buffer(n, p.buffer());
        ArrayNode tiers = n.putArray("Dynamic");
        p.dynamic().forEach(t -> tiers.addObject().put("BelowPercent", t.belowPercent()).put("Multiplier", t.multiplier()));
        n.put("RampDownSeconds", p.rampDown().toSeconds());
        ArrayNode schedule = n.putArray("Schedule");
        p.schedule().forEach(w -> {
            ObjectNode window = schedule.addObject();
            time(window, "Start", w.start());
            time(window, "End", w.end());
            buffer(window, w.buffer());
        });
        n.put("ScaleInCooldownSeconds", p.scaleInCooldown().toSeconds());
        view.lastEvaluation().ifPresent(e -> {
            ObjectNode last = n.putObject("LastEvaluation");
            time(last, "EvaluationTime", e.at());
            last.put("TargetStandingBy", e.target());
            last.put("StandingBy", e.standingBy());
            last.put("InUse", e.inUse());
            last.put("ServersPerInstance", e.serversPerInstance());
            last.put("DesiredCapacity", e.desiredCapacity());
            last.put("Multiplier", e.multiplier());
        });
        return wrap("StandbyPolicy", n);
    }

    private static void buffer(ObjectNode n, StandbyPolicy.Buffer b) {
        if (b.percent()) {
            n.put("StandingBy", b.value() + "%");
        } else {
            n.put("StandingBy", b.value());
        }
    }

    static ObjectNode wrap(String member, ObjectNode value) {
        ObjectNode n = NODES.objectNode();
        n.set(member, value);
        return n;
    }

    static <T> ObjectNode page(String member, Page<T> page, Function<T, ObjectNode> encode) {
        ObjectNode n = NODES.objectNode();
        ArrayNode items = n.putArray(member);
        List<T> list = page.items();
        list.forEach(item -> items.add(encode.apply(item)));
        page.cursor().ifPresent(token -> n.put("NextToken", token));
        return n;
    }

    private static void putIfPresent(ObjectNode n, String member, String value) {
        if (value != null) {
            n.put(member, value);
        }
    }

    private static void time(ObjectNode n, String member, Instant t) {
        if (t != null) {
            n.put(member, BigDecimal.valueOf(t.toEpochMilli(), 3));
        }
    }
}
