import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { localesPlugin } from './locales-plugin';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  plugins: [react(), tailwindcss(), localesPlugin(path.resolve(here, '../../packages/i18n/locales'))],
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://127.0.0.1:3000', changeOrigin: false } },
  },
  preview: { proxy: { '/api': { target: 'http://127.0.0.1:3000' } } },
  build: { outDir: path.resolve(here, 'dist'), emptyOutDir: true, target: 'es2022', manifest: true },
});
