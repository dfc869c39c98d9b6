import { describe, expect, it } from "vitest";
import { Series, WINDOW_MS } from "../../src/series";
import { backoffMs, MAX_BACKOFF_MS, REFRESH_MS } from "../../src/live";

describe("Series", () => {
  it("keeps the last hour before the newest point", () => {
    const series = new Series();
    series.add("u", 0, 1);
    series.add("u", WINDOW_MS / 2, 2);
    series.add("u", WINDOW_MS + 1, 3);
    expect(WINDOW_MS).toBe(60 * 60 * 1000);
    expect(series.points("u").map((p) => p.v)).toEqual([2, 3]);
  });

  it("keeps each line apart", () => {
    const series = new Series();
    series.add("c5.large", 0, 1);
    series.add("m5.large", 0, 2);
    expect(series.names()).toEqual(["c5.large", "m5.large"]);
    expect(series.size("c5.large")).toBe(1);
  });

  it("keeps points in time order, one per time: history read after a newer point, and the same run's count twice", () => {
    const series = new Series();
    series.add("u", 3000, 30);
    series.add("u", 1000, 10);
    series.add("u", 2000, 20);
    series.add("u", 3000, 31);
    expect(series.points("u")).toEqual([{ t: 1000, v: 10 }, { t: 2000, v: 20 }, { t: 3000, v: 31 }]);
  });
});

describe("backoffMs", () => {
  it("reads every 2 s, doubles after each 429 in a row, and waits a minute at most", () => {
    expect(backoffMs(0)).toBe(REFRESH_MS);
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([4000, 8000, 16000, 32000]);
    expect(backoffMs(5)).toBe(MAX_BACKOFF_MS);
    expect(backoffMs(50)).toBe(MAX_BACKOFF_MS);
  });
});
