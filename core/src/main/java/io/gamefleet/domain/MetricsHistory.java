package io.gamefleet.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The groups' metrics read back ({@link Metrics} writes them): CloudWatch in AWS, the local
 * profile's series of them. Implemented in io.gamefleet.adapters.cloudwatch and by the local profile.
 */
public interface MetricsHistory {

    /** A group's FleetIQ counts at {@code time}: one balancer run's, or the average of a period's runs. */
    record CountsAt(Instant time, double available, double utilized, double percentUtilized) {}

    /**
     * The group's counts from {@code from} to {@code to}, oldest first: in CloudWatch a point per
     * {@code period} (the average of its runs), locally a point per run.
     */
    List<CountsAt> gameServers(String group, Instant from, Instant to, Duration period);
}
