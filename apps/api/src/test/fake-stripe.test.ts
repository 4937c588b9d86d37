import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, parseForm, startFakeStripe } from './fake-stripe.js';

/** The fake driven by the official SDK, as the API drives Stripe; its events land on a small webhook endpoint. */
const DAY = 86400;
let fake: FakeStripe;
let stripe: Stripe;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let proMonth: string;
let teamMonth: string;
let plusYear: string;

/** A webhook endpoint that keeps what it receives and answers `status`. */
async function startReceiver() {
  const received: { payload: string; signature: string }[] = [];
  const endpoint = { status: 200 };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({
      payload: Buffer.concat(chunks).toString('utf8'),
      signature: String(req.headers['stripe-signature']),
    });
    res.writeHead(endpoint.status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/payment/webhook`;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { url, received, endpoint, close };
}

const sdk = (key: string, port: number) =>
  new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 });

beforeAll(async () => {
  receiver = await startReceiver();
  fake = await startFakeStripe({ webhookUrl: receiver.url });
  stripe = sdk(fake.secretKey, fake.port);
  proMonth = fake.addPrice({ lookupKey: 'test_pro_month', unitAmount: 1500, interval: 'month', productName: 'Pro' });
  teamMonth = fake.addPrice({ lookupKey: 'test_team_month', unitAmount: 2000, interval: 'month', productName: 'Team' });
  plusYear = fake.addPrice({ lookupKey: 'test_plus_year', unitAmount: 17900, interval: 'year', productName: 'Plus' });
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});

let codes = 0;
const uniqueCode = (prefix: string) => `${prefix}${(codes += 1)}`;
const typesSince = (from: number) => fake.deliveries.slice(from).map((d) => d.event.type);
const lastEvent = (type: string) => fake.deliveries.findLast((d) => d.event.type === type)!.event;

/** A customer subscribed through Checkout, paid as the Pay button pays. */
async function subscribe(o: { price: string; quantity?: number; promotionCode?: string; trialDays?: number }) {
  const customer = await stripe.customers.create({ email: 'ada@example.com', name: 'Ada' });
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer: customer.id,
    client_reference_id: 'user-1',
    line_items: [{ price: o.price, quantity: o.quantity ?? 1 }],
    ...(o.promotionCode ? { discounts: [{ promotion_code: o.promotionCode }] } : {}),
    subscription_data: { trial_period_days: o.trialDays, metadata: { userId: 'user-1' } },
    metadata: { userId: 'user-1' },
    success_url: 'http://127.0.0.1:3000/plans?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://127.0.0.1:3000/plans',
  });
  await fake.completeCheckout(session.id);
  const paid = await stripe.checkout.sessions.retrieve(session.id);
  const subscription = await stripe.subscriptions.retrieve(paid.subscription as string);
  return { customer, session: paid, subscription, item: subscription.items.data[0]! };
}

describe('the REST API', () => {
  it('answers a wrong secret key with an authentication error and an unknown id with a 404', async () => {
    await expect(sdk('sk_test_wrong', fake.port).customers.create({})).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );
    const missing = await stripe.prices.retrieve('price_nope').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      message: "No such price: 'price_nope'",
    });
  });

  it('finds prices by lookup key, active ones only when asked, with their products expanded', async () => {
    const product = await stripe.products.create({ name: 'Lookup' });
    const price = (lookup_key: string, active = true) =>
      stripe.prices.create({
        product: product.id,
        currency: 'usd',
        unit_amount: 700,
        recurring: { interval: 'month' },
        lookup_key,
        active,
      });
    const [a] = [await price('lookup_a'), await price('lookup_b'), await price('lookup_old', false)];
    await expect(price('lookup_a')).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);

    const all = await stripe.prices.list({ lookup_keys: ['lookup_a', 'lookup_old'], expand: ['data.product'] });
    expect(all.data.map((p) => p.lookup_key).sort()).toEqual(['lookup_a', 'lookup_old']);
    expect(all.data[0]!.product).toMatchObject({ id: product.id, object: 'product', name: 'Lookup' });
    const active = await stripe.prices.list({ lookup_keys: ['lookup_a', 'lookup_old'], active: true });
    expect(active.data.map((p) => p.id)).toEqual([a!.id]);
    expect(active.data[0]).toMatchObject({ unit_amount: 700, currency: 'usd', recurring: { interval: 'month' } });
    expect((await stripe.prices.list({ limit: 2 })).has_more).toBe(true);
  });

  it('answers a request sent again with the same idempotency key as the first time, and refuses other params', async () => {
    const before = fake.state.customers.size;
    const first = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    const again = await stripe.customers.create({ email: 'once@example.com' }, { idempotencyKey: 'key-1' });
    expect(again.id).toBe(first.id);
    expect(fake.state.customers.size).toBe(before + 1);
    await expect(
      stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'key-1' }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it('reads Stripe’s bracket notation', () => {
    expect(
      parseForm('line_items[0][price]=p&line_items[0][quantity]=2&expand[]=a&expand[]=b&metadata[k]=v%20w'),
    ).toEqual({ line_items: [{ price: 'p', quantity: '2' }], expand: ['a', 'b'], metadata: { k: 'v w' } });
  });
});

describe('Checkout', () => {
  it('shows a test checkout page whose Pay button subscribes and goes back to success_url', async () => {
    const code = uniqueCode('PAGE');
    const promo = fake.addPromotionCode({ code, percentOff: 20 });
    const customer = await stripe.customers.create({ email: 'page@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: teamMonth, quantity: 2 }],
      discounts: [{ promotion_code: promo }],
      subscription_data: { trial_period_days: 7 },
      success_url: 'http://127.0.0.1:3000/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://127.0.0.1:3000/plans',
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid' });
    expect(session.url).toBe(`${fake.url}/pay/${session.id}`);

    const page = await (await fetch(session.url!)).text();
    for (const text of ['Test checkout', 'Team', '$20.00 / month', '<dd>2</dd>', `${code}: 20% off`, '7 days'])
      expect(page).toContain(text);
    expect(page).toContain('$32.00 / month');
    expect(page).toContain('page@example.com');
    expect(page).toContain('<button type="submit">Pay</button>');
    expect(page).toContain('<a href="http://127.0.0.1:3000/plans">Cancel</a>');

    const paid = await fetch(session.url!, { method: 'POST', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:3000/done?session=${session.id}`);
    const after = await (await fetch(session.url!)).text();
    expect(after).toContain('This checkout session is complete.');
    expect(after).not.toContain('Pay</button>');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('complete');
  });

  it('makes a trialing subscription with the discount, a zero invoice, and signed events in Stripe’s order', async () => {
    const code = uniqueCode('TRIAL');
    const promo = fake.addPromotionCode({ code, percentOff: 20 });
    const from = fake.deliveries.length;
    const { session, subscription, item, customer } = await subscribe({
      price: proMonth,
      promotionCode: promo,
      trialDays: 14,
    });

    expect(session).toMatchObject({ status: 'complete', payment_status: 'no_payment_required', customer: customer.id });
    expect(subscription).toMatchObject({ status: 'trialing', customer: customer.id, metadata: { userId: 'user-1' } });
    expect(subscription.trial_end! - subscription.trial_start!).toBe(14 * DAY);
    expect(item.current_period_end).toBe(subscription.trial_end);
    expect(item.price).toMatchObject({ id: proMonth, lookup_key: 'test_pro_month', unit_amount: 1500 });

    const expanded = await stripe.subscriptions.retrieve(subscription.id, { expand: ['discounts', 'latest_invoice'] });
    expect(expanded.discounts[0]).toMatchObject({ object: 'discount', promotion_code: promo });
    const invoice = expanded.latest_invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_create', status: 'paid', amount_paid: 0 });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(fake.state.promotionCodes.get(promo)!.times_redeemed).toBe(1);

    expect(typesSince(from)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    const received = receiver.received.slice(-3);
    const verified = received.map((r) => stripe.webhooks.constructEvent(r.payload, r.signature, fake.webhookSecret));
    expect(verified.map((e) => e.type)).toEqual(typesSince(from));
    expect(verified[0]).toMatchObject({
      api_version: Stripe.API_VERSION,
      livemode: false,
      data: { object: { id: subscription.id } },
    });
    expect(() => stripe.webhooks.constructEvent(received[0]!.payload, received[0]!.signature, 'whsec_wrong')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it('charges the discounted amount at once without a trial, for a month', async () => {
    const promo = fake.addPromotionCode({ code: uniqueCode('SEATS'), percentOff: 20 });
    const { session, subscription, item } = await subscribe({ price: teamMonth, quantity: 2, promotionCode: promo });
    expect(session.payment_status).toBe('paid');
    expect(subscription.status).toBe('active');
    expect(item.quantity).toBe(2);
    const periodEnd = new Date(item.current_period_start * 1000);
    periodEnd.setUTCMonth(periodEnd.getUTCMonth() + 1);
    expect(Math.abs(item.current_period_end - periodEnd.getTime() / 1000)).toBeLessThanOrEqual(3 * DAY);
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(invoice).toMatchObject({ amount_due: 3200, amount_paid: 3200, subtotal: 4000, currency: 'usd' });
    expect(invoice.total_discount_amounts![0]!.amount).toBe(800);
  });

  it('refuses expired, used-up and deactivated promotion codes, and lists them inactive', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const bad = [
      fake.addPromotionCode({ code: uniqueCode('OLD'), percentOff: 10, expiresAt: past }),
      fake.addPromotionCode({ code: uniqueCode('USED'), percentOff: 10, maxRedemptions: 1, timesRedeemed: 1 }),
      fake.addPromotionCode({ code: uniqueCode('OFF'), amountOff: 500, active: false }),
    ];
    for (const promotion_code of bad) {
      const error = await stripe.checkout.sessions
        .create({
          mode: 'subscription',
          line_items: [{ price: proMonth, quantity: 1 }],
          discounts: [{ promotion_code }],
          success_url: 'http://127.0.0.1:3000/done',
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect(error).toMatchObject({ statusCode: 400, param: 'discounts[0][promotion_code]' });
    }
    const code = fake.state.promotionCodes.get(bad[0]!)!.code;
    expect((await stripe.promotionCodes.list({ code, active: true })).data).toEqual([]);
    expect((await stripe.promotionCodes.list({ code })).data[0]).toMatchObject({ id: bad[0], active: false });
  });

  it('finds a promotion code by its code, with its coupon expanded', async () => {
    const coupon = await stripe.coupons.create({ amount_off: 300, currency: 'usd', duration: 'once' });
    const promo = await stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'SPRING3',
    });
    const found = await stripe.promotionCodes.list({ code: 'spring3', expand: ['data.promotion.coupon'] });
    expect(found.data.map((p) => p.id)).toEqual([promo.id]);
    expect(found.data[0]!.promotion.coupon).toMatchObject({ id: coupon.id, amount_off: 300, duration: 'once' });
  });

  it('expires an unpaid session after a day, which its page then says', async () => {
    let clock = Date.now();
    const timed = await startFakeStripe({ now: () => clock });
    const price = timed.addPrice({ lookupKey: 'x', unitAmount: 100, interval: 'month' });
    const session = await sdk(timed.secretKey, timed.port).checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      success_url: 'http://127.0.0.1:3000/done',
    });
    clock += 25 * 3600 * 1000;
    const page = await (await fetch(`${timed.url}/pay/${session.id}`)).text();
    expect(page).toContain('This checkout session has expired.');
    expect(page).not.toContain('Pay</button>');
    await expect(timed.completeCheckout(session.id)).rejects.toThrow(/expired/);
    await timed.close();
  });
});

