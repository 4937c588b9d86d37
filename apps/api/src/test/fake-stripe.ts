import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  DEFAULT_CURRENCY,
  DEFAULT_PLAN_PRICES,
  DEFAULT_STUDENT_DISCOUNT_PERCENT,
  PAID_PLAN_IDS,
  PLAN_DURATIONS,
  priceLookupKey,
} from '@parley/contract';
import Stripe from 'stripe';
import { cliArg, cliFlag, cliPort } from './cli.js';

/**
 * Stripe's REST API on loopback, for the official `stripe` package pointed at it unchanged
 * (`new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`): products, prices, customers, coupons and
 * promotion codes, Checkout Sessions (subscription mode) with a hosted "Test checkout" page at /pay/<id>,
 * subscriptions, invoices, and a "Test billing portal" page at /portal/<id>. Events are signed like Stripe's and
 * POSTed to the webhook URL.
 *
 * Unlike Stripe, and so that tests are deterministic: events are delivered one at a time, in Stripe's usual order,
 * before the API call (or the Pay button's redirect) that caused them answers. Like Stripe, although it surprises:
 * a subscription in trial has the trial as its current period (on its item); an invoice's own period_start and
 * period_end are the period *before* it (both its creation for a first invoice), the service period being on its
 * line (`lines.data[0].period`); related objects are ids unless expanded (`latest_invoice`, `discounts`,
 * `discounts.source.coupon`, `data.promotion.coupon`, `items.data.price.product`…).
 *
 * By hand: `node --import tsx apps/api/src/test/fake-stripe.ts [--port 12111] [--webhook <url>] [--no-seed]`.
 */
export type StripeObject = Record<string, any>;
export type StripeEvent = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: string;
  data: { object: any; previous_attributes?: any };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
};
type Interval = 'month' | 'year';
type Collection =
  | 'customers'
  | 'products'
  | 'prices'
  | 'checkoutSessions'
  | 'subscriptions'
  | 'invoices'
  | 'promotionCodes'
  | 'coupons'
  | 'discounts'
  | 'portalSessions';

export type FakeStripe = {
  url: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  /** null: events are held (recorded in `events`, not delivered) until `redeliver()`. */
  setWebhookUrl(url: string | null): void;
  /** A recurring price, its product reused by name; a price that had the lookup key loses it. */
  addPrice(opts: {
    lookupKey: string;
    unitAmount: number;
    currency?: string;
    interval: Interval;
    productName?: string;
  }): string;
  /** A coupon (forever by default) and its code, unchecked: an expired or used-up code can be made on purpose. */
  addPromotionCode(opts: {
    code: string;
    percentOff?: number;
    amountOff?: number;
    currency?: string;
    duration?: 'once' | 'forever' | 'repeating';
    durationInMonths?: number;
    active?: boolean;
    expiresAt?: number;
    maxRedemptions?: number;
    timesRedeemed?: number;
  }): string;
  /** What the Pay button does. */
  completeCheckout(sessionId: string): Promise<void>;
  /** The next period with a paid invoice, or with `fail` an open one and the subscription past_due. */
  renew(subscriptionId: string, opts?: { fail?: boolean }): Promise<void>;
  /** The current period ends: canceled when cancel_at_period_end (deleted event), else renewed. */
  advanceToPeriodEnd(subscriptionId: string): Promise<void>;
  cancelNow(subscriptionId: string): Promise<void>;
  /** Builds and records an event, without delivering it. */
  event(type: string, object: unknown, opts?: { created?: number; previousAttributes?: unknown }): StripeEvent;
  /** A Stripe-Signature header; the timestamp defaults to the wall clock, which receivers check against. */
  sign(payload: string, opts?: { secret?: string; timestamp?: number }): string;
  /** POSTs the event to the webhook URL: the answer's status, 0 when unreachable. A failure is kept for redeliver. */
  deliver(event: StripeEvent): Promise<number>;
  /** Delivers the held events and those whose delivery failed (5xx or unreachable), oldest first. */
  redeliver(): Promise<number[]>;
  /** Every event made, delivered or not. */
  events: StripeEvent[];
  deliveries: { event: StripeEvent; status: number }[];
  state: Record<Collection, Map<string, StripeObject>>;
  close(): Promise<void>;
};

export type FakeStripeOptions = {
  port?: number;
  secretKey?: string;
  webhookSecret?: string;
  webhookUrl?: string;
  /** The fake's clock, in milliseconds like Date.now (seconds are understood too). */
  now?: () => number;
};

// --- Wire format and small helpers ----------------------------------------------------------------------------

/** Stripe's form encoding (`line_items[0][price]=x&expand[]=y`): nested objects, index-only objects as arrays. */
export function parseForm(text: string): StripeObject {
  const root: StripeObject = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = [key.replace(/\[.*$/, ''), ...Array.from(key.matchAll(/\[([^\]]*)\]/g), (m) => m[1]!)];
    if (path.some((seg) => seg === '__proto__' || seg === 'constructor' || seg === 'prototype')) continue;
    let node = root;
    path.forEach((seg, i) => {
      const k = seg === '' ? String(Object.keys(node).length) : seg;
      if (i === path.length - 1) node[k] = value;
      else node = node[k] = typeof node[k] === 'object' ? node[k] : {};
    });
  }
  const arrays = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const entries = Object.entries(v);
    return entries.length && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, x]) => arrays(x))
      : Object.fromEntries(entries.map(([k, x]) => [k, arrays(x)]));
  };
  return arrays(root) as StripeObject;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly type = 'invalid_request_error',
  ) {
    super(message);
  }
}
const invalid = (message: string, param?: string, code?: string) => new ApiError(400, message, code, param);
const missing = (id: string, what: string, param = 'id') =>
  new ApiError(404, `No such ${what}: '${id}'`, 'resource_missing', param);
