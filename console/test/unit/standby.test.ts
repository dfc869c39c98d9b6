import { describe, expect, it } from "vitest";
import { bufferText, fieldValue, policyBody, policyFields, utc } from "../../src/standby";

const empty = { standingBy: "", tiers: [], rampDownSeconds: "", windows: [], scaleInCooldownSeconds: "" };

describe("fieldValue", () => {
  it("sends a number as a number, a percentage or any other text as typed, and nothing for an empty field", () => {
    expect(fieldValue(" 10 ")).toBe(10);
    expect(fieldValue("1.5")).toBe(1.5);
    expect(fieldValue("-3")).toBe(-3);
    expect(fieldValue("20%")).toBe("20%");
    expect(fieldValue("ten")).toBe("ten");
    expect(fieldValue("2026-12-24T18:00:00Z")).toBe("2026-12-24T18:00:00Z");
    expect(fieldValue("  ")).toBeUndefined();
  });
});

describe("policyBody", () => {
  it("holds every member typed, tiers and windows in order", () => {
    expect(policyBody({
      standingBy: "20%",
      tiers: [{ belowPercent: "50", multiplier: "2" }, { belowPercent: "25", multiplier: "3" }],
      rampDownSeconds: "600",
      windows: [{ start: "2026-12-24T18:00:00Z", end: "1798250400", standingBy: "40" }],
      scaleInCooldownSeconds: "120",
    })).toEqual({
      StandingBy: "20%",
      Dynamic: [{ BelowPercent: 50, Multiplier: 2 }, { BelowPercent: 25, Multiplier: 3 }],
      RampDownSeconds: 600,
      Schedule: [{ Start: "2026-12-24T18:00:00Z", End: 1798250400, StandingBy: 40 }],
      ScaleInCooldownSeconds: 120,
    });
  });

  it("leaves out empty rows and empty optional members, so the API's defaults apply", () => {
    expect(policyBody({ ...empty, standingBy: "5", tiers: [{ belowPercent: "", multiplier: " " }],
      windows: [{ start: "", end: "", standingBy: "" }] })).toEqual({ StandingBy: 5 });
  });

  it("leaves out a row's empty member and keeps the row, so the API names what is missing", () => {
    expect(policyBody({ ...empty, standingBy: "5", windows: [{ start: "0", end: "", standingBy: "1" }] }))
      .toEqual({ StandingBy: 5, Schedule: [{ Start: 0, StandingBy: 1 }] });
    expect(policyBody(empty)).toEqual({});
  });
});

describe("policyFields", () => {
  it("shows the API's answer, times as UTC, and sends it back unchanged", () => {
    const policy = {
      StandingBy: 10,
      Dynamic: [{ BelowPercent: 50, Multiplier: 2 }],
      RampDownSeconds: 1800,
      Schedule: [{ Start: 1798135200, End: 1798164000.5, StandingBy: "30%" }],
      ScaleInCooldownSeconds: 300,
    };
    const fields = policyFields(policy);
    expect(fields.windows).toEqual([{ start: "2026-12-24T18:00:00Z", end: "2026-12-25T02:00:00.500Z", standingBy: "30%" }]);
    expect(policyBody(fields)).toEqual({ ...policy, Schedule: [{ Start: "2026-12-24T18:00:00Z", End: "2026-12-25T02:00:00.500Z", StandingBy: "30%" }] });
  });
});

describe("text", () => {
  it("says what a buffer is", () => {
    expect(bufferText(1)).toBe("1 server");
    expect(bufferText(0)).toBe("0 servers");
    expect(bufferText("20%")).toBe("20% of the group's servers");
    expect(utc(0)).toBe("1970-01-01T00:00:00Z");
  });
});
