import { expect, type Page } from '@playwright/test';
import { apiGet } from '../support';

/** What the organization specs share: a JSON call with a token, and a Team plan bought as a person buys it. */

export async function api<T>(method: 'GET' | 'POST', route: string, token: string, body?: unknown) {
  const res = await fetch(process.env.E2E_BASE_URL! + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as { message: string; data: T } };
}

/** Pays for the Team plan (3 seats) on the loopback Stripe's checkout page, as a person would. */
export async function buyTeam(page: Page, token: string) {
  const checkout = await api<{ url: string }>(
    'GET',
    '/api/payment/subscribe?plan=team&planDuration=month&quantity=3',
    token,
  );
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  await page.goto(checkout.body.data.url);
  await page.getByRole('button', { name: 'Pay' }).click();
  await page.waitForURL(/\/paymentSuccess/);
  await expect
    .poll(async () => (await apiGet<{ plan: string }>('/api/payment/current-plan', token)).data.plan, {
      timeout: 15_000,
    })
    .toBe('team');
}
