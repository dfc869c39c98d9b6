package io.gamefleet.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gamefleet.domain.GroupLifecycle;
import io.gamefleet.wiring.Services;
import java.util.Map;

/**
 * Both workflows' Catch target ({@code Workflow}: ACTIVATION or DELETION): puts the group in
 * ERROR with a StatusReason made from the failed step's error, if it is still in a status that
 * workflow owns, and answers whether it did ({@code Recorded}). Step Functions passes a Lambda error's whole payload as the Cause
 * ({"errorMessage": ..., "errorType": ...}); the reason is its message.
 */
public final class RecordFailureStep extends StepHandler {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_REASON = 1024;

    public RecordFailureStep() {
        this(Services.shared());
    }

    public RecordFailureStep(Services services) {
        super(services);
    }

    @Override
    protected Map<String, Object> run(GroupLifecycle lifecycle, String group, Map<String, Object> input) {
        GroupLifecycle.Workflow workflow = GroupLifecycle.Workflow.valueOf(String.valueOf(input.get("Workflow")));
        boolean recorded = lifecycle.recordFailure(group, workflow,
                reason(String.valueOf(input.get("Error")), String.valueOf(input.get("Cause"))));
        return Map.of("Recorded", recorded);
    }

    static String reason(String error, String cause) {
        String message = cause;
        try {
            JsonNode payload = JSON.readTree(cause);
            if (payload != null && payload.hasNonNull("errorMessage")) {
                message = payload.get("errorMessage").asText();
            }
        } catch (Exception notJson) {
            // the cause is already plain text
        }
        if (!error.startsWith("io.gamefleet.")) {
            message = "workflow step failed with " + error + ": " + message;
        }
        return message.length() > MAX_REASON ? message.substring(0, MAX_REASON - 1) + "…" : message;
    }
}