const required = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');

function int(value: unknown, param: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!Number.isInteger(Number(value))) throw invalid(`Invalid integer: ${String(value)}`, param);
  return Number(value);
}
const bool = (value: unknown) => (value === undefined || value === '' ? undefined : value === 'true');
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value ? [String(value)] : []);
/** Metadata as Stripe merges it: an empty value removes the key. */
function metadata(current: Record<string, string>, patch: unknown) {
  const next = { ...current };
  for (const [k, v] of Object.entries((patch ?? {}) as Record<string, string>)) {
    if (v === '') delete next[k];
    else next[k] = String(v);
  }
  return next;
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const newId = (prefix: string, length = 24) =>
  prefix + Array.from(randomBytes(length), (b) => ALNUM[b % ALNUM.length]).join('');

/** A month or a year later, on the anchor's day of the month where the month has it (Jan 31 → Feb 28 → Mar 31). */
function addInterval(seconds: number, interval: Interval, anchorDay: number) {
  const d = new Date(seconds * 1000);
  const year = d.getUTCFullYear() + (interval === 'year' ? 1 : 0);
  const month = d.getUTCMonth() + (interval === 'month' ? 1 : 0);
  d.setUTCFullYear(year, month, Math.min(anchorDay, new Date(Date.UTC(year, month + 1, 0)).getUTCDate()));
  return Math.floor(d.getTime() / 1000);
}
const dayOf = (seconds: number) => new Date(seconds * 1000).getUTCDate();

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
const htmlPage = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
  '<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem}' +
  'dt{font-weight:600}td,th{padding:.25rem .75rem;text-align:left}</style></head>' +
  `<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;

async function readBody(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// --- The fake --------------------------------------------------------------------------------------------------

export async function startFakeStripe(opts: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = opts.secretKey ?? 'sk_test_parley';
  const webhookSecret = opts.webhookSecret ?? 'whsec_parley';
  const clock = opts.now ?? Date.now;
  const now = () => Math.floor(clock() > 1e11 ? clock() / 1000 : clock());
  let webhookUrl: string | null = opts.webhookUrl ?? null;
  let origin = '';

  const collections: Collection[] = [
    ...['customers', 'products', 'prices', 'checkoutSessions', 'subscriptions'],
    ...['invoices', 'promotionCodes', 'coupons', 'discounts', 'portalSessions'],
  ] as Collection[];
  const state = Object.fromEntries(collections.map((c) => [c, new Map()])) as FakeStripe['state'];
  const { customers, products, prices, checkoutSessions, invoices, promotionCodes, coupons } = state;
  /** What a Checkout Session keeps for its subscription and Stripe does not show. */
  type CheckoutPlan = { price: string; quantity: number; trialDays: number | null; metadata: Record<string, string> };
  const checkoutPlans = new Map<string, CheckoutPlan>();
  const events: StripeEvent[] = [];
  const deliveries: FakeStripe['deliveries'] = [];
  let undelivered: StripeEvent[] = [];
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();

  const base = (prefix: string, object: string, p: StripeObject = {}) => ({
    id: prefix ? newId(prefix) : newId('', 8).toUpperCase(),
    object,
    created: now(),
    livemode: false,
    metadata: metadata({}, p.metadata),
  });
  const put = <T extends { id: string }>(collection: Collection, obj: T) => (state[collection].set(obj.id, obj), obj);
  const findById = (id: string) => collections.map((c) => state[c].get(id)).find(Boolean);
  const get = (collection: Collection, id: string, what: string, param = 'id') => {
    const found = state[collection].get(id);
    if (!found) throw missing(id, what, param);
    return found;
  };

  // --- Catalogue, customers, coupons -----------------------------------------------------------------------------

  function createProduct(p: StripeObject) {
    if (!p.name) throw required('name');
    const product = { ...base('prod_', 'product', p), active: bool(p.active) ?? true, name: String(p.name) };
    return put('products', { ...product, description: p.description || null, updated: product.created });
  }

  function createPrice(p: StripeObject) {
    const product = p.product_data ? createProduct(p.product_data) : get('products', p.product, 'product', 'product');
    if (!p.currency) throw required('currency');
    const unitAmount = int(p.unit_amount, 'unit_amount');
    if (unitAmount === undefined) throw required('unit_amount');
    const interval = p.recurring?.interval;
    if (p.recurring && interval !== 'month' && interval !== 'year')
      throw invalid('recurring[interval] must be month or year here.', 'recurring[interval]');
    const holder = p.lookup_key ? [...prices.values()].find((x) => x.lookup_key === p.lookup_key) : undefined;
    if (holder && !bool(p.transfer_lookup_key))
      throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, 'lookup_key');
    if (holder) holder.lookup_key = null;
    return put('prices', {
      ...base('price_', 'price', p),
      active: bool(p.active) ?? true,
      currency: String(p.currency).toLowerCase(),
      lookup_key: p.lookup_key || null,
      product: product.id,
      recurring: interval ? { interval, interval_count: 1, usage_type: 'licensed' } : null,
      type: interval ? 'recurring' : 'one_time',
      unit_amount: unitAmount,
    });
  }

  const createCustomer = (p: StripeObject) =>
    put('customers', { ...base('cus_', 'customer', p), email: p.email || null, name: p.name || null });

  function createCoupon(p: StripeObject) {
    const percentOff = p.percent_off ? Number(p.percent_off) : null;
    const amountOff = int(p.amount_off, 'amount_off') ?? null;
    if ((percentOff === null) === (amountOff === null))
      throw invalid('Pass exactly one of percent_off and amount_off.', 'percent_off');
    if (amountOff !== null && !p.currency) throw invalid('amount_off needs a currency.', 'currency');
    return put('coupons', {
      ...base('', 'coupon', p),
      ...(p.id ? { id: String(p.id) } : {}),
      amount_off: amountOff,
      currency: amountOff === null ? null : String(p.currency).toLowerCase(),
      duration: p.duration ?? 'once',
      duration_in_months: int(p.duration_in_months, 'duration_in_months') ?? null,
      max_redemptions: int(p.max_redemptions, 'max_redemptions') ?? null,
      name: p.name || null,
      percent_off: percentOff,
      redeem_by: int(p.redeem_by, 'redeem_by') ?? null,
      times_redeemed: 0,
      valid: true,
    });
  }

  function createPromotionCode(p: StripeObject) {
    if (p.promotion?.type !== 'coupon') throw invalid('promotion[type] must be coupon.', 'promotion[type]');
    const coupon = get('coupons', p.promotion.coupon, 'coupon', 'promotion[coupon]');
    const code = String(p.code || newId('', 8).toUpperCase());
    if ([...promotionCodes.values()].some((x) => x.active && x.code.toLowerCase() === code.toLowerCase()))
      throw invalid(`An active promotion code with \`code: ${code}\` already exists.`, 'code');
    return put('promotionCodes', {
      ...base('promo_', 'promotion_code', p),
      active: bool(p.active) ?? true,
      code,
      customer: p.customer || null,
      expires_at: int(p.expires_at, 'expires_at') ?? null,
      max_redemptions: int(p.max_redemptions, 'max_redemptions') ?? null,
      promotion: { type: 'coupon', coupon: coupon.id },
      times_redeemed: 0,
    });
  }

  /** Stripe turns codes and coupons inactive by itself once expired or used up, and sessions expired. */
  function refresh() {
    const t = now();
    const usedUp = (x: StripeObject) => x.max_redemptions != null && x.times_redeemed >= x.max_redemptions;
    for (const c of coupons.values()) if ((c.redeem_by != null && c.redeem_by <= t) || usedUp(c)) c.valid = false;
    for (const p of promotionCodes.values())
      if ((p.expires_at != null && p.expires_at <= t) || usedUp(p) || !coupons.get(p.promotion.coupon)?.valid)
        p.active = false;
    for (const s of checkoutSessions.values())
      if (s.status === 'open' && s.expires_at <= t) Object.assign(s, { status: 'expired', url: null });
  }

  // --- Money -----------------------------------------------------------------------------------------------------

  const itemOf = (sub: StripeObject): StripeObject => sub.items.data[0];
  const amountOf = (item: StripeObject) => item.price.unit_amount * item.quantity;
  function discountAmount(coupon: StripeObject | undefined, subtotal: number, currency: string) {
    if (!coupon) return 0;
    if (coupon.percent_off != null) return Math.round((subtotal * coupon.percent_off) / 100);
    return coupon.currency === currency ? Math.min(coupon.amount_off, subtotal) : 0;
  }

  /** An invoice for the subscription's item, less its discount while the discount lasts (once: this invoice). */
  function createInvoice(
    sub: StripeObject,
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update',
    o: { paid: boolean; subtotal: number; start: number; end: number; before?: [number, number] },
  ) {
    const t = now();
    const item = itemOf(sub);
    const currency = item.price.currency;
    const discount = state.discounts.get(sub.discounts[0]);
    const current = discount && (discount.end == null || discount.end > t) ? discount : undefined;
    const coupon = coupons.get(current?.source.coupon);
    const off = discountAmount(coupon, o.subtotal, currency);
    if (current && off > 0 && coupon?.duration === 'once') [sub.discounts, current.end] = [[], t];
    const total = o.subtotal - off;
    const id = newId('in_');
    const discountAmounts = off ? [{ amount: off, discount: current!.id }] : [];
    const line = {
      id: newId('il_'),
      object: 'line_item',
      amount: o.subtotal,
      currency,
      description: `${item.quantity} × ${products.get(item.price.product)?.name}`,
      discount_amounts: discountAmounts,
      invoice: id,
      parent: {
        type: 'subscription_item_details',
        subscription_item_details: {
          subscription: sub.id,
          subscription_item: item.id,
          proration: reason === 'subscription_update',
        },
      },
      period: { start: o.start, end: o.end },
      pricing: { type: 'price_details', price_details: { price: item.price.id, product: item.price.product } },
      quantity: item.quantity,
    };
    const invoice = put('invoices', {
      ...base('', 'invoice'),
      id,
      customer: sub.customer,
      customer_email: customers.get(sub.customer)?.email ?? null,
      status: o.paid ? 'paid' : 'open',
      billing_reason: reason,
      currency,
      subtotal: o.subtotal,
      total,
      total_discount_amounts: discountAmounts,
      discounts: off ? [current!.id] : [],
      amount_due: total,
      amount_paid: o.paid ? total : 0,
      amount_remaining: o.paid ? 0 : total,
      attempt_count: 1,
      next_payment_attempt: o.paid ? null : t + 3 * 86400,
      period_start: o.before?.[0] ?? t,
      period_end: o.before?.[1] ?? t,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      lines: { object: 'list', data: [line], has_more: false, total_count: 1, url: `/v1/invoices/${id}/lines` },
      status_transitions: { finalized_at: t, paid_at: o.paid ? t : null },
    });
    sub.latest_invoice = id;
    return invoice;
  }

  // --- Checkout -------------------------------------------------------------------------------------------------

  function activePromotionCode(id: string, param: string) {
    const promo = get('promotionCodes', id, 'promotion code', param);
    if (promo.active) return promo;
    const expired = promo.expires_at != null && promo.expires_at <= now();
    const why = expired ? 'it has expired' : 'it is inactive or used up';
    throw invalid(`This promotion code cannot be redeemed: ${why}.`, param, expired ? 'coupon_expired' : undefined);
  }

  /** The coupon a session's discount gives, and the promotion code it came through. */
  function sessionDiscount(session: StripeObject) {
    const chosen = session.discounts[0];
    const promo = chosen?.promotion_code ? promotionCodes.get(chosen.promotion_code) : undefined;
    return { promo, coupon: coupons.get(promo?.promotion.coupon ?? chosen?.coupon) };
  }

  function createCheckoutSession(p: StripeObject) {
    if (p.mode !== 'subscription') throw invalid('This fake supports mode=subscription only.', 'mode');
    if (!p.success_url) throw required('success_url');
    const line = p.line_items?.[0];
    if (!line?.price) throw required('line_items');
    const price = get('prices', line.price, 'price', 'line_items[0][price]');
    if (!price.active)
      throw invalid('The price specified is inactive. This field only accepts active prices.', 'line_items[0][price]');
    if (!price.recurring) throw invalid('A subscription needs a recurring price.', 'line_items[0][price]');
    if (p.customer && p.customer_email)
      throw invalid('You may only specify one of these parameters: customer, customer_email.', 'customer');
    if (p.customer) get('customers', p.customer, 'customer', 'customer');
    const wanted = p.discounts?.[0];
    if (wanted && bool(p.allow_promotion_codes))
      throw invalid('You may only specify one of these parameters: allow_promotion_codes, discounts.', 'discounts');
    const promo = wanted?.promotion_code
      ? activePromotionCode(wanted.promotion_code, 'discounts[0][promotion_code]')
      : undefined;
    const couponId = promo?.promotion.coupon ?? wanted?.coupon;
    const coupon = couponId ? get('coupons', couponId, 'coupon', 'discounts[0][coupon]') : undefined;
    if (coupon && !coupon.valid) throw invalid('This coupon is no longer valid.', 'discounts[0]', 'coupon_expired');
    const quantity = int(line.quantity, 'line_items[0][quantity]') ?? 1;
    if (quantity < 1) throw invalid('Quantity must be at least 1.', 'line_items[0][quantity]');
    const trialDays = int(p.subscription_data?.trial_period_days, 'subscription_data[trial_period_days]') || null;
    const subtotal = price.unit_amount * quantity;
    const session = put('checkoutSessions', {
      ...base('cs_test_', 'checkout.session', p),
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: '',
      customer: p.customer || null,
      customer_email: p.customer_email || null,
      customer_details: null,
      client_reference_id: p.client_reference_id || null,
      success_url: String(p.success_url),
      cancel_url: p.cancel_url || null,
      expires_at: now() + 24 * 3600,
      allow_promotion_codes: bool(p.allow_promotion_codes) ?? null,
      discounts: coupon ? [{ coupon: promo ? null : coupon.id, promotion_code: promo?.id ?? null }] : [],
      currency: price.currency,
      amount_subtotal: subtotal,
      amount_total: trialDays ? 0 : subtotal - discountAmount(coupon, subtotal, price.currency),
      subscription: null,
      invoice: null,
    });
    session.url = `${origin}/pay/${session.id}`;
    const subscriptionMetadata = metadata({}, p.subscription_data?.metadata);
    checkoutPlans.set(session.id, { price: price.id, quantity, trialDays, metadata: subscriptionMetadata });
    return session;
  }

  /** The Pay button: the subscription, its discount and first invoice, then the events. */
  async function completeCheckout(sessionId: string, enteredCode?: string) {
    refresh();
    const session = get('checkoutSessions', sessionId, 'checkout.session');
    if (session.status !== 'open') throw invalid(`This Checkout Session is ${session.status}.`);
    if (enteredCode) {
      const found = [...promotionCodes.values()].find((x) => x.code.toLowerCase() === enteredCode.toLowerCase());
      if (!found) throw invalid('This code is invalid.', 'promotion_code');
      session.discounts = [{ coupon: null, promotion_code: activePromotionCode(found.id, 'promotion_code').id }];
    }
    const plan = checkoutPlans.get(sessionId)!;
    const price = prices.get(plan.price)!;
    const t = now();
    const customer = session.customer ?? createCustomer({ email: session.customer_email }).id;
    const trialEnd = plan.trialDays ? t + plan.trialDays * 86400 : null;
    const sub: StripeObject = put('subscriptions', {
      ...base('sub_', 'subscription'),
      metadata: plan.metadata,
      customer,
      status: trialEnd ? 'trialing' : 'active',
      currency: price.currency,
      billing_cycle_anchor: trialEnd ?? t,
      start_date: t,
      trial_start: trialEnd ? t : null,
      trial_end: trialEnd,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      ended_at: null,
      discounts: [] as string[],
      items: {},
      latest_invoice: null,
    });
    const item = {
      ...base('si_', 'subscription_item'),
      price,
      quantity: plan.quantity,
      subscription: sub.id,
      current_period_start: t,
      current_period_end: trialEnd ?? addInterval(t, price.recurring.interval, dayOf(t)),
    };
    const itemsUrl = `/v1/subscription_items?subscription=${sub.id}`;
    sub.items = { object: 'list', data: [item], has_more: false, total_count: 1, url: itemsUrl };

    const { promo, coupon } = sessionDiscount(session);
    if (coupon) {
      const months = coupon.duration === 'repeating' ? (coupon.duration_in_months ?? 1) : 0;
      let end: number | null = months ? t : null;
      for (let i = 0; i < months; i += 1) end = addInterval(end!, 'month', dayOf(t));
      const discount = put('discounts', {
        ...base('di_', 'discount'),
        checkout_session: session.id,
        customer,
        promotion_code: promo?.id ?? null,
        source: { type: 'coupon', coupon: coupon.id },
        start: t,
        end,
        subscription: sub.id,
      });
      sub.discounts = [discount.id];
      coupon.times_redeemed += 1;
      if (promo) promo.times_redeemed += 1;
      refresh();
    }
    const span = { start: item.current_period_start, end: item.current_period_end };
    const invoice = createInvoice(sub, 'subscription_create', {
      paid: true,
      subtotal: trialEnd ? 0 : amountOf(item),
      ...span,
    });
    const { email = session.customer_email, name = null } = customers.get(customer) ?? {};
    Object.assign(session, {
      status: 'complete',
      payment_status: trialEnd ? 'no_payment_required' : 'paid',
      customer,
      customer_details: { email, name },
      subscription: sub.id,
      invoice: invoice.id,
      url: null,
    });
    await emit('customer.subscription.created', sub);
    await emit('invoice.paid', invoice);
    await emit('checkout.session.completed', session);
  }

  // --- Subscriptions --------------------------------------------------------------------------------------------

  /** Top-level fields that changed, with their former values (Stripe's previous_attributes). */
  function changedFrom(before: StripeObject, after: StripeObject) {
    const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    return Object.fromEntries(changed.map((k) => [k, before[k]]));
  }

  async function updateSubscription(id: string, p: StripeObject) {
    const sub = get('subscriptions', id, 'subscription');
    const fields = Object.keys(p).filter((k) => k !== 'expand' && k !== 'metadata' && k !== 'cancellation_details');
    if (sub.status === 'canceled' && fields.length)
      throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
    const before = structuredClone(sub);
    const t = now();
    const item = itemOf(sub);
    sub.metadata = metadata(sub.metadata, p.metadata);
    const cancelAtEnd = bool(p.cancel_at_period_end);
    if (cancelAtEnd !== undefined) {
      Object.assign(sub, { cancel_at_period_end: cancelAtEnd, canceled_at: cancelAtEnd ? t : null });
      sub.cancellation_details.reason = cancelAtEnd ? 'cancellation_requested' : null;
    }
    let charge = 0;
    const change = p.items?.[0];
    if (change) {
      if (change.id !== item.id)
        throw change.id
          ? missing(change.id, 'subscription item', 'items[0][id]')
          : invalid('This fake changes the subscription item in place: pass items[0][id].', 'items[0][id]');
      const [oldAmount, oldInterval] = [amountOf(item), item.price.recurring.interval];
      if (change.price) {
        item.price = get('prices', change.price, 'price', 'items[0][price]');
        if (!item.price.active) throw invalid('The price specified is inactive.', 'items[0][price]');
      }
      item.quantity = int(change.quantity, 'items[0][quantity]') ?? item.quantity;
      // Prorations: the unused part of the period is credited, and charged at the new amount.
      const proration = p.proration_behavior ?? 'create_prorations';
      const { current_period_start: start, current_period_end: end } = item;
      const unused = Math.min(1, Math.max(0, (end - t) / Math.max(1, end - start)));
      const credit = proration === 'none' ? 0 : Math.round(oldAmount * unused);
      const interval = item.price.recurring.interval;
      if (sub.status === 'trialing') charge = 0;
      else if (interval !== oldInterval) {
        // A new interval starts a new billing cycle now, paid at once.
        Object.assign(item, { current_period_start: t, current_period_end: addInterval(t, interval, dayOf(t)) });
        sub.billing_cycle_anchor = t;
        charge = Math.max(0, amountOf(item) - credit);
      } else if (proration === 'always_invoice') charge = Math.max(0, Math.round(amountOf(item) * unused) - credit);
    }
    sub.cancel_at = sub.cancel_at_period_end ? item.current_period_end : null;
    const span = { start: t, end: item.current_period_end };
    const invoice = charge
      ? createInvoice(sub, 'subscription_update', { paid: true, subtotal: charge, ...span })
      : null;
    const previous = changedFrom(before, sub);
    if (Object.keys(previous).length) await emit('customer.subscription.updated', sub, previous);
    if (invoice) await emit('invoice.paid', invoice);
    return sub;
  }

  async function cancel(sub: StripeObject, at: number) {
    if (sub.status === 'canceled') throw invalid(`This subscription is already canceled: '${sub.id}'.`);
    Object.assign(sub, { status: 'canceled', ended_at: at, canceled_at: sub.canceled_at ?? at, cancel_at: null });
    sub.cancellation_details.reason ??= 'cancellation_requested';
    await emit('customer.subscription.deleted', sub);
    return sub;
  }

  /** The current period ends: canceled if so asked, else the next period and its invoice, paid or failed. */
  async function advance(id: string, fail = false) {
    const sub = get('subscriptions', id, 'subscription');
    if (sub.status === 'canceled') throw new Error(`subscription ${id} is canceled`);
    const item = itemOf(sub);
    if (sub.cancel_at_period_end) return void (await cancel(sub, item.current_period_end));
    const before = structuredClone(sub);
    const previousPeriod: [number, number] = [item.current_period_start, item.current_period_end];
    const start = item.current_period_end;
    const end = addInterval(start, item.price.recurring.interval, dayOf(sub.billing_cycle_anchor));
    Object.assign(item, { current_period_start: start, current_period_end: end });
    sub.status = fail ? 'past_due' : 'active';
    const o = { paid: !fail, subtotal: amountOf(item), start, end, before: previousPeriod };
    const invoice = createInvoice(sub, 'subscription_cycle', o);
    await emit('customer.subscription.updated', sub, changedFrom(before, sub));
    await emit(fail ? 'invoice.payment_failed' : 'invoice.paid', invoice);
  }

  // --- Events and webhooks --------------------------------------------------------------------------------------

  function makeEvent(type: string, object: unknown, o: { created?: number; previousAttributes?: unknown } = {}) {
    const previous = o.previousAttributes ? { previous_attributes: structuredClone(o.previousAttributes) } : {};
    const event: StripeEvent = {
      id: newId('evt_'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: o.created ?? now(),
      type,
      data: { object: structuredClone(object), ...previous },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
    };
    events.push(event);
    return event;
  }

  function sign(payload: string, o: { secret?: string; timestamp?: number } = {}) {
    const timestamp = o.timestamp ?? Math.floor(Date.now() / 1000);
    const hmac = createHmac('sha256', o.secret ?? webhookSecret).update(`${timestamp}.${payload}`);
    return `t=${timestamp},v1=${hmac.digest('hex')}`;
  }

  async function deliver(event: StripeEvent) {
    if (!webhookUrl) throw new Error('no webhook URL: call setWebhookUrl first');
    const payload = JSON.stringify(event, null, 2);
    let status = 0; // unreachable or too slow
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': sign(payload) },
        body: payload,
        signal: AbortSignal.timeout(10_000),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      // status stays 0
    }
    deliveries.push({ event, status });
    undelivered = undelivered.filter((e) => e !== event);
    if (status === 0 || status >= 500) undelivered.push(event);
    return status;
  }

  async function emit(type: string, object: unknown, previousAttributes?: unknown) {
    const event = makeEvent(type, object, { previousAttributes });
    if (webhookUrl) await deliver(event);
    else undelivered.push(event);
  }

  // --- The REST API ---------------------------------------------------------------------------------------------

  /** Replaces ids with their objects along an `expand` path (`data.product`, `items.data.price.product`). */
  function expand(node: any, path: string[]): void {
    if (Array.isArray(node)) return node.forEach((n) => expand(n, path));
    if (!node || typeof node !== 'object' || path.length === 0) return;
    const [key, ...rest] = path as [string, ...string[]];
    const resolve = (v: unknown) => (typeof v === 'string' && findById(v) ? structuredClone(findById(v)) : v);
    node[key] = Array.isArray(node[key]) ? node[key].map(resolve) : resolve(node[key]);
    expand(node[key], rest);
  }

  /** A list, newest first, with Stripe's limit and starting_after. */
  function list(collection: Collection, url: string, p: StripeObject, keep: (x: StripeObject) => boolean) {
    let data = [...state[collection].values()].reverse().filter(keep);
    if (p.starting_after) data = data.slice(data.findIndex((x) => x.id === p.starting_after) + 1);
    const limit = Math.min(100, Math.max(1, int(p.limit, 'limit') ?? 10));
    return { object: 'list', data: data.slice(0, limit), has_more: data.length > limit, url: `/v1/${url}` };
  }
  /** A list filter: absent, or equal. */
  const is = (filter: unknown, value: unknown) => filter === undefined || filter === '' || filter === value;
  const active = (p: StripeObject, x: StripeObject) => is(bool(p.active), x.active);
  const sameCode = (a: unknown, b: string) => a === undefined || String(a).toLowerCase() === b.toLowerCase();
  const subscriptionStatus = (filter: string | undefined, status: string) =>
    filter === 'all' || (filter ? status === filter : status !== 'canceled');

  const routes: Record<string, (p: StripeObject, id: string) => unknown> = {
    'POST /products': (p) => createProduct(p),
    'GET /products': (p) => list('products', 'products', p, (x) => active(p, x)),
    'GET /products/:id': (_, id) => get('products', id, 'product'),
    'POST /prices': (p) => createPrice(p),
    'GET /prices': (p) =>
      list('prices', 'prices', p, (x) => {
        const keys = strings(p.lookup_keys);
        return active(p, x) && is(p.product, x.product) && (!keys.length || keys.includes(x.lookup_key));
      }),
    'GET /prices/:id': (_, id) => get('prices', id, 'price'),
    'POST /customers': (p) => createCustomer(p),
    'GET /customers': (p) => list('customers', 'customers', p, (x) => is(p.email, x.email)),
    'GET /customers/:id': (_, id) => get('customers', id, 'customer'),
    'POST /coupons': (p) => createCoupon(p),
    'GET /coupons/:id': (_, id) => get('coupons', id, 'coupon'),
    'POST /promotion_codes': (p) => createPromotionCode(p),
    'GET /promotion_codes': (p) =>
      list('promotionCodes', 'promotion_codes', p, (x) => {
        return (
          sameCode(p.code, x.code) && active(p, x) && is(p.coupon, x.promotion.coupon) && is(p.customer, x.customer)
        );
      }),
    'GET /promotion_codes/:id': (_, id) => get('promotionCodes', id, 'promotion code'),
    'POST /checkout/sessions': (p) => createCheckoutSession(p),
    'GET /checkout/sessions/:id': (_, id) => get('checkoutSessions', id, 'checkout.session'),
    'GET /subscriptions': (p) =>
      list('subscriptions', 'subscriptions', p, (x) => {
        return subscriptionStatus(p.status, x.status) && is(p.customer, x.customer) && is(p.price, itemOf(x).price.id);
      }),
    'GET /subscriptions/:id': (_, id) => get('subscriptions', id, 'subscription'),
    'POST /subscriptions/:id': (p, id) => updateSubscription(id, p),
    'DELETE /subscriptions/:id': (_, id) => cancel(get('subscriptions', id, 'subscription'), now()),
    'GET /invoices': (p) =>
      list('invoices', 'invoices', p, (x) => {
        const sub = x.parent.subscription_details.subscription;
        return is(p.customer, x.customer) && is(p.subscription, sub) && is(p.status, x.status);
      }),
    'GET /invoices/:id': (_, id) => get('invoices', id, 'invoice'),
    'POST /billing_portal/sessions': (p) => {
      get('customers', p.customer, 'customer', 'customer');
      const portal = {
        ...base('bps_', 'billing_portal.session'),
        customer: p.customer,
        return_url: p.return_url || null,
      };
      return put('portalSessions', { ...portal, url: `${origin}/portal/${portal.id}` });
    },
  };

  /** An open session can be expired (no payment can complete it any more): `checkout.session.expired`. */
  async function expireCheckoutSession(id: string) {
    const session = get('checkoutSessions', id, 'checkout.session');
    if (session.status !== 'open') throw invalid(`Only Checkout Sessions with a status of open can be expired.`);
    session.status = 'expired';
    await emit('checkout.session.expired', session);
    return session;
  }

  async function api(method: string, path: string, p: StripeObject) {
    refresh();
    const rest = path.slice('/v1'.length);
    const id = decodeURIComponent(rest.slice(rest.lastIndexOf('/') + 1));
    const expiring = method === 'POST' ? /^\/checkout\/sessions\/([^/]+)\/expire$/.exec(rest) : null;
    if (expiring) return structuredClone(await expireCheckoutSession(decodeURIComponent(expiring[1]!)));
    const exact = routes[`${method} ${rest}`];
    const handler = exact ?? routes[`${method} ${rest.slice(0, rest.lastIndexOf('/'))}/:id`];
    if (!handler) throw new ApiError(404, `Unrecognized request URL (${method}: ${path}).`);
    const result = structuredClone(await handler(p, exact ? '' : id));
    for (const e of strings(p.expand)) expand(result, e.split('.'));
    return result;
  }

  const errorBody = (e: ApiError) =>
    JSON.stringify({ error: { type: e.type, message: e.message, code: e.code, param: e.param } });

  async function handleApi(req: IncomingMessage, res: ServerResponse, url: URL, raw: string) {
    const method = req.method ?? 'GET';
    const send = (status: number, body: string, replayed = false) => {
      const headers = { 'content-type': 'application/json', 'request-id': newId('req_', 14) };
      res.writeHead(status, replayed ? { ...headers, 'idempotent-replayed': 'true' } : headers);
      res.end(body);
    };
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${secretKey}` && auth !== `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`) {
      const given = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
      const shown = given && `${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}`;
      const message = shown ? `Invalid API Key provided: ${shown}` : 'You did not provide an API key.';
      return send(401, errorBody(new ApiError(401, message)));
    }
    // Idempotency-Key: the same key and request answer what they answered first; another request is refused.
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    const stored = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (stored && stored.fingerprint !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`;
      return send(400, errorBody(new ApiError(400, message, undefined, undefined, 'idempotency_error')));
    }
    if (stored) return send(stored.status, stored.body, true);
    let [status, body] = [200, ''];
    try {
      body = JSON.stringify(await api(method, url.pathname, parseForm(method === 'POST' ? raw : url.search.slice(1))));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      [status, body] = [e.status, errorBody(e)];
    }
    if (typeof key === 'string') idempotent.set(key, { fingerprint, status, body });
    send(status, body);
  }

  // --- Hosted pages ---------------------------------------------------------------------------------------------

  function payPage(session: StripeObject, error?: string) {
    if (session.status !== 'open') {
      const what = session.status === 'complete' ? 'is complete' : 'has expired';
      return htmlPage('Test checkout', `<p>This checkout session ${what}.</p>`);
    }
    const plan = checkoutPlans.get(session.id)!;
    const price = prices.get(plan.price)!;
    const { promo, coupon } = sessionDiscount(session);
    const [per, currency] = [` / ${price.recurring.interval}`, price.currency];
    const subtotal = price.unit_amount * plan.quantity;
    const total = subtotal - discountAmount(coupon, subtotal, currency);
    const off =
      coupon?.percent_off != null ? `${coupon.percent_off}% off` : `${money(coupon?.amount_off, currency)} off`;
    const rows = [
      ['Product', products.get(price.product)?.name],
      ['Price', money(price.unit_amount, currency) + per],
      ['Quantity', plan.quantity],
      coupon && ['Discount', `${promo?.code ?? coupon.id}: ${off}`],
      plan.trialDays && ['Free trial', `${plan.trialDays} days`],
      ['Total', money(total, currency) + per],
      ['Due today', money(plan.trialDays ? 0 : total, currency)],
      ['E-mail', customers.get(session.customer)?.email ?? session.customer_email],
    ].filter((row): row is [string, unknown] => Array.isArray(row) && row[1] != null);
    const codeField =
      session.allow_promotion_codes && !coupon
        ? '<p><label>Promotion code <input name="promotion_code"></label></p>'
        : '';
    return htmlPage(
      'Test checkout',
      (error ? `<p role="alert">${esc(error)}</p>` : '') +
        `<dl>${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('')}</dl>` +
        `<form method="post" action="/pay/${esc(session.id)}">${codeField}<button type="submit">Pay</button></form>` +
        (session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">Cancel</a></p>` : ''),
    );
  }

  function portalPage(portal: StripeObject) {
    const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
    const rows = [...invoices.values()]
      .filter((i) => i.customer === portal.customer)
      .reverse()
      .map((i) =>
        [day(i.created), money(i.amount_due, i.currency), i.status].map((c) => `<td>${esc(c)}</td>`).join(''),
      );
    return htmlPage(
      'Test billing portal',
      '<table><caption>Invoices</caption><thead><tr><th>Date</th><th>Amount</th><th>Status</th></tr></thead>' +
        `<tbody>${rows.map((r) => `<tr>${r}</tr>`).join('') || '<tr><td colspan="3">No invoices</td></tr>'}</tbody>` +
        `</table>${portal.return_url ? `<p><a href="${esc(portal.return_url)}">Return</a></p>` : ''}`,
    );
  }

  async function handlePage(req: IncomingMessage, res: ServerResponse, url: URL, raw: string) {
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    };
    refresh();
    const [, kind, id = ''] = url.pathname.split('/');
    const notFound = htmlPage('Not found', '<p>No such session.</p>');
    if (kind === 'portal') {
      const portal = state.portalSessions.get(id);
      return portal ? html(200, portalPage(portal)) : html(404, notFound);
    }
    const session = checkoutSessions.get(id);
    if (!session) return html(404, notFound);
    if (req.method !== 'POST') return html(200, payPage(session));
    try {
      await completeCheckout(id, parseForm(raw).promotion_code || undefined);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return html(400, payPage(session, e.message));
    }
    res.writeHead(303, { location: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id) });
    res.end();
  }

  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    readBody(req)
      .then((raw) => {
        if (/^\/(pay|portal)\/[^/]+$/.test(url.pathname)) return handlePage(req, res, url, raw);
        if (url.pathname.startsWith('/v1/')) return handleApi(req, res, url, raw);
        res.writeHead(404).end();
      })
      .catch((e: unknown) => {
        console.error('fake stripe:', e);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(e) } }));
      });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    port,
    secretKey,
    webhookSecret,
    setWebhookUrl: (url) => void (webhookUrl = url),
    addPrice: (o) => {
      const name = o.productName ?? o.lookupKey;
      const product = [...products.values()].find((x) => x.name === name) ?? createProduct({ name });
      const recurring = { interval: o.interval };
      const p = { product: product.id, currency: o.currency ?? 'usd', unit_amount: String(o.unitAmount), recurring };
      return createPrice({ ...p, lookup_key: o.lookupKey, transfer_lookup_key: 'true' }).id;
    },
    addPromotionCode: (o) => {
      const off = o.percentOff !== undefined ? { percent_off: o.percentOff } : { amount_off: o.amountOff ?? 0 };
      const terms = { duration: o.duration ?? 'forever', duration_in_months: o.durationInMonths };
      const coupon = createCoupon({ ...off, ...terms, currency: o.currency ?? 'usd' });
      const promo = createPromotionCode({ promotion: { type: 'coupon', coupon: coupon.id }, code: o.code });
      Object.assign(promo, { active: o.active ?? true, expires_at: o.expiresAt ?? null });
      Object.assign(promo, { max_redemptions: o.maxRedemptions ?? null, times_redeemed: o.timesRedeemed ?? 0 });
      refresh();
      return promo.id;
    },
    completeCheckout: (id) => completeCheckout(id),
    renew: (id, o) => advance(id, o?.fail ?? false),
    advanceToPeriodEnd: (id) => advance(id),
    cancelNow: async (id) => void (await cancel(get('subscriptions', id, 'subscription'), now())),
    event: makeEvent,
    sign,
    deliver,
    redeliver: async () => {
      if (!webhookUrl) return [];
      const pending = undelivered;
      undelivered = [];
      const statuses: number[] = [];
      for (const event of pending) statuses.push(await deliver(event));
      return statuses;
    },
    events,
    deliveries,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Parley's prices (`parley_pro_month`, `parley_team_year_student`…) and two promotion codes, for a demo or e2e. */
