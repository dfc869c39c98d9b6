import { describe, expect, it } from "vitest";
import { instanceDefinitions } from "../../src/views/actions";

describe("instanceDefinitions", () => {
  it("sends the types typed, and no member at all for an empty field (a container group has none)", () => {
    expect(instanceDefinitions(" c5.large, m5.large ,")).toEqual({
      InstanceDefinitions: [{ InstanceType: "c5.large" }, { InstanceType: "m5.large" }],
    });
    expect(instanceDefinitions("  ")).toEqual({});
    expect(instanceDefinitions("")).not.toHaveProperty("InstanceDefinitions");
  });
});
