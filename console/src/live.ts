// The refresh loop: the current view reads again 2 s after its last read ended (reads never pile
// up), never while the tab is hidden, more slowly while the API says it is throttled (429), and the
// header says whether the API answers.
import { ConnectionError, isThrottled } from "./api";
import { clock, el, setAttr, setText } from "./dom";

export const REFRESH_MS = 2000;
/** The longest wait between reads while the API keeps answering 429. */
export const MAX_BACKOFF_MS = 60_000;

/** The wait before the next read after `throttled` 429s in a row: 2 s doubled each time, at most a minute. */
export function backoffMs(throttled: number): number {
  return throttled === 0 ? REFRESH_MS : Math.min(MAX_BACKOFF_MS, REFRESH_MS * 2 ** throttled);
}

export interface View {
  readonly element: HTMLElement;
  /** Reads and shows the latest state; throws ConnectionError when the API did not answer. */
  refresh(): Promise<void>;
}

export class Live {
  private view: View | null = null;
  private timer: number | undefined;
  private generation = 0;
  private readonly text = el("span", { class: "text" });
  private lostSince: Date | null = null;
  private throttled = 0;
  private refreshes = 0;
  /** A read is due but the tab is hidden: it runs when the tab shows again. */
  private waiting = false;

  constructor(private readonly indicator: HTMLElement) {
    indicator.append(el("span", { class: "dot", "aria-hidden": "true" }), this.text);
    this.show("connecting", "Connecting…");
    // A hidden tab reads nothing: no calls on the fleet's throttled routes for a page nobody sees.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.waiting) {
        this.waiting = false;
        void this.tick(this.generation);
      }
    });
  }

  /** Shows a view and refreshes it now and every 2 s after, until another view is shown. */
  showView(view: View): void {
    this.view = view;
    this.generation++;
    window.clearTimeout(this.timer);
    this.waiting = false;
    void this.tick(this.generation);
  }

  /** Reads again now (after an action), without waiting for the next tick. */
  now(): void {
    this.showView(this.view!);
  }

  private async tick(generation: number): Promise<void> {
    const view = this.view;
    if (!view) return;
    if (document.visibilityState === "hidden") {
      this.waiting = true;
      this.show("paused", "Paused while the tab is hidden");
      return;
    }
    const started = performance.now();
    try {
      await view.refresh();
      if (generation !== this.generation) return;
      // How long a whole read took, and how many ended, for the browser tests' figures.
      setAttr(this.indicator, "data-refresh-ms", String(Math.round(performance.now() - started)));
      setAttr(this.indicator, "data-refreshes", String(++this.refreshes));
      this.lostSince = null;
      this.throttled = 0;
      this.show("live", `Live · updated ${clock(new Date())}`);
    } catch (e) {
      if (generation !== this.generation) return;
      if (isThrottled(e)) {
        this.throttled++;
        this.show("throttled", `Throttled by the API (429): reading again in ${backoffMs(this.throttled) / 1000} s`);
      } else if (e instanceof ConnectionError) {
        this.throttled = 0;
        this.lostSince ??= new Date();
        this.show("lost", `Connection lost since ${clock(this.lostSince)}; retrying every 2 s (${e.message})`);
      } else {
        this.throttled = 0;
        console.error(e);
        this.show("live", `Live · last read failed: ${(e as Error).message}`);
      }
    }
    if (generation === this.generation) {
      this.timer = window.setTimeout(() => void this.tick(generation), backoffMs(this.throttled));
    }
  }

  private show(state: string, text: string): void {
    setAttr(this.indicator, "data-state", state);
    setText(this.text, text);
  }
}
