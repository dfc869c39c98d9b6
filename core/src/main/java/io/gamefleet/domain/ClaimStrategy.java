package io.gamefleet.domain;

/**
 * The order in which claims without a GameServerId take a group's servers (a Gamefleet extension
 * of the group, docs/api.md): the order the claim index gives, or the candidates a claimer read
 * regrouped by instance ({@link ClaimPolicy#tryOrder(java.util.List, ClaimStrategy)}).
 */
public enum ClaimStrategy {
    /** FleetIQ's: never-claimed servers, oldest instance first, then lapsed claims. */
    FLEETIQ,
    /** The fullest instance first (the fewest claimable servers among the candidates), so scale-in finds instances empty. */
    PACKED,
    /** The emptiest instance first, one server per instance in turn: games spread over the instances. */
    DISTRIBUTED
}
