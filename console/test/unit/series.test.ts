import { describe, expect, it } from "vitest";
import { newClaims, Series, WINDOW_MS } from "../../src/series";

describe("Series", () => {
  it("keeps the last 15 minutes before the newest point", () => {
    const series = new Series();
    series.add("u", 0, 1);
    series.add("u", WINDOW_MS / 2, 2);
    series.add("u", WINDOW_MS + 1, 3);
    expect(series.points("u").map((p) => p.v)).toEqual([2, 3]);
  });

  it("keeps each line apart", () => {
    const series = new Series();
    series.add("c5.large", 0, 1);
    series.add("m5.large", 0, 2);
    expect(series.names()).toEqual(["c5.large", "m5.large"]);
    expect(series.size("c5.large")).toBe(1);
  });
});

describe("newClaims", () => {
  it("counts servers whose last claim time is new or changed", () => {
    const before = new Map([["a", 1], ["b", 2]]);
    const after = new Map([["a", 1], ["b", 5], ["c", 7]]);
    expect(newClaims(before, after)).toBe(2);
  });

  it("counts nothing when no claim time moved", () => {
    const same = new Map([["a", 1]]);
    expect(newClaims(same, new Map(same))).toBe(0);
  });
});
