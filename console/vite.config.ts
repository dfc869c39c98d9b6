import { defineConfig } from "vitest/config";

// Served by the local profile at /console/; every asset is bundled into dist/, nothing from another origin.
export default defineConfig({
  base: "/console/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    include: ["test/unit/**/*.test.ts"],
  },
});
