// What the balancer did and the Spot interruptions, newest first: locally the profile's timeline
// (/_local/timeline), and everywhere the changes the page saw between two reads of the instances.
import type { Instance } from "../api";
import { clock, el, reconcile, setText } from "../dom";
import type { LocalProfile, TimelineEntry } from "../local";

interface Entry {
  key: string;
  time: number;
  kind: string;
  text: string;
}

const KEEP = 200;

export class Timeline {
  readonly element: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly entries: Entry[] = [];
  private readonly known = new Map<string, Instance>();
  private after = 0;
  private seen = 0;
  private first = true;

  /**
   * `onMetric`: the group's counts from the profile's metrics, at the time of each balancer run, by
   * the entry's name (`GameServers`: FleetIQ's; `Processes`: the agents' processes).
   */
  constructor(
    private readonly local: LocalProfile | null,
    private readonly group: string,
    private readonly onMetric: (name: string, time: number, detail: Record<string, unknown>) => void,
  ) {
    this.list = el("ol", { class: "timeline", id: "timeline" });
    this.element = el("div", {}, el("p", { class: "muted" }, local ? "From the local profile and from what the page saw change." : "From what the page saw change between reads."), this.list);
  }

  /** Locally, the profile's entries since the last read (one call); the group view reads them when it is their turn. */
  async readProfile(): Promise<void> {
    if (!this.local) return;
    for (const e of await this.local.timeline(this.after)) {
      // Two reads can overlap (an action reads again at once): each entry counts once.
      if (e.Sequence <= this.after) continue;
      this.after = e.Sequence;
      const entry = this.fromProfile(e);
      if (entry) this.entries.push(entry);
    }
  }

  /** The changes in the instances read now, with the entries read so far; no call. */
  show(instances: Instance[], now: number): void {
    this.observe(instances, now);
    this.entries.sort((a, b) => b.time - a.time);
    this.entries.splice(KEEP);
    reconcile(this.list, this.entries, (e) => e.key, (e) => el("li", { "data-kind": e.kind }, el("time"), el("span")), (li, e) => {
      setText(li.querySelector("time")!, clock(new Date(e.time)));
      setText(li.querySelector("span")!, e.text);
    });
  }

  /** Instances that joined, changed status or left since the last read. */
  private observe(instances: Instance[], now: number): void {
    const current = new Map(instances.map((i) => [i.InstanceId!, i]));
    if (!this.first) {
      for (const [id, i] of current) {
        const before = this.known.get(id);
        if (!before) this.push(now, "joined", `${id} (${i.InstanceType}) joined as ${i.InstanceStatus}`);
        else if (before.InstanceStatus !== i.InstanceStatus) this.push(now, i.InstanceStatus!, `${id} (${i.InstanceType}) ${before.InstanceStatus} → ${i.InstanceStatus}`);
      }
      for (const [id, i] of this.known) {
        if (!current.has(id)) this.push(now, "left", `${id} (${i.InstanceType}) left the group`);
      }
    }
    for (const id of this.known.keys()) if (!current.has(id)) this.known.delete(id);
    for (const [id, i] of current) this.known.set(id, i);
    this.first = false;
  }

  private push(time: number, kind: string, text: string): void {
    this.entries.push({ key: `page-${++this.seen}`, time, kind, text });
  }

  /** The profile's entries that concern this group's instances, and the balancer runs that did something. */
  private fromProfile(e: TimelineEntry): Entry | null {
    const time = Date.parse(e.Time);
    const key = `profile-${e.Sequence}`;
    if (e.Kind === "Metric") {
      if (e.Detail["GameServerGroupName"] === this.group) this.onMetric(e.Name, time, e.Detail);
      return null;
    }
    if (e.Kind === "Event") {
      const id = String(e.Detail["instance-id"] ?? "");
      if (!this.known.has(id)) return null;
      const state = e.Detail["state"] ? ` (${e.Detail["state"]})` : "";
      return { key, time, kind: "event", text: `${e.Name}${state}: ${id}` };
    }
    const did = Object.entries(e.Detail).filter(([k, v]) => typeof v === "number" && v > 0 && k !== "Groups");
    if (did.length === 0) return null;
    return { key, time, kind: "balancer", text: `${e.Name}: ${did.map(([k, v]) => `${k} ${v}`).join(", ")}` };
  }
}
