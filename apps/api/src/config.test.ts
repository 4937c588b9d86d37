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

  it('takes CORS origins only as browsers send them, and says how to write one that is not', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    for (const [entry, hint] of [
      ['https://App.example.com/', 'write https://app.example.com'],
      ['https://app.example.com:443', 'write https://app.example.com'],
      ['https://app.example.com/app', 'write https://app.example.com'],
      ['app.example.com', 'e.g. https://app.example.com'],
      ['null', 'e.g. https://app.example.com'],
    ]) {
      expect(() => loadConfig({ CORS_ORIGINS: entry }), entry).toThrow(hint!);
    }
  });

  it('renews credits due every minute unless told otherwise', () => {
    expect(loadConfig({}).payments.renewalEveryMs).toBe(60_000);
    expect(loadConfig({ CREDIT_RENEWAL_SECONDS: '5' }).payments.renewalEveryMs).toBe(5_000);
    for (const CREDIT_RENEWAL_SECONDS of ['0', 'often', '1.5'])
      expect(() => loadConfig({ CREDIT_RENEWAL_SECONDS }), CREDIT_RENEWAL_SECONDS).toThrow(/CREDIT_RENEWAL_SECONDS/);
  });

  it('takes an http(s) address for the help pages, and none by default', () => {
    expect(loadConfig({}).helpUrl).toBeUndefined();
    expect(loadConfig({ HELP_URL: 'https://help.example.com/faq' }).helpUrl).toBe('https://help.example.com/faq');
    for (const HELP_URL of ['ftp://help.example.com', 'javascript:alert(1)', 'help'])
      expect(() => loadConfig({ HELP_URL }), HELP_URL).toThrow(/HELP_URL/);
  });

  it('reads LinkedIn’s app: both halves of it or neither, its bases, and where due posts are published', () => {
    const none = loadConfig({});
    expect(none.linkedin).toMatchObject({
      clientId: undefined,
      authUrl: 'https://www.linkedin.com',
      apiUrl: 'https://api.linkedin.com',
      scheduler: true,
    });
    expect(loadConfig({ NODE_ENV: 'test' }).linkedin.scheduler).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test', LINKEDIN_SCHEDULER: 'true' }).linkedin.scheduler).toBe(true);
    const set = loadConfig({
      LINKEDIN_CLIENT_ID: 'id',
      LINKEDIN_CLIENT_SECRET: 'secret',
      LINKEDIN_AUTH_URL: 'http://127.0.0.1:4030/',
      LINKEDIN_API_URL: 'http://127.0.0.1:4030',
      LINKEDIN_API_VERSION: '202501',
    }).linkedin;
    expect(set).toMatchObject({ clientId: 'id', authUrl: 'http://127.0.0.1:4030', apiVersion: '202501' });
    expect(() => loadConfig({ LINKEDIN_CLIENT_ID: 'id' })).toThrow(/LINKEDIN_CLIENT_SECRET/);
    expect(() => loadConfig({ LINKEDIN_API_URL: 'ftp://x' })).toThrow(/LINKEDIN_API_URL/);
    expect(() => loadConfig({ LINKEDIN_API_VERSION: '2025-01' })).toThrow(/LINKEDIN_API_VERSION/);
  });
});
