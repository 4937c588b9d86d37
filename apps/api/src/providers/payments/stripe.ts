import Stripe from 'stripe';

/**
 * The payment provider, as billing needs it: Stripe through its official package, server side only. `apiUrl`
 * points it at another Stripe-speaking server (a test server, a proxy). Everything billing reads comes back in the
 * small shapes below, so that the rest of the API never touches Stripe's objects.
 */
export type ProviderPrice = { id: string; lookupKey: string; unitAmount: number; currency: string; active: boolean };

export type ProviderSubscription = {
  id: string;
  customerId: string;
  status: string;
  /** The lookup key of its price (`parley_pro_year`), null when it is not one of ours. */
  lookupKey: string | null;
  itemId: string;
  quantity: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  trialEnd: Date | null;
  createdAt: Date;
  promotionCodeId: string | null;
  /** Whether the latest invoice (the period's, or a change's) is paid; null when there is none. */
  latestInvoicePaid: boolean | null;
  /** Per period, for one seat: what an upgrade is measured by. */
  unitAmount: number;
  interval: 'month' | 'year';
  /** What the server put on it at checkout (never read for entitlements). */
  metadata: Record<string, string>;
};

export type ProviderCheckout = {
  id: string;
  status: 'open' | 'complete' | 'expired';
  paid: boolean;
  customerId: string | null;
  subscriptionId: string | null;
};

export type ProviderPromotion = {
  id: string;
  code: string;
  active: boolean;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: string;
  durationInMonths: number | null;
};

export type ProviderEvent = {
  id: string;
  type: string;
  /** The id of the object the event is about (a checkout session, a subscription, an invoice). */
  objectId: string;
  /** The subscription the event is about, when there is one. */
  subscriptionId: string | null;
  customerId: string | null;
};

