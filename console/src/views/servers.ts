// The game servers of a group, one page at a time: a refresh reads the page shown (ListGameServers,
// 50 of them) and nothing else, so a group of thousands costs one call; a page turn reads the next.
import type { Server } from "../api";
import { age, el, reconcile, setAttr, setText } from "../dom";

export const PAGE_SIZE = 50;

/**
 * What the health age means beside the timeout: a server that reports its own health is swept 180 s
 * (the stage's health timeout, by default) after its last report; one whose agent reports for it
 * over the push channel holds a 10-minute lease instead, renewed at most every 5.5 minutes, so its
 * age reads up to 5.5 min while it is healthy (docs/api.md, "Where Gamefleet differs from FleetIQ").
 */
export const HEALTH_NOTE = "Health age: time since LastHealthCheckTime. A server that reports its own health is swept 180 s "
  + "(the health timeout, by default) after its last report; one whose agent reports over the push channel holds a "
  + "10-minute health lease instead, renewed at most every 5.5 min, so an age up to 5.5 min is healthy there.";

export class ServerTable {
  readonly element: HTMLElement;
  private readonly rows: HTMLTableSectionElement;
  private readonly filter: HTMLSelectElement;
  private readonly search: HTMLInputElement;
  private readonly pageText: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private servers: Server[] = [];
  /** The token of each page reached so far: the first has none. */
  private tokens: (string | undefined)[] = [undefined];
  private page = 0;
  private total: number | null = null;
  private now = Date.now();

  /** `turned`: a page turn, which the view reads at once. */
  constructor(private readonly turned: () => void) {
    this.rows = el("tbody");
    this.filter = el("select", { id: "server-filter", "aria-label": "Show game servers of this page" },
      ...[["all", "All"], ["available", "Available"], ["claimed", "Claimed"], ["utilized", "Utilized"]].map(([v, t]) => el("option", { value: v }, t)));
    this.search = el("input", { id: "server-search", type: "search", placeholder: "Filter this page by id or instance", "aria-label": "Filter this page by id or instance" });
    this.pageText = el("span", { id: "server-page", "aria-live": "polite" });
    this.previous = el("button", { type: "button", id: "server-previous", onclick: () => this.turn(-1) }, "‹ Previous");
    this.next = el("button", { type: "button", id: "server-next", onclick: () => this.turn(1) }, "Next ›");
    this.filter.addEventListener("change", () => this.render());
    this.search.addEventListener("input", () => this.render());
    this.element = el("div", {},
      el("div", { class: "row" }, this.filter, this.search, this.previous, this.pageText, this.next),
      el("div", { class: "scroll" }, el("table", { class: "grid", id: "servers" },
        el("thead", {}, el("tr", {}, ...["Game server", "Instance", "Instance status", "Utilization", "Claim"].map((h) => el("th", { scope: "col" }, h)),
          el("th", { scope: "col", title: HEALTH_NOTE }, "Health age"))),
        this.rows)),
      el("p", { class: "muted", id: "health-note" }, HEALTH_NOTE));
  }

  /** The token of the page to read. */
  token(): string | undefined {
    return this.tokens[this.page];
  }

  /** The page read, the group's servers as the last balancer run counted them (null: not counted yet). */
  show(page: { servers: Server[]; nextToken?: string }, total: number | null, now: number): void {
    this.servers = page.servers;
    this.tokens[this.page + 1] = page.nextToken;
    this.tokens.length = this.page + 2;
    this.total = total;
    this.now = now;
    this.render();
  }

  private turn(by: number): void {
    const to = Math.max(0, this.page + by);
    if (to === this.page || (by > 0 && !this.tokens[to])) return;
    this.page = to;
    this.previous.disabled = true;
    this.next.disabled = true;
    this.turned();
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
    const from = this.page * PAGE_SIZE;
    const of = this.total === null ? "" : ` of ${this.total}`;
    const filtered = shown.length < this.servers.length ? ` (${shown.length} shown)` : "";
    setText(this.pageText, this.servers.length ? `${from + 1}–${from + this.servers.length}${of}${filtered}` : this.page ? "no more" : "none");
    this.previous.disabled = this.page === 0;
    this.next.disabled = !this.tokens[this.page + 1] || this.servers.length < PAGE_SIZE;
    reconcile(this.rows, shown, (s) => s.GameServerId!, (s) => el("tr", { "data-server": s.GameServerId },
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
