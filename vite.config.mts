import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The browser app: built into dist/client, which the Nest server serves on the same origin
 * (it writes the host's brand into index.html at <!--portal-head-->).
 * `npm run dev` runs this dev server on 5173 with /api and /brand proxied to the Nest server.
 */
const API = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'client',
  // client/public holds only the placeholder page the server shows before a build.
  publicDir: false,
  plugins: [react()],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    target: 'es2022',
    // Chunks are split by React.lazy routes; the app shell is large by nature (react-admin + MUI).
    chunkSizeWarningLimit: 1200,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      // changeOrigin stays false: the server compares Origin with Host for mutations.
      '/api': { target: API },
      '/brand': { target: API },
    },
  },
  preview: { port: 4173 },
});
