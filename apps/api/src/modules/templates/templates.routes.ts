import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { callerOf, defineRoute } from '../../lib/route.js';
import type { TemplatesService } from './templates.service.js';

/** §7 Templates and Shortcut templates (the AI calls are the writing module's). Every call is about the caller's own. */
export function registerTemplateRoutes(
  app: FastifyInstance,
  { templates, requireAuth }: { templates: TemplatesService; requireAuth: onRequestAsyncHookHandler },
) {
  defineRoute(app, 'templates', requireAuth, async ({ request }) => ({
    data: await templates.templates(callerOf(request)),
  }));
  defineRoute(app, 'template', requireAuth, async ({ request, params }) => ({
    data: await templates.template(callerOf(request), params.id),
  }));
  defineRoute(app, 'addTemplate', requireAuth, async ({ request, body }) => ({
    data: await templates.addTemplate(callerOf(request), body),
    message: 'templateSaved',
  }));
  defineRoute(app, 'updateTemplate', requireAuth, async ({ request, params, body }) => ({
    data: await templates.updateTemplate(callerOf(request), params.id, body),
    message: 'templateSaved',
  }));
  defineRoute(app, 'reorderTemplates', requireAuth, async ({ request, body }) => ({
    data: await templates.reorder(callerOf(request), body.ids),
    message: 'templatesReordered',
  }));
  defineRoute(app, 'deleteTemplate', requireAuth, async ({ request, params }) => ({
    data: await templates.deleteTemplate(callerOf(request), params.id),
    message: 'templateDeleted',
  }));
  defineRoute(app, 'importTemplates', requireAuth, async ({ request, body }) => ({
    data: await templates.import(callerOf(request), body),
    message: 'imported',
  }));
  defineRoute(app, 'signatures', requireAuth, async ({ request }) => ({
    data: await templates.signatures(callerOf(request)),
  }));
  defineRoute(app, 'addSignature', requireAuth, async ({ request, body }) => ({
    data: await templates.addSignature(callerOf(request), body),
    message: 'signatureSaved',
  }));
  defineRoute(app, 'updateSignature', requireAuth, async ({ request, params, body }) => ({
    data: await templates.updateSignature(callerOf(request), params.id, body),
    message: 'signatureSaved',
  }));
  defineRoute(app, 'deleteSignature', requireAuth, async ({ request, params }) => ({
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
  defineRoute(app, 'addShortcut', requireAuth, async ({ request, body }) => ({
    data: await templates.addShortcut(callerOf(request), body),
    message: 'shortcutSaved',
  }));
  defineRoute(app, 'updateShortcut', requireAuth, async ({ request, params, body }) => ({
    data: await templates.updateShortcut(callerOf(request), params.id, body),
    message: 'shortcutSaved',
  }));
  defineRoute(app, 'deleteShortcut', requireAuth, async ({ request, params }) => ({
    data: await templates.deleteShortcut(callerOf(request), params.id),
    message: 'shortcutDeleted',
  }));
}
