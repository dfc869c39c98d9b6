// The charts' data: points over a sliding window of the last hour, from the group's counts as each
// balancer run gave them (locally the profile's history of them, so a page opened now shows the
// last hour at once) and from what the page read.

export const WINDOW_MS = 60 * 60 * 1000;

export interface Point {
  t: number;
  v: number;
}

/** Named lines of points in time order, one per time, each kept to the last WINDOW_MS before the newest point. */
export class Series {
  private readonly lines = new Map<string, Point[]>();

  /** A point; one at a time the line already has replaces it (two sources of the same run's count). */
  add(name: string, t: number, v: number): void {
    let line = this.lines.get(name);
    if (!line) {
      line = [];
      this.lines.set(name, line);
    }
    let at = line.length;
    while (at > 0 && line[at - 1].t > t) at--;
    if (at > 0 && line[at - 1].t === t) line[at - 1] = { t, v };
    else line.splice(at, 0, { t, v });
    const from = line[line.length - 1].t - WINDOW_MS;
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
