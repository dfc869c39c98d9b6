// The game servers of a group, filtered and paged: a page of 50 rows is all the DOM holds, so
// thousands of servers stay responsive.
import type { Server } from "../api";
import { age, el, reconcile, setAttr, setText } from "../dom";

export const PAGE_SIZE = 50;

export class ServerTable {
  readonly element: HTMLElement;
  private readonly rows: HTMLTableSectionElement;
  private readonly filter: HTMLSelectElement;
  private readonly search: HTMLInputElement;
  private readonly pageText: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private servers: Server[] = [];
  private page = 0;
  private now = Date.now();

  constructor() {
    this.rows = el("tbody");
    this.filter = el("select", { id: "server-filter", "aria-label": "Show game servers" },
      ...[["all", "All"], ["available", "Available"], ["claimed", "Claimed"], ["utilized", "Utilized"]].map(([v, t]) => el("option", { value: v }, t)));
    this.search = el("input", { id: "server-search", type: "search", placeholder: "Filter by id or instance", "aria-label": "Filter by id or instance" });
    this.pageText = el("span", { id: "server-page", "aria-live": "polite" });
    this.previous = el("button", { type: "button", id: "server-previous", onclick: () => this.turn(-1) }, "‹ Previous");
    this.next = el("button", { type: "button", id: "server-next", onclick: () => this.turn(1) }, "Next ›");
    this.filter.addEventListener("change", () => this.turn(-this.page));
    this.search.addEventListener("input", () => this.turn(-this.page));
    this.element = el("div", {},
      el("div", { class: "row" }, this.filter, this.search, this.previous, this.pageText, this.next),
      el("div", { class: "scroll" }, el("table", { class: "grid", id: "servers" },
        el("thead", {}, el("tr", {}, ...["Game server", "Instance", "Instance status", "Utilization", "Claim", "Health age"].map((h) => el("th", { scope: "col" }, h)))),
        this.rows)));
  }

  show(servers: Server[], now: number): void {
    this.servers = servers;
    this.now = now;
    this.render();
  }

  private turn(by: number): void {
    this.page = Math.max(0, this.page + by);
    this.render();
  }

  private render(): void {
    const wanted = this.filter.value;
    const text = this.search.value.trim().toLowerCase();
    const shown = this.servers.filter((s) => {
      const claimed = s.ClaimStatus === "CLAIMED";
      const utilized = s.UtilizationStatus === "UTILIZED";
      const state = wanted === "all" || (wanted === "claimed" && claimed) || (wanted === "utilized" && utilized) || (wanted === "available" && !claimed && !utilized);
      return state && (!text || s.GameServerId!.toLowerCase().includes(text) || (s.InstanceId ?? "").toLowerCase().includes(text));
    });
    const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
    this.page = Math.min(this.page, pages - 1);
    const from = this.page * PAGE_SIZE;
    const slice = shown.slice(from, from + PAGE_SIZE);
    setText(this.pageText, shown.length ? `${from + 1}–${from + slice.length} of ${shown.length}` : "none");
    this.previous.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
    reconcile(this.rows, slice, (s) => s.GameServerId!, (s) => el("tr", { "data-server": s.GameServerId },
      el("th", { scope: "row" }, s.GameServerId!), el("td"), el("td"), el("td"), el("td"), el("td", { class: "num" })), (tr, s) => {
      const [, instance, instanceStatus, utilization, claim, health] = Array.from(tr.children);
      setText(instance, s.InstanceId ?? "");
      setText(instanceStatus, s.InstanceStatus ?? "");
      setAttr(instanceStatus, "data-status", s.InstanceStatus ?? "");
      setText(utilization, s.UtilizationStatus ?? "");
      setText(claim, s.ClaimStatus ?? "");
      setText(health, age(s.LastHealthCheckTime, this.now));
    });
  }
}
