import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

describe('the public configuration', () => {
  it('names the help pages when HELP_URL is set, and null otherwise', async () => {
    const withHelp = await createTestApp({ HELP_URL: 'https://help.example.com/faq' });
    const without = await createTestApp({});
    apps.push(withHelp, without);
    expect((await withHelp.json('GET', '/api/auth/config')).body.data.helpUrl).toBe('https://help.example.com/faq');
    expect((await without.json('GET', '/api/auth/config')).body.data.helpUrl).toBeNull();
  });
});
