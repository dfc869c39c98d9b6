package io.gamefleet.agent;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** What the agent answers a GSDK call: a reply, or a refusal that changed nothing. */
sealed interface GsdkAnswer {
    record Reply(ObjectNode body) implements GsdkAnswer {}

    record Refusal(int status, String error, String message) implements GsdkAnswer {}
}
