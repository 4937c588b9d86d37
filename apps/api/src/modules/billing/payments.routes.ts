import { STREAM_PATHS } from '@parley/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { BillingService } from './billing.service.js';
import type { PaymentsService } from './payments.service.js';

/** Stripe's events are small; anything bigger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;
/** Calls that reach Stripe or send mail, per person: enough for any real use, not for draining the account's quota. */
const PAYMENT_CALLS_PER_MINUTE = 20;
const STUDENT_MAILS_PER_HOUR = 5;

export function registerPaymentRoutes(
  app: FastifyInstance,
  {
    payments,
    billing,
    requireAuth,
    limits,
  }: {
    payments: PaymentsService;
    billing: BillingService;
    requireAuth: onRequestAsyncHookHandler;
    limits: RateLimitStore;
  },
) {
  /** The caller, with their own wallet: a member of an organization buys and changes only their own plan. */
  const payerOf = (request: FastifyRequest) => billing.ownPayer(callerOf(request));

  const limit = async (request: FastifyRequest, what: string, max: number, windowMs: number) => {
    const { count, resetInMs } = await limits.hit(`pay:${what}:${callerOf(request).user.id}`, windowMs);
    if (count > max) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
  const paced = (request: FastifyRequest) => limit(request, 'calls', PAYMENT_CALLS_PER_MINUTE, 60_000);

  defineRoute(app, 'paymentPlans', requireAuth, async () => ({ data: await payments.plans() }));
  defineRoute(app, 'currentPlan', requireAuth, async ({ request }) => ({
    data: await payments.currentPlan(await payerOf(request)),
  }));
  defineRoute(app, 'subscribe', requireAuth, async ({ request, query }) => {
    await paced(request);
    return {
      data: await payments.subscribe(await payerOf(request), query),
    };
  });
  defineRoute(app, 'freeTrial', requireAuth, async ({ request, query }) => {
    await paced(request);
    return {
      data: await payments.freeTrial(await payerOf(request), query),
    };
  });
  defineRoute(app, 'updateSubscription', requireAuth, async ({ request, query }) => {
    await paced(request);
    return {
      data: await payments.update(await payerOf(request), query),
    };
  });
  defineRoute(app, 'cancelSubscription', requireAuth, async ({ request }) => {
    await paced(request);
    return {
      data: await payments.cancel(await payerOf(request)),
    };
  });
  defineRoute(app, 'reactivateSubscription', requireAuth, async ({ request }) => {
    await paced(request);
    return {
      data: await payments.reactivate(await payerOf(request)),
    };
  });
  defineRoute(app, 'renewSubscription', requireAuth, async ({ request }) => {
    await paced(request);
    return {
      data: await payments.renew(await payerOf(request)),
    };
  });
  defineRoute(app, 'removeSubscription', requireAuth, async ({ request }) => {
    await paced(request);
    return {
      data: await payments.remove(await payerOf(request)),
    };
  });
  defineRoute(app, 'billingPortal', requireAuth, async ({ request }) => {
    await paced(request);
    return {
      data: await payments.portal(await payerOf(request)),
    };
  });
  defineRoute(app, 'promoCode', requireAuth, async ({ request, query }) => {
    await paced(request);
    return { data: await payments.promo(query.code) };
  });
  defineRoute(app, 'studentVerification', requireAuth, async ({ request, body }) => {
    await limit(request, 'student', STUDENT_MAILS_PER_HOUR, 3_600_000);
    await payments.requestStudent(await payerOf(request), body.email);
    return { data: null };
  });
  defineRoute(app, 'studentConfirm', requireAuth, async ({ request, body }) => {
    await paced(request);
    return {
      data: await payments.confirmStudent(await payerOf(request), body.token),
    };
  });
  defineRoute(app, 'confirmCheckout', requireAuth, async ({ request, body }) => {
    await paced(request);
    return {
      data: await payments.confirmCheckout(await payerOf(request), body.sessionId),
    };
  });

  // The webhook reads its body as bytes: the signature is over exactly what Stripe sent.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(
      STREAM_PATHS.paymentWebhook,
      { schema: { hide: true } as Record<string, unknown> },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const event = payments.verifyEvent(raw, typeof signature === 'string' ? signature : undefined);
        const outcome = await payments.handleEvent(event);
        request.log.info({ event: event.id, type: event.type, outcome }, 'payment event');
        return reply.send({ received: true });
      },
    );
  });
}
