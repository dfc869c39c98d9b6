import { defineConfig } from "vitest/config";

// Served by the local profile at /console/ and by the stack's CloudFront at /: every asset is
// bundled into dist/, nothing from another origin, and named relative to index.html.
export default defineConfig({
  base: "./",
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
