// Builds the page of `mcpkit inspect` (issue #26) into dist/inspector/: index.html and assets/
// with relative URLs, so the backend may serve it under any path. `npm run build` runs
// `vite build -c inspector-ui/vite.config.ts` as its last step; paths are relative to this file.
// Preact's JSX goes through Vite's built-in transform (Oxc); no plugin is needed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/inspector',
    emptyOutDir: true,
    target: 'es2022',
    // One small bundle: the page must work offline, without a CDN or a module preload polyfill.
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
  },
});
