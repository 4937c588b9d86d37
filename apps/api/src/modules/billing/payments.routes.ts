import { STREAM_PATHS } from '@parley/contract';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { PaymentsService } from './payments.service.js';

/** Stripe's events are small; anything bigger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export function registerPaymentRoutes(
  app: FastifyInstance,
  { payments, requireAuth }: { payments: PaymentsService; requireAuth: onRequestAsyncHookHandler },
) {
  defineRoute(app, 'paymentPlans', requireAuth, async () => ({ data: await payments.plans() }));
  defineRoute(app, 'currentPlan', requireAuth, async ({ request }) => ({
    data: await payments.currentPlan(callerOf(request)),
  }));
  defineRoute(app, 'subscribe', requireAuth, async ({ request, query }) => ({
    data: await payments.subscribe(callerOf(request), query),
  }));
  defineRoute(app, 'freeTrial', requireAuth, async ({ request, query }) => ({
    data: await payments.freeTrial(callerOf(request), query),
  }));
  defineRoute(app, 'updateSubscription', requireAuth, async ({ request, query }) => ({
    data: await payments.update(callerOf(request), query),
  }));
  defineRoute(app, 'cancelSubscription', requireAuth, async ({ request }) => ({
    data: await payments.cancel(callerOf(request)),
  }));
  defineRoute(app, 'reactivateSubscription', requireAuth, async ({ request }) => ({
    data: await payments.reactivate(callerOf(request)),
  }));
  defineRoute(app, 'renewSubscription', requireAuth, async ({ request }) => ({
    data: await payments.renew(callerOf(request)),
  }));
  defineRoute(app, 'removeSubscription', requireAuth, async ({ request }) => ({
    data: await payments.remove(callerOf(request)),
  }));
  defineRoute(app, 'billingPortal', requireAuth, async ({ request }) => ({
    data: await payments.portal(callerOf(request)),
  }));
  defineRoute(app, 'promoCode', requireAuth, async ({ query }) => ({ data: await payments.promo(query.code) }));
  defineRoute(app, 'studentVerification', requireAuth, async ({ request, body }) => {
    await payments.requestStudent(callerOf(request), body.email);
    return { data: null };
  });
  defineRoute(app, 'studentConfirm', requireAuth, async ({ request, body }) => ({
    data: await payments.confirmStudent(callerOf(request), body.token),
  }));
  defineRoute(app, 'confirmCheckout', requireAuth, async ({ request, body }) => ({
    data: await payments.confirmCheckout(callerOf(request), body.sessionId),
  }));

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
