package io.gamefleet.agent;

import java.util.List;

/** One GSDK heartbeat, as read from any GSDK's keys: the state, the health (null when left out), the players. */
record Heartbeat(GameState state, Boolean healthy, List<String> players) {}
