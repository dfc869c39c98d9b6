// The charts' data: points the page kept from what it read, over a sliding window.

export const WINDOW_MS = 15 * 60 * 1000;

export interface Point {
  t: number;
  v: number;
}

/** Named lines of points, each kept to the last WINDOW_MS before the newest point. */
export class Series {
  private readonly lines = new Map<string, Point[]>();

  add(name: string, t: number, v: number): void {
    let line = this.lines.get(name);
    if (!line) {
      line = [];
      this.lines.set(name, line);
    }
    line.push({ t, v });
    const from = t - WINDOW_MS;
    let drop = 0;
    while (drop < line.length && line[drop].t < from) drop++;
    if (drop > 0) line.splice(0, drop);
  }

  names(): string[] {
    return [...this.lines.keys()];
  }

  points(name: string): readonly Point[] {
    return this.lines.get(name) ?? [];
  }

  size(name: string): number {
    return this.points(name).length;
  }
}

/**
 * How many claims happened between two reads: the servers whose LastClaimTime is new or changed
 * since the previous read (given as each server's LastClaimTime then). Server clocks are not
 * compared with the browser's.
 */
export function newClaims(previous: ReadonlyMap<string, number>, current: ReadonlyMap<string, number>): number {
  let claims = 0;
  for (const [id, time] of current) {
    if (previous.get(id) !== time) claims++;
  }
  return claims;
}
