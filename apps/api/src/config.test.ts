import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      trustProxy: false,
      corsOrigins: ['http://localhost:3000'],
      serveWeb: false,
    });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'not a url', TRUST_PROXY: 'sometimes' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'PUBLIC_URL', 'TRUST_PROXY']) expect(problems).toContain(name);
    }
  });

  it('reads proxy trust as a flag, a hop count or an address list', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(loadConfig({ NODE_ENV: 'production' }).serveWeb).toBe(true);
  });

  it('takes an http(s) address for the help pages, and none by default', () => {
    expect(loadConfig({}).helpUrl).toBeUndefined();
    expect(loadConfig({ HELP_URL: 'https://help.example.com/faq' }).helpUrl).toBe('https://help.example.com/faq');
    for (const HELP_URL of ['ftp://help.example.com', 'javascript:alert(1)', 'help'])
      expect(() => loadConfig({ HELP_URL }), HELP_URL).toThrow(/HELP_URL/);
  });
});
