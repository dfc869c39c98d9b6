package io.gamefleet.domain;

/** An instance type the group may use, with its weight ("1" to "999", default "1"). */
public record InstanceDefinition(String instanceType, String weightedCapacity) {
    public int weight() {
        return weightedCapacity == null ? 1 : Integer.parseInt(weightedCapacity);
    }
}