describe('subscription changes', () => {
  it('changes the price and quantity, invoicing the proration at once, with the former values in the event', async () => {
    const { subscription, item } = await subscribe({ price: proMonth });
    const from = fake.deliveries.length;
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: teamMonth, quantity: 3 }],
      proration_behavior: 'always_invoice',
      metadata: { seats: '3' },
    });
    expect(updated.items.data[0]).toMatchObject({
      quantity: 3,
      price: { id: teamMonth, lookup_key: 'test_team_month' },
    });
    expect(updated.metadata).toEqual({ userId: 'user-1', seats: '3' });
    expect(typesSince(from)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    const previous = lastEvent('customer.subscription.updated').data.previous_attributes;
    expect(previous.items.data[0]).toMatchObject({ quantity: 1, price: { id: proMonth } });
    const invoice = lastEvent('invoice.paid').data.object;
    expect(invoice).toMatchObject({ billing_reason: 'subscription_update', status: 'paid' });
    expect(invoice.amount_paid).toBeGreaterThan(4000); // 3 × 2000 less the unused 1500, near a whole month left

    const yearly = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: plusYear, quantity: 1 }],
    });
    const year = yearly.items.data[0]!;
    expect(year.current_period_end - year.current_period_start).toBeGreaterThanOrEqual(365 * DAY);
  });

  it('cancels at the period end, then ends there with a deleted event, and refuses changes afterwards', async () => {
    const { subscription, item, customer } = await subscribe({ price: proMonth });
    const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: item.current_period_end,
    });
    expect(lastEvent('customer.subscription.updated').data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
    });

    await fake.advanceToPeriodEnd(subscription.id);
    const ended = await stripe.subscriptions.retrieve(subscription.id);
    expect(ended).toMatchObject({ status: 'canceled', ended_at: item.current_period_end });
    expect(lastEvent('customer.subscription.deleted').data.object.id).toBe(subscription.id);
    await expect(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false })).rejects.toBeInstanceOf(
      Stripe.errors.StripeInvalidRequestError,
    );
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    expect((await stripe.subscriptions.list({ customer: customer.id, status: 'all' })).data).toHaveLength(1);
  });

  it('renews with a paid invoice for the next period, then a failed payment leaves it past_due', async () => {
    const promo = fake.addPromotionCode({ code: uniqueCode('RENEW'), amountOff: 500 });
    const { subscription, item } = await subscribe({ price: proMonth, promotionCode: promo });
    await fake.renew(subscription.id);
    const renewed = lastEvent('invoice.paid').data.object;
    expect(renewed).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 1000, status: 'paid' });
    expect(renewed.period_end).toBe(item.current_period_end); // the period before the invoice, as Stripe has it
    expect(renewed.lines.data[0].period.start).toBe(item.current_period_end);

    const from = fake.deliveries.length;
    await fake.renew(subscription.id, { fail: true });
    expect(typesSince(from)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due');
    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    expect(invoices.data.map((i) => [i.billing_reason, i.status, i.amount_paid])).toEqual([
      ['subscription_cycle', 'open', 0],
      ['subscription_cycle', 'paid', 1000],
      ['subscription_create', 'paid', 1000],
    ]);
  });

  it('cancels at once through the API', async () => {
    const { subscription } = await subscribe({ price: proMonth });
    const canceled = await stripe.subscriptions.cancel(subscription.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      ended_at: expect.any(Number),
      canceled_at: expect.any(Number),
    });
    expect(lastEvent('customer.subscription.deleted').data.object.status).toBe('canceled');
  });
});

