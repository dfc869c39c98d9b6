package io.gamefleet.domain;

/** Target tracking on PercentUtilizedGameServers, with an optional instance warm-up in seconds. */
public record AutoScalingPolicy(Integer estimatedInstanceWarmup, double targetValue) {}
