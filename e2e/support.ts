import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

const control = () => process.env.E2E_CONTROL_URL!;

/** Undoes quoted-printable soft breaks and escapes. */
const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The newest link to `pathname` mailed to `to`, as received by the loopback SMTP server. */
export async function linkFromMail(
  to: string,
  pathname: '/verify-email' | '/reset-password' | '/join-organization',
  timeoutMs = 15_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${control()}/mails?to=${encodeURIComponent(to)}`)).json()) as { raw: string }[];
    for (const mail of mails.reverse()) {
      const match = new RegExp(`https?://[^\\s"<>]+${pathname}\\?(token|key)=[A-Za-z0-9_-]+`).exec(decodeQp(mail.raw));
      if (match) return match[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail with ${pathname} reached ${to}`);
}

export async function mailsTo(to: string) {
  return (await (await fetch(`${control()}/mails?to=${encodeURIComponent(to)}`)).json()) as { raw: string }[];
}

/** A Google ID token signed by the loopback JWKS (or by an unknown key with `foreign: true`). */
export async function googleToken(claims: Record<string, unknown>) {
  const res = await fetch(`${control()}/google/sign`, { method: 'POST', body: JSON.stringify(claims) });
  return ((await res.json()) as { token: string }).token;
}

export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** Registers, verifies and logs in through the API (for tests whose subject is elsewhere). */
export async function apiSignUp(email: string, password = 'correct horse battery', name = 'E2E User') {
  const base = process.env.E2E_BASE_URL!;
  const post = (url: string, body?: unknown) =>
    fetch(base + url, {
      method: 'POST',
      // No content-type without a body: an empty "JSON" body is a 400 (as the web app's client also knows).
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
  expect((await post('/api/auth/register', { email, password, name })).ok).toBe(true);
  const link = new URL(await linkFromMail(email, '/verify-email'));
  expect((await post(`/api/auth/verify?token=${link.searchParams.get('token')}`)).ok).toBe(true);
  const login = (await (await post('/api/auth/login', { email, password })).json()) as { data: { token: string } };
  return { email, password, token: login.data.token };
}

/**
 * Sets a person's interface language through the API (as the language picker of their profile does); throws unless
 * the server took it. Returns the answer (the profile as it now is).
 */
export async function apiSetLanguage(token: string, language: Lng) {
  const res = await fetch(`${process.env.E2E_BASE_URL}/api/user/profile`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ language }),
  });
  if (res.status !== 200) throw new Error(`setting the language to ${language} answered ${res.status}`);
  return res;
}

/** Signs in through the login form. */
export async function uiLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/e-?mail|correo|adresse/i).fill(email);
  await page
    .getByLabel(/password|contraseña|mot de passe/i)
    .first()
    .fill(password);
  await page.getByRole('button', { name: /^(log in|sign in|iniciar sesión|se connecter)$/i }).click();
}

// ---------------------------------------------------------------------------------------------------------------
// Texts, tokens and small browser helpers shared by the specs.

const localesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/i18n/locales');
const localeCache = new Map<string, Record<string, unknown>>();

export type Lng = 'en' | 'es' | 'fr';

/**
 * The translated text of `ns:key.path` from packages/i18n/locales, with `{{var}}` filled in: the tests assert what
 * a person reading that language sees, and follow the locale files when the wording changes.
 */
export function tr(lng: Lng, key: string, vars: Record<string, string | number> = {}): string {
  const [ns, dotted] = key.split(':') as [string, string];
  const file = `${lng}/${ns}`;
  if (!localeCache.has(file)) {
    localeCache.set(
      file,
      JSON.parse(readFileSync(path.join(localesDir, `${file}.json`), 'utf8')) as Record<string, unknown>,
    );
  }
  let value: unknown = localeCache.get(file);
  for (const part of dotted.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  if (typeof value !== 'string') throw new Error(`no text for ${lng}/${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`));
}

/** A RegExp matching the text exactly as written (for getByText/getByRole names with special characters). */
export const exact = (text: string) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);

/** The session token the web app keeps in localStorage (spec §3), or null. */
export const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('token'));

/** GET an authenticated API route and return its `data`. */
export async function apiGet<T = Record<string, unknown>>(route: string, token: string) {
  const res = await fetch(process.env.E2E_BASE_URL! + route, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { status?: number; data: T };
  return { status: res.status, bodyStatus: body.status, data: body.data };
}

/** Puts an existing session token in the browser (as a sign-in would), then opens `to`. */
export async function openSignedIn(page: Page, token: string, to = '/home') {
  await page.goto('/not-found');
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(to);
}

/**
 * Opens `to` in the running app through its router, as a link inside the app does: no reload, so a test that walks
 * many pages pays for the app's start once. The router follows a history entry pushed and announced with
 * `popstate`. It keeps the page before on screen until the new one's code and texts have come, then shows it and
 * sets its title: this waits for the title to change, so two pages opened one after the other must have different
 * titles (opening the page already open does nothing).
 */
export async function openInApp(page: Page, to: string) {
  const before = await page.evaluate(() => ({ path: location.pathname, title: document.title }));
  if (before.path === to) return;
  await page.evaluate((path) => {
    history.pushState(null, '', path);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, to);
  await page.waitForFunction((title) => document.title !== title, before.title);
}

/**
 * Waits until the page shows no loading placeholder: the page's own skeleton (while its code loads) and the
 * skeleton bars a section shows until its data has come (`SkeletonBar` of @parley/ui). A check of what a page shows
 * (headings, widths, placeholders) made before then would check the placeholders.
 */
export async function noSkeletons(page: Page) {
  await expect(page.locator('[data-testid="page-skeleton"], div.animate-pulse[aria-hidden="true"]')).toHaveCount(0);
}

const shotsDir = process.env.E2E_SHOTS_DIR ?? '/tmp/e2e-shots';

/**
 * A screenshot kept outside the repository (in /tmp/e2e-shots, or E2E_SHOTS_DIR), for a person to look at: what is on screen, or the
 * whole page with `fullPage`. `still` shows CSS transitions finished rather than caught halfway (a page just opened
 * inside the app); not for a toast, which Playwright's finished animations take off the screen.
 */
export async function shot(page: Page, name: string, { fullPage = false, still = false } = {}) {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({
    path: path.join(shotsDir, `${name}.png`),
    fullPage,
    animations: still ? 'disabled' : 'allow',
  });
}

/**
 * What Playwright's `waitForLoadState('networkidle')` waits for (the page loaded, then no request in flight for a
 * while), with a quiet window of `quietMs` instead of its fixed 500 ms: for tests that load many pages one after the
 * other. Counts the page's requests from the call of `requestsOf` on, so call it before the first `goto`.
 */
export function requestsOf(page: Page) {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight += 1;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async settled(quietMs = 200, timeoutMs = 15_000) {
      await page.waitForLoadState('load');
      const deadline = Date.now() + timeoutMs;
      while (inFlight > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline) throw new Error(`${inFlight} request(s) still in flight after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