describe('webhook deliveries and the billing portal', () => {
  it('holds events without a URL, and keeps failed deliveries for redeliver', async () => {
    const { subscription } = await subscribe({ price: proMonth });
    const from = fake.deliveries.length;
    fake.setWebhookUrl(null);
    await fake.cancelNow(subscription.id);
    expect(fake.deliveries.length).toBe(from);
    expect(fake.events.at(-1)!.type).toBe('customer.subscription.deleted');

    fake.setWebhookUrl(receiver.url);
    receiver.endpoint.status = 500;
    expect(await fake.redeliver()).toEqual([500]);
    receiver.endpoint.status = 200;
    expect(await fake.redeliver()).toEqual([200]);
    expect(await fake.redeliver()).toEqual([]);
    expect(fake.deliveries.slice(from).map((d) => d.status)).toEqual([500, 200]);
  });

  it('signs a crafted event the SDK accepts, and one too old it refuses', async () => {
    const event = fake.event('invoice.payment_failed', { id: 'in_x', object: 'invoice' }, { created: 1_700_000_000 });
    expect(await fake.deliver(event)).toBe(200);
    const { payload, signature } = receiver.received.at(-1)!;
    expect(stripe.webhooks.constructEvent(payload, signature, fake.webhookSecret)).toMatchObject({
      id: event.id,
      created: 1_700_000_000,
    });
    const stale = fake.sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => stripe.webhooks.constructEvent(payload, stale, fake.webhookSecret)).toThrow(/tolerance/);
  });

  it('shows the customer’s invoices in a test billing portal with a way back', async () => {
    const { customer } = await subscribe({ price: teamMonth, quantity: 2 });
    const portal = await stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://127.0.0.1:3000/plans',
    });
    expect(portal).toMatchObject({
      object: 'billing_portal.session',
      customer: customer.id,
      url: `${fake.url}/portal/${portal.id}`,
    });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('Test billing portal');
    expect(page).toMatch(/<td>\d{4}-\d\d-\d\d<\/td><td>\$40\.00<\/td><td>paid<\/td>/);
    expect(page).toContain('<a href="http://127.0.0.1:3000/plans">Return</a>');
  });
});
