package io.gamefleet.catalog;

import java.util.List;
import java.util.Optional;

/**
 * A DynamoDB table: the environment variable that carries its physical name to the functions,
 * its keys, its global secondary indexes and its TTL attribute (if any).
 */
public record TableDefinition(
        String logicalName,
        String environmentVariable,
        KeyAttribute partitionKey,
        Optional<KeyAttribute> sortKey,
        List<IndexDefinition> indexes,
        Optional<String> ttlAttribute) {}
