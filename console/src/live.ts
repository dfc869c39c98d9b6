// The refresh loop: the current view reads again 2 s after its last read ended (reads never pile
// up), and the header says whether the API answers.
import { ConnectionError } from "./api";
import { clock, el, setAttr, setText } from "./dom";

export const REFRESH_MS = 2000;

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

  constructor(private readonly indicator: HTMLElement) {
    indicator.append(el("span", { class: "dot", "aria-hidden": "true" }), this.text);
    this.show("connecting", "Connecting…");
  }

  /** Shows a view and refreshes it now and every 2 s after, until another view is shown. */
  showView(view: View): void {
    this.view = view;
    this.generation++;
    window.clearTimeout(this.timer);
    void this.tick(this.generation);
  }

  /** Reads again now (after an action), without waiting for the next tick. */
  now(): void {
    this.showView(this.view!);
  }

  private async tick(generation: number): Promise<void> {
    const view = this.view;
    if (!view) return;
    const started = performance.now();
    try {
      await view.refresh();
      if (generation !== this.generation) return;
      // How long a whole read took, for the browser tests' figures.
      setAttr(this.indicator, "data-refresh-ms", String(Math.round(performance.now() - started)));
      this.lostSince = null;
      this.show("live", `Live · updated ${clock(new Date())}`);
    } catch (e) {
      if (generation !== this.generation) return;
      if (e instanceof ConnectionError) {
        this.lostSince ??= new Date();
        this.show("lost", `Connection lost since ${clock(this.lostSince)}; retrying every 2 s (${e.message})`);
      } else {
        console.error(e);
        this.show("live", `Live · last read failed: ${(e as Error).message}`);
      }
    }
    if (generation === this.generation) {
      this.timer = window.setTimeout(() => void this.tick(generation), REFRESH_MS);
    }
  }

  private show(state: string, text: string): void {
    setAttr(this.indicator, "data-state", state);
    setText(this.text, text);
  }
}
