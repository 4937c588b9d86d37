import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import type { Resource } from 'i18next';
import { afterEach, beforeEach, vi } from 'vitest';
import { initI18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';

// All client namespaces of every language, bundled: no http backend in tests.
const files = import.meta.glob<{ default: Record<string, unknown> }>('../../../../packages/i18n/locales/*/*.json', {
  eager: true,
});
export const resources: Resource = {};
for (const [file, mod] of Object.entries(files)) {
  const [, lng, ns] = /locales\/(\w+)\/(\w+)\.json$/.exec(file) ?? [];
  if (!lng || !ns || ns === 'api' || ns === 'mail') continue;
  (resources[lng] ??= {})[ns] = mod.default;
}

// jsdom has no scrolling; ScrollRestoration calls it.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;

beforeEach(() => {
  localStorage.clear();
  document.cookie.split(';').forEach((c) => {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  });
  initI18n({ resources, language: 'en' });
});

afterEach(() => {
  cleanup();
  queryClient.clear();
});
