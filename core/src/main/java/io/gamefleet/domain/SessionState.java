package io.gamefleet.domain;

/**
 * Where a session is ({@link Session#stateWith}): CLAIMED while its claim holds and its server is
 * not UTILIZED yet, ACTIVE once the server is UTILIZED under that claim, ENDED once the server is
 * deregistered, was claimed again, or the claim lapsed unused.
 */
public enum SessionState { CLAIMED, ACTIVE, ENDED }
