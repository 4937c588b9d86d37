import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { LinkedinEngageService } from './linkedin.engage.service.js';
import type { LinkedinSettingsService } from './linkedin.settings.service.js';

/** Changes per person and minute: far above what anyone does by hand. */
const WRITES_PER_MINUTE = 120;

/** Pacing of a person's changes, before any connection is taken. */
export function writePacer(limits: RateLimitStore) {
  return async (request: FastifyRequest) => {
    const { count, resetInMs } = await limits.hit(`li:write:${callerOf(request).user.id}`, 60_000);
    if (count > WRITES_PER_MINUTE) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
}

/** LinkedIn settings and AI customization, keywords and followed profiles: every call about the caller's own. */
export function registerLinkedinSettingsRoutes(
  app: FastifyInstance,
  {
    settings,
    engage,
    requireAuth,
    limits,
  }: {
    settings: LinkedinSettingsService;
    engage: LinkedinEngageService;
    requireAuth: onRequestAsyncHookHandler;
    limits: RateLimitStore;
  },
) {
  const paced = writePacer(limits);
  const write = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, async (input) => {
      await paced(input.request);
      return handler(input);
    });

  defineRoute(app, 'linkedinSettings', requireAuth, async ({ request }) => ({
    data: await settings.get(callerOf(request)),
  }));
  write('updateLinkedinSettings', async ({ request, body }) => ({
    data: await settings.update(callerOf(request), body),
    message: 'settingsUpdated',
  }));

  defineRoute(app, 'linkedinKeywords', requireAuth, async ({ request }) => ({
    data: await engage.keywords(callerOf(request)),
  }));
  write('addLinkedinKeyword', async ({ request, body }) => ({
    data: await engage.addKeyword(callerOf(request), body),
    message: 'linkedinSaved',
  }));
  write('updateLinkedinKeyword', async ({ request, params, body }) => ({
    data: await engage.updateKeyword(callerOf(request), params.id, body),
    message: 'linkedinSaved',
  }));
  write('deleteLinkedinKeyword', async ({ request, params }) => ({
    data: await engage.deleteKeyword(callerOf(request), params.id),
    message: 'linkedinDeleted',
  }));

  defineRoute(app, 'linkedinProfiles', requireAuth, async ({ request }) => ({
    data: await engage.profiles(callerOf(request)),
  }));
  write('addLinkedinProfile', async ({ request, body }) => ({
    data: await engage.addProfile(callerOf(request), body),
    message: 'linkedinSaved',
  }));
  write('updateLinkedinProfile', async ({ request, params, body }) => ({
    data: await engage.updateProfile(callerOf(request), params.id, body),
    message: 'linkedinSaved',
  }));
  write('deleteLinkedinProfile', async ({ request, params }) => ({
    data: await engage.deleteProfile(callerOf(request), params.id),
    message: 'linkedinDeleted',
  }));
}
