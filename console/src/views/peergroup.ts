// A peer region's group: the region is looked up in the home's GET /regions, then the group's view
// calls that region's API, as the home's group view calls the home's.
import { ConnectionError } from "../api";
import { el, setText } from "../dom";
import type { Live, View } from "../live";
import type { LocalProfile } from "../local";
import type { Regions } from "../regions";
import { GroupView } from "./group";

export class PeerGroupView implements View {
  readonly element: HTMLElement;
  private readonly note: HTMLElement;
  private view: GroupView | null = null;

  constructor(
    private readonly regions: Regions,
    private readonly region: string,
    private readonly name: string,
    private readonly live: Live,
    private readonly local: LocalProfile | null,
  ) {
    this.note = el("p", { class: "muted", id: "region-lookup" }, `Looking up region ${region}…`);
    this.element = el("div", {}, this.note);
  }

  async refresh(): Promise<void> {
    if (!this.view) {
      const region = await this.regions.find(this.region);
      if (!region) {
        setText(this.note, `This API names no region ${this.region} (GET /regions): it is not peered with it.`);
        return;
      }
      // The profile's own paths are the home's alone.
      this.view = new GroupView(region, this.name, this.live, region.home ? this.local : null);
      this.element.replaceChildren(this.view.element);
    }
    try {
      await this.view.refresh();
    } catch (e) {
      // The header's "Connection lost" then names the region that did not answer.
      if (e instanceof ConnectionError) throw new ConnectionError(`region ${this.region} did not answer: ${e.message}`);
      throw e;
    }
  }
}
