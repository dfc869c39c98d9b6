// A group's sessions, newest first: one page of ListSessions per refresh (never a walk over every
// page), with each session's state, server, players and the region it is in.
import { ApiError, isThrottled } from "../api";
import { age, clock, el, reconcile, setAttr, setText } from "../dom";
import type { GamefleetExtensions, Session, SessionsPage } from "../extensions";
import { errorBox } from "./errors";

/** The sessions a refresh reads: ListSessions' default page. */
export const SESSIONS_SHOWN = 50;

export class SessionTable {
  readonly element: HTMLElement;
  private readonly rows: HTMLTableSectionElement;
  private readonly note: HTMLElement;
  private readonly readError: HTMLElement;

  constructor(
    private readonly api: GamefleetExtensions,
    private readonly group: string,
  ) {
    this.rows = el("tbody");
    this.note = el("p", { class: "muted", id: "sessions-note" });
    this.readError = el("div", { id: "sessions-read-error" });
    this.element = el("div", {},
      this.readError,
      this.note,
      el("div", { class: "scroll" }, el("table", { class: "grid", id: "sessions" },
        el("thead", {}, el("tr", {}, ...["Session", "State", "Game server", "Instance", "Players", "Claimed", "Region"].map((h) => el("th", { scope: "col" }, h)))),
        this.rows)));
  }

  /** Reads the newest page; what the API refuses shows here, not as a lost view. */
  async refresh(): Promise<void> {
    try {
      const page = await this.api.sessions(this.group, SESSIONS_SHOWN);
      this.readError.replaceChildren();
      this.show(page, Date.now());
    } catch (e) {
      // A 429 is the whole page's to back off from; another refusal shows here.
      if (!(e instanceof ApiError) || isThrottled(e)) throw e;
      this.readError.replaceChildren(errorBox(e));
    }
  }

  private show(page: SessionsPage, now: number): void {
    const sessions = page.Sessions ?? [];
    setText(this.note, !sessions.length ? "No sessions kept for this group."
      : page.NextToken ? `The newest ${sessions.length}; older ones are kept too (ListSessions pages on).` : `${sessions.length} kept.`);
    reconcile(this.rows, sessions, (s) => s.SessionId, (s) => el("tr", { "data-session": s.SessionId },
      el("th", { scope: "row" }, el("code", {}, s.SessionId)), el("td", { class: "state" }), el("td"), el("td"), el("td", { class: "num" }), el("td"), el("td", { class: "region" })), (tr, s) => {
      const [, state, server, instance, players, claimed, region] = Array.from(tr.children);
      setText(state, s.State);
      setAttr(state, "data-state", s.State);
      setText(server, s.GameServerId);
      setText(instance, s.InstanceId ?? "–");
      setText(players, playersText(s));
      setAttr(players, "title", (s.PlayerIds ?? []).join(", ") || null);
      const at = new Date(s.CreationTime * 1000);
      setText(claimed, `${clock(at)} (${age(at, now)} ago)`);
      setText(region, s.Region ?? "–");
    });
  }
}

/** Connected players as the server's agent last reported them, and how many the session invited. */
function playersText(s: Session): string {
  const connected = s.ConnectedPlayers === undefined ? "–" : String(s.ConnectedPlayers);
  return s.InitialPlayers?.length ? `${connected} of ${s.InitialPlayers.length} invited` : connected;
}
