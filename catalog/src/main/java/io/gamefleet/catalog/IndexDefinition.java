package io.gamefleet.catalog;

/** A global secondary index, projecting all attributes. */
public record IndexDefinition(String name, KeyAttribute partitionKey, KeyAttribute sortKey) {}
