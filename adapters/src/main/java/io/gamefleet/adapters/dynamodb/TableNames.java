package io.gamefleet.adapters.dynamodb;

import io.gamefleet.catalog.TableDefinition;
import java.util.Map;

/** Physical table names from the environment (set by the CDK app, or by the local profile). */
public record TableNames(Map<String, String> environment) {
    public String of(TableDefinition table) {
        String name = environment.get(table.environmentVariable());
        return name == null || name.isBlank() ? table.logicalName() : name;
    }
}
