// The dashboard's build: served by the gateway under /dashboard/, so every URL is relative to it.
// No inline script or style in the output (the page's Content-Security-Policy forbids both).
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/dashboard/',
  plugins: [preact({ devToolsInProd: false, prefreshEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 200,
  },
});
