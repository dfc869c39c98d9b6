package io.gamefleet.domain;

/**
 * Where claims and deregistrations ask for an early evaluation of their group's standby buffer
 * (between the balancer's runs): an asynchronous invocation of the balancer's function for the
 * group in AWS, a thread of the local profile locally. A request is a hint that may be lost; the
 * balancer's next run evaluates the group anyway.
 */
public interface StandbyEvaluations {

    /** Asks for the group's buffer to be evaluated soon; never fails its caller's request. */
    void requested(String group);

    static StandbyEvaluations none() {
        return group -> { };
    }
}
