package io.gamefleet.agent;

/** Where the agent's one health report per period goes: the push channel, while it is open. */
interface HealthChannel {
    /** None: every server reports through the API. */
    HealthChannel NONE = text -> false;

    /** Sends the message if the channel is open; false, with nothing sent, if it is not. */
    boolean send(String text);

    /**
     * A registration went through: Gamefleet has recorded the instance, whose channel it refused
     * until then, so a channel waiting to reconnect may connect now.
     */
    default void instanceRecorded() {
    }
}
