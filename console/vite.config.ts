import { defineConfig } from 'vite';

// Preact's automatic JSX runtime through esbuild (no Babel preset needed). The build is served
// by the server at /console (src/console.ts), so every asset URL starts there.
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    // Under a strict CSP (script-src 'self'), no inline script may be emitted.
    modulePreload: { polyfill: false },
  },
  logLevel: 'warn',
});