export class ProviderError extends Error {
  constructor(
    message: string,
    /** 'invalid': Stripe refused the request (a bad promotion code, a canceled subscription); 'unreachable': retry. */
    readonly kind: 'invalid' | 'missing' | 'unreachable',
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export type PaymentsProvider = {
  prices(lookupKeys: string[]): Promise<Map<string, ProviderPrice>>;
  createCustomer(input: { userId: string; email: string; name: string }): Promise<string>;
  createCheckout(input: {
    customerId: string;
    userId: string;
    priceId: string;
    quantity: number;
    promotionCodeId?: string;
    trialDays?: number;
    metadata: Record<string, string>;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  checkout(id: string): Promise<ProviderCheckout | null>;
  subscription(id: string): Promise<ProviderSubscription | null>;
  /**
   * Another price or seat count. An upgrade is invoiced and paid at once, prorated, and applies only once paid
   * (`pending_if_incomplete`); a downgrade applies now without refund or proration.
   */
  changeSubscription(
    id: string,
    change: { itemId: string; priceId: string; quantity: number; upgrade: boolean },
  ): Promise<ProviderSubscription>;
  /** The customer's subscriptions that have not ended (a second one must never be sold). */
  liveSubscriptions(customerId: string): Promise<ProviderSubscription[]>;
  /** Expires an open checkout, so that it can no longer be paid; one already done or gone is left alone. */
  expireCheckout(id: string): Promise<void>;
  setCancelAtPeriodEnd(id: string, cancel: boolean): Promise<ProviderSubscription>;
  cancelNow(id: string): Promise<ProviderSubscription>;
  promotion(code: string): Promise<ProviderPromotion | null>;
  portal(customerId: string, returnUrl: string): Promise<string>;
  /** Checks the signature (300 s tolerance) and reads what billing needs; throws ProviderError('invalid') otherwise. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): ProviderEvent;
  /** Creates the products and prices that are missing (by lookup key); returns the keys created and found. */
  sync(
    wanted: {
      lookupKey: string;
      productName: string;
      unitAmount: number;
      currency: string;
      interval: 'month' | 'year';
    }[],
  ): Promise<{ created: string[]; found: string[] }>;
};

const SIGNATURE_TOLERANCE_SECONDS = 300;
/** What billing reads of a subscription: its discount, and whether its latest invoice is paid. */
const EXPAND = ['discounts', 'latest_invoice'];

const toDate = (seconds: number) => new Date(seconds * 1000);
const idOf = (value: string | { id: string } | null | undefined) =>
  value == null ? null : typeof value === 'string' ? value : value.id;

function toSubscription(s: Stripe.Subscription): ProviderSubscription {
  const item = s.items.data[0];
  if (!item) throw new ProviderError(`subscription ${s.id} has no item`, 'invalid');
  const discount = s.discounts?.[0];
  const promotionCodeId = discount && typeof discount !== 'string' ? idOf(discount.promotion_code) : null;
  const invoice = s.latest_invoice;
  return {
    id: s.id,
    customerId: idOf(s.customer)!,
    status: s.status,
    lookupKey: item.price.lookup_key ?? null,
    itemId: item.id,
    quantity: item.quantity ?? 1,
    currentPeriodStart: toDate(item.current_period_start),
    currentPeriodEnd: toDate(item.current_period_end),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    trialEnd: s.trial_end ? toDate(s.trial_end) : null,
    createdAt: toDate(s.created),
    promotionCodeId,
    latestInvoicePaid: invoice == null ? null : typeof invoice === 'string' ? null : invoice.status === 'paid',
    unitAmount: item.price.unit_amount ?? 0,
    interval: item.price.recurring?.interval === 'year' ? 'year' : 'month',
    metadata: { ...(s.metadata ?? {}) },
  };
}

/** Stripe's errors, sorted into what billing does about them. */
function wrap(error: unknown): never {
  if (error instanceof ProviderError) throw error;
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.code === 'resource_missing' || error.statusCode === 404) {
      throw new ProviderError(error.message, 'missing', error.param);
    }
    throw new ProviderError(error.message, 'invalid', error.param);
  }
  if (error instanceof Stripe.errors.StripeCardError) throw new ProviderError(error.message, 'invalid', error.param);
  const message = error instanceof Error ? error.message : String(error);
  throw new ProviderError(message, 'unreachable');
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    wrap(error);
  }
}

export function createStripeProvider({
  secretKey,
  webhookSecret,
  apiUrl,
  timeoutMs = 20_000,
}: {
  secretKey: string;
  webhookSecret: string;
  apiUrl?: string | undefined;
  timeoutMs?: number;
}): PaymentsProvider {
  const base = apiUrl ? new URL(apiUrl) : null;
  const stripe = new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: timeoutMs,
    appInfo: { name: 'Parley' },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });

  const subscription = async (id: string) => {
    try {
      return toSubscription(await stripe.subscriptions.retrieve(id, { expand: EXPAND }));
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
      wrap(error);
    }
  };

  return {
    async prices(lookupKeys) {
      const found = new Map<string, ProviderPrice>();
      // Stripe takes up to 10 lookup keys per list call.
      for (let i = 0; i < lookupKeys.length; i += 10) {
        const page = await call(() =>
          stripe.prices.list({ lookup_keys: lookupKeys.slice(i, i + 10), active: true, limit: 100 }),
        );
        for (const p of page.data) {
          if (!p.lookup_key || p.unit_amount == null) continue;
          found.set(p.lookup_key, {
            id: p.id,
            lookupKey: p.lookup_key,
            unitAmount: p.unit_amount,
            currency: p.currency,
            active: p.active,
          });
        }
      }
      return found;
    },

    async createCustomer({ userId, email, name }) {
      const customer = await call(() =>
        stripe.customers.create(
          { email, name, metadata: { userId } },
          // One customer per person even when two requests race to create it.
          { idempotencyKey: `parley-customer-${userId}` },
        ),
      );
      return customer.id;
    },

    async createCheckout(input) {
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.userId,
          line_items: [{ price: input.priceId, quantity: input.quantity }],
          ...(input.promotionCodeId ? { discounts: [{ promotion_code: input.promotionCodeId }] } : {}),
          subscription_data: {
            metadata: input.metadata,
            ...(input.trialDays ? { trial_period_days: input.trialDays } : {}),
          },
          metadata: input.metadata,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        }),
      );
      if (!session.url) throw new ProviderError('checkout session without a URL', 'invalid');
      return { id: session.id, url: session.url };
    },

    async checkout(id) {
      try {
        const s = await stripe.checkout.sessions.retrieve(id);
        return {
          id: s.id,
          status: (s.status ?? 'open') as ProviderCheckout['status'],
          paid: s.payment_status === 'paid' || s.payment_status === 'no_payment_required',
          customerId: idOf(s.customer),
          subscriptionId: idOf(s.subscription),
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') return null;
        wrap(error);
      }
    },

    subscription,

    async changeSubscription(id, { itemId, priceId, quantity, upgrade }) {
      return toSubscription(
        await call(() =>
          stripe.subscriptions.update(id, {
            items: [{ id: itemId, price: priceId, quantity }],
            ...(upgrade
              ? { proration_behavior: 'always_invoice', payment_behavior: 'pending_if_incomplete' }
              : { proration_behavior: 'none' }),
            expand: EXPAND,
          }),
        ),
      );
    },

    async liveSubscriptions(customerId) {
      const page = await call(() =>
        stripe.subscriptions.list({
          customer: customerId,
          status: 'all',
          limit: 100,
          expand: ['data.discounts', 'data.latest_invoice'],
        }),
      );
      return page.data
        .filter((s) => !['canceled', 'incomplete_expired'].includes(s.status))
        .map((s) => toSubscription(s));
    },

    async expireCheckout(id) {
      try {
        await stripe.checkout.sessions.expire(id);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return;
        wrap(error);
      }
    },

    async setCancelAtPeriodEnd(id, cancel) {
      return toSubscription(
        await call(() => stripe.subscriptions.update(id, { cancel_at_period_end: cancel, expand: EXPAND })),
      );
    },

    async cancelNow(id) {
      return toSubscription(await call(() => stripe.subscriptions.cancel(id, { expand: EXPAND })));
    },

    async promotion(code) {
      const page = await call(() => stripe.promotionCodes.list({ code, limit: 1, expand: ['data.promotion.coupon'] }));
      const p = page.data.find((candidate) => candidate.code.toLowerCase() === code.toLowerCase());
      if (!p) return null;
      const coupon = typeof p.promotion.coupon === 'object' ? p.promotion.coupon : null;
      const expired = p.expires_at != null && p.expires_at * 1000 <= Date.now();
      const usedUp = p.max_redemptions != null && p.times_redeemed >= p.max_redemptions;
      return {
        id: p.id,
        code: p.code,
        active: p.active && !expired && !usedUp && (coupon?.valid ?? true),
        percentOff: coupon?.percent_off ?? null,
        amountOff: coupon?.amount_off ?? null,
        currency: coupon?.currency ?? null,
        duration: coupon?.duration ?? 'once',
        durationInMonths: coupon?.duration_in_months ?? null,
      };
    },

    async portal(customerId, returnUrl) {
      const session = await call(() =>
        stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }),
      );
      return session.url;
    },

    verifyEvent(rawBody, signature) {
      if (!signature) throw new ProviderError('missing signature', 'invalid');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
      } catch (error) {
        throw new ProviderError((error as Error).message, 'invalid');
      }
      const object = event.data.object as unknown as Record<string, unknown>;
      let subscriptionId: string | null = null;
      if (event.type.startsWith('customer.subscription.')) subscriptionId = idOf(object.id as string);
      else if (event.type.startsWith('checkout.session.')) {
        subscriptionId = idOf(object.subscription as string | { id: string } | null);
      } else if (event.type.startsWith('invoice.')) {
        // From API 2025-03-31 the subscription is under parent; endpoints made with an older version send it as before.
        const parent = object.parent as { subscription_details?: { subscription?: string | { id: string } } } | null;
        subscriptionId = idOf(
          parent?.subscription_details?.subscription ?? (object.subscription as string | { id: string } | null) ?? null,
        );
      }
      return {
        id: event.id,
        type: event.type,
        objectId: String(object.id ?? ''),
        subscriptionId,
        customerId: idOf(object.customer as string | { id: string } | null),
      };
    },

    async sync(wanted) {
      const existing = await this.prices(wanted.map((w) => w.lookupKey));
      const created: string[] = [];
      const found: string[] = [];
      const products = new Map<string, string>();
      if (wanted.some((w) => !existing.has(w.lookupKey))) {
        await call(async () => {
          for await (const product of stripe.products.list({ limit: 100 })) {
            const name = product.metadata?.parley;
            if (name && product.active && !products.has(name)) products.set(name, product.id);
          }
        });
      }
      for (const w of wanted) {
        if (existing.has(w.lookupKey)) {
          found.push(w.lookupKey);
          continue;
        }
        let productId = products.get(w.productName);
        if (!productId) {
          const product = await call(() =>
            stripe.products.create({ name: w.productName, metadata: { parley: w.productName } }),
          );
          productId = product.id;
          products.set(w.productName, productId);
        }
        const id = productId;
        await call(() =>
          stripe.prices.create(
            {
              product: id,
              currency: w.currency,
              unit_amount: w.unitAmount,
              recurring: { interval: w.interval },
              lookup_key: w.lookupKey,
              transfer_lookup_key: true,
              metadata: { parley: w.lookupKey },
            },
            { idempotencyKey: `parley-price-${w.lookupKey}-${w.unitAmount}-${w.currency}` },
          ),
        );
        created.push(w.lookupKey);
      }
      return { created, found };
    },
  };
}
