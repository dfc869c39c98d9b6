package io.gamefleet.catalog;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A Step Functions state machine: its ASL file (a classpath resource of the functions jar), the
 * steps whose ARNs it names, the setting that carries its ARN, and the API operation whose
 * function starts it (and alone is given that setting and the right to start it).
 */
public record WorkflowDefinition(String name, String aslResource, List<WorkflowStep> steps,
        Settings.Setting arnSetting, Operation startedBy) {

    public String stateMachineName() {
        return Catalog.FUNCTION_PREFIX + name;
    }

    /** The ASL text as stored, with its ${...} placeholders. */
    public String asl() {
        try (InputStream in = WorkflowDefinition.class.getResourceAsStream("/" + aslResource)) {
            if (in == null) {
                throw new IllegalStateException("missing workflow resource " + aslResource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The ASL with each step's placeholder replaced, as CDK's definitionSubstitutions does. */
    public String aslWith(Map<String, String> substitutions) {
        String asl = asl();
        for (Map.Entry<String, String> e : substitutions.entrySet()) {
            asl = asl.replace("${" + e.getKey() + "}", e.getValue());
        }
        return asl;
    }
}
