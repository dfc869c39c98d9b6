package io.gamefleet.catalog;

/** A key attribute of a table or index: its name and DynamoDB scalar type ("S" or "N"). */
public record KeyAttribute(String name, String type) {
    public static KeyAttribute string(String name) {
        return new KeyAttribute(name, "S");
    }

    public static KeyAttribute number(String name) {
        return new KeyAttribute(name, "N");
    }
}
