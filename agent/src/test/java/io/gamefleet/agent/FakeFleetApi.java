package io.gamefleet.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** FleetIQ as far as the agent sees it: the registered servers, and every call in order. */
final class FakeFleetApi implements FleetApi {
    final List<String> calls = new ArrayList<>();
    /** Registered game server id -> "AVAILABLE" or "UTILIZED". */
    final Map<String, String> registered = new LinkedHashMap<>();
    final Map<String, String> connectionInfo = new LinkedHashMap<>();
    volatile boolean down;
    /** Each call goes through, then its answer is lost (a timeout after FleetIQ acted). */
    volatile boolean answersLost;
    /** Registrations refused NotFound (the group or the instance is not there). */
    volatile boolean groupMissing;
    /** Ids another instance registered first: a registration of one is refused (a conflict, not ours). */
    final java.util.Set<String> takenElsewhere = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @Override
    public synchronized void register(String id, String info) {
        reach("register " + id);
        if (groupMissing) {
            throw new NotFound(id);
        }
        if (takenElsewhere.contains(id)) {
            throw new Refused("refused as a conflict: " + id + " is registered on instance i-other, not this instance i-1");
        }
        registered.put(id, "AVAILABLE");
        connectionInfo.put(id, info);
        loseTheAnswer();
    }

    private void loseTheAnswer() {
        if (answersLost) {
            calls.add("(answer lost)");
            throw new Unreachable("read timed out", null);
        }
    }

    @Override
    public synchronized void update(String id, boolean healthy, boolean utilized) {
        reach("update " + id + (healthy ? " HEALTHY" : "") + (utilized ? " UTILIZED" : ""));
        if (!registered.containsKey(id)) {
            throw new NotFound(id);
        }
        if (utilized) {
            registered.put(id, "UTILIZED");
        }
    }

    @Override
    public synchronized void deregister(String id) {
        reach("deregister " + id);
        if (registered.remove(id) == null) {
            throw new NotFound(id);
        }
    }

    /** The servers a matchmaker has claimed, as DescribeGameServer tells them. */
    final Map<String, Claim> claims = new LinkedHashMap<>();

    @Override
    public synchronized java.util.Optional<Claim> claimOf(String id) {
        reach("describe " + id);
        if (!registered.containsKey(id)) {
            throw new NotFound(id);
        }
        return java.util.Optional.ofNullable(claims.get(id));
    }

    /** An operator's deregistration, made outside the agent. */
    synchronized void operatorDeregisters(String id) {
        registered.remove(id);
    }

    private void reach(String call) {
        if (down) {
            calls.add(call + " (unreachable)");
            throw new Unreachable("connection refused", null);
        }
        calls.add(call);
    }

    synchronized long count(String prefix) {
        return calls.stream().filter(c -> c.startsWith(prefix) && !c.endsWith("(unreachable)")).count();
    }
}
