import { expect, type Page } from '@playwright/test';

const control = () => process.env.E2E_CONTROL_URL!;

/** Undoes quoted-printable soft breaks and escapes. */
const decodeQp = (s: string) =>
  s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The newest link to `pathname` mailed to `to`, as received by the loopback SMTP server. */
export async function linkFromMail(to: string, pathname: '/verify-email' | '/reset-password', timeoutMs = 15_000) {
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
    fetch(base + url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  expect((await post('/api/auth/register', { email, password, name })).ok).toBe(true);
  const link = new URL(await linkFromMail(email, '/verify-email'));
  expect((await post(`/api/auth/verify?token=${link.searchParams.get('token')}`)).ok).toBe(true);
  const login = (await (await post('/api/auth/login', { email, password })).json()) as { data: { token: string } };
  return { email, password, token: login.data.token };
}

/** Signs in through the login form. */
export async function uiLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/e-?mail|correo|adresse/i).fill(email);
  await page.getByLabel(/password|contraseña|mot de passe/i).first().fill(password);
  await page.getByRole('button', { name: /^(log in|sign in|iniciar sesión|se connecter)$/i }).click();
}
