package io.gamefleet.domain;

/**
 * What a game server's item keeps of its process's last report ({@link ProcessReport#summary}):
 * the state (null before the process's first heartbeat) and player count, which the balancer's
 * process gauges count from the items it reads anyway, and the report's digest.
 */
public record ProcessSummary(ProcessState state, int connectedPlayers, String digest) {}