export function seedParleyCatalogue(fake: FakeStripe) {
  const names = { pro: 'Parley Pro', plus: 'Parley Plus', team: 'Parley Team', byok: 'Parley own keys' };
  const studentShare = (100 - DEFAULT_STUDENT_DISCOUNT_PERCENT) / 100;
  for (const plan of PAID_PLAN_IDS)
    for (const interval of PLAN_DURATIONS)
      for (const student of [false, true])
        fake.addPrice({
          lookupKey: priceLookupKey(plan, interval, student),
          unitAmount: Math.round(DEFAULT_PLAN_PRICES[plan][interval] * (student ? studentShare : 1)),
          currency: DEFAULT_CURRENCY,
          interval,
          productName: student ? `${names[plan]} (student)` : names[plan],
        });
  fake.addPromotionCode({ code: 'WELCOME20', percentOff: 20, duration: 'forever' });
  fake.addPromotionCode({ code: 'EXPIRED10', percentOff: 10, expiresAt: Math.floor(Date.now() / 1000) - 86400 });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakeStripe({
    port: cliPort(12111),
    webhookUrl: cliArg('--webhook'),
  });
  if (!cliFlag('--no-seed')) seedParleyCatalogue(fake);
  process.stdout.write(`fake stripe on ${fake.url}\n`);
  console.warn(
    `Start Parley with STRIPE_SECRET_KEY=${fake.secretKey} STRIPE_WEBHOOK_SECRET=${fake.webhookSecret} ` +
      `STRIPE_API_URL=${fake.url}${cliArg('--webhook') ? '' : ' (events are held: no --webhook given)'}`,
  );
}
