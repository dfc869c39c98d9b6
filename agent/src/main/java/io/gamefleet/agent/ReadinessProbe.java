package io.gamefleet.agent;

/** Wrapper mode: whether a game server with no SDK is ready (it listens on its port, or printed its line). */
interface ReadinessProbe {
    boolean ready(ServerRecord server);
}
