import { describe, expect, it } from 'vitest';
import { SIGNED_OUT, type SessionState } from '../../platform/storage/session-store';
import { isPresencePing, isTemplatesChanged, readTemplateChosen, readUpdateToken, shouldTellWebApp } from './bridge';

const web = 'http://localhost:3000';
const win = { location: { origin: web } };
const token = 'a'.repeat(43);

describe('UPDATE_TOKEN from the page', () => {
  const event = (over: Partial<{ source: unknown; origin: string; data: unknown }> = {}) => ({
    source: win,
    origin: web,
    data: { type: 'UPDATE_TOKEN', token },
    ...over,
  });

  it('is read from the web app window itself', () => {
    expect(readUpdateToken(event(), win, web)).toEqual({ token });
    expect(readUpdateToken(event({ data: { type: 'UPDATE_TOKEN', token: null } }), win, web)).toEqual({ token: null });
  });

  it('is ignored from frames, other origins and other pages', () => {
    expect(readUpdateToken(event({ source: {} }), win, web)).toBeNull();
    expect(readUpdateToken(event({ origin: 'https://evil.test' }), win, web)).toBeNull();
    expect(readUpdateToken(event(), { location: { origin: 'http://localhost:3001' } }, web)).toBeNull();
  });

  it('is ignored when malformed', () => {
    expect(readUpdateToken(event({ data: { type: 'OTHER', token } }), win, web)).toBeNull();
    expect(readUpdateToken(event({ data: { type: 'UPDATE_TOKEN', token: 42 } }), win, web)).toBeNull();
    expect(readUpdateToken(event({ data: { type: 'UPDATE_TOKEN', token: '' } }), win, web)).toBeNull();
    expect(readUpdateToken(event({ data: 'UPDATE_TOKEN' }), win, web)).toBeNull();
    expect(readUpdateToken(event({ data: null }), win, web)).toBeNull();
  });
});

describe('the web app asking whether the extension is installed', () => {
  const ping = { source: win, origin: web, data: { type: 'PARLEY_EXTENSION_PING' } };
  it('is answered on the web app window only', () => {
    expect(isPresencePing(ping, win, web)).toBe(true);
    expect(isPresencePing({ ...ping, source: {} }, win, web)).toBe(false);
    expect(isPresencePing({ ...ping, origin: 'https://evil.test' }, win, web)).toBe(false);
    expect(isPresencePing(ping, { location: { origin: 'https://evil.test' } }, web)).toBe(false);
    expect(isPresencePing({ ...ping, data: 'PARLEY_EXTENSION_PING' }, win, web)).toBe(false);
    expect(isPresencePing({ ...ping, data: null }, win, web)).toBe(false);
  });
});

describe('templates on the web', () => {
  const changed = { source: win, origin: web, data: { type: 'PARLEY_TEMPLATES_CHANGED' } };
  const template = {
    id: '3f1c2b8e-8a4d-4c1e-9b7a-0d2e6f4a1b01',
    kind: 'message',
    title: 'Thanks',
    body: 'Thanks!',
    language: null,
  };
  const chosen = { source: win, origin: web, data: { type: 'PARLEY_TEMPLATE_CHOSEN', template } };

  it('a change is heard on the web app window only', () => {
    expect(isTemplatesChanged(changed, win, web)).toBe(true);
    expect(isTemplatesChanged({ ...changed, source: {} }, win, web)).toBe(false);
    expect(isTemplatesChanged({ ...changed, origin: 'https://evil.test' }, win, web)).toBe(false);
    expect(isTemplatesChanged(changed, { location: { origin: 'https://evil.test' } }, web)).toBe(false);
    expect(isTemplatesChanged({ ...changed, data: 'PARLEY_TEMPLATES_CHANGED' }, win, web)).toBe(false);
  });

  it('a picked template is read from the web app window only, with exactly its shape', () => {
    expect(readTemplateChosen(chosen, win, web)).toEqual(template);
    expect(readTemplateChosen({ ...chosen, source: {} }, win, web)).toBeNull();
    expect(readTemplateChosen({ ...chosen, origin: 'https://mail.google.com' }, win, web)).toBeNull();
    expect(readTemplateChosen(chosen, { location: { origin: 'http://localhost:3001' } }, web)).toBeNull();
    expect(
      readTemplateChosen({ ...chosen, data: { ...chosen.data, template: { ...template, kind: 'x' } } }, win, web),
    ).toBeNull();
  });
});

describe('telling the web app', () => {
  const signedIn: SessionState = { signedIn: true, userId: 'u', profile: null, endReason: null };
  it('happens when the extension itself signs out, not when the web app asked', () => {
    expect(shouldTellWebApp({ ...SIGNED_OUT, endReason: 'logout' }, signedIn)).toBe(true);
    expect(shouldTellWebApp({ ...SIGNED_OUT, endReason: 'forced' }, signedIn)).toBe(true);
    expect(shouldTellWebApp({ ...SIGNED_OUT, endReason: 'web-logout' }, signedIn)).toBe(false);
    expect(shouldTellWebApp({ ...SIGNED_OUT, endReason: 'logout' }, SIGNED_OUT)).toBe(false);
  });
});
