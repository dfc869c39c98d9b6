package io.gamefleet.domain;

import java.time.Instant;

/**
 * A game server's process as its agent last reported it, at {@code reportedAt}: what an
 * administrator reads ({@code process} and {@code reportedAt} null when none was reported).
 */
public record GameServerProcess(String gameServerGroupName, String gameServerId, String instanceId,
        ProcessReport process, Instant reportedAt) {}
