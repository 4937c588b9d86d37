import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { DomainError } from '../../lib/errors.js';
import type { RateLimitStore } from '../../lib/rate-limit.js';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { TemplatesService } from './templates.service.js';

/**
 * Changes per person: far above what anyone edits by hand, low enough that one account cannot keep the database's
 * connections waiting on its lock. Imports are large: a few an hour.
 */
const WRITES_PER_MINUTE = 120;
const IMPORTS_PER_HOUR = 10;

/** §7 Templates and Shortcut templates (the AI calls are the writing module's). Every call is about the caller's own. */
export function registerTemplateRoutes(
  app: FastifyInstance,
  {
    templates,
    requireAuth,
    limits,
  }: { templates: TemplatesService; requireAuth: onRequestAsyncHookHandler; limits: RateLimitStore },
) {
  const limit = async (request: FastifyRequest, what: string, max: number, windowMs: number) => {
    const { count, resetInMs } = await limits.hit(`tpl:${what}:${callerOf(request).user.id}`, windowMs);
    if (count > max) {
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      throw new DomainError('TOO_MANY_REQUESTS', { seconds }, { 'retry-after': String(seconds) });
    }
  };
  /** A route that changes something: paced per person before any connection is taken. */
  const write = <N extends Parameters<typeof defineRoute>[1]>(name: N, handler: Parameters<typeof defineRoute<N>>[3]) =>
    defineRoute(app, name, requireAuth, async (input) => {
      await limit(input.request, 'write', WRITES_PER_MINUTE, 60_000);
      if (name === 'importTemplates') await limit(input.request, 'import', IMPORTS_PER_HOUR, 3_600_000);
      return handler(input);
    });

  defineRoute(app, 'templates', requireAuth, async ({ request }) => ({
    data: await templates.templates(callerOf(request)),
  }));
  defineRoute(app, 'template', requireAuth, async ({ request, params }) => ({
    data: await templates.template(callerOf(request), params.id),
  }));
  write('addTemplate', async ({ request, body }) => ({
    data: await templates.addTemplate(callerOf(request), body),
    message: 'templateSaved',
  }));
  write('updateTemplate', async ({ request, params, body }) => ({
    data: await templates.updateTemplate(callerOf(request), params.id, body),
    message: 'templateSaved',
  }));
  write('reorderTemplates', async ({ request, body }) => ({
    data: await templates.reorder(callerOf(request), body.ids),
    message: 'templatesReordered',
  }));
  write('deleteTemplate', async ({ request, params }) => ({
    data: await templates.deleteTemplate(callerOf(request), params.id),
    message: 'templateDeleted',
  }));
  write('importTemplates', async ({ request, body }) => ({
    data: await templates.import(callerOf(request), body),
    message: 'imported',
  }));
  defineRoute(app, 'signatures', requireAuth, async ({ request }) => ({
    data: await templates.signatures(callerOf(request)),
  }));
  write('addSignature', async ({ request, body }) => ({
    data: await templates.addSignature(callerOf(request), body),
    message: 'signatureSaved',
  }));
  write('updateSignature', async ({ request, params, body }) => ({
    data: await templates.updateSignature(callerOf(request), params.id, body),
    message: 'signatureSaved',
  }));
  write('deleteSignature', async ({ request, params }) => ({
    data: await templates.deleteSignature(callerOf(request), params.id),
    message: 'signatureDeleted',
  }));
  defineRoute(app, 'shortcuts', requireAuth, async ({ request }) => ({
    data: await templates.shortcuts(callerOf(request)),
  }));
  defineRoute(app, 'shortcutTemplates', requireAuth, async ({ request }) => ({
    data: await templates.shortcuts(callerOf(request)),
  }));
  defineRoute(app, 'shortcutExists', requireAuth, async ({ request, query }) => ({
    data: await templates.shortcutExists(callerOf(request), query.key),
  }));
  write('addShortcut', async ({ request, body }) => ({
    data: await templates.addShortcut(callerOf(request), body),
    message: 'shortcutSaved',
  }));
  write('updateShortcut', async ({ request, params, body }) => ({
    data: await templates.updateShortcut(callerOf(request), params.id, body),
    message: 'shortcutSaved',
  }));
  write('deleteShortcut', async ({ request, params }) => ({
    data: await templates.deleteShortcut(callerOf(request), params.id),
    message: 'shortcutDeleted',
  }));
}
