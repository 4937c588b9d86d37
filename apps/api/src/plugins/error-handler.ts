import { MultipartError } from '../lib/multipart.js';
import { limitOf } from '../lib/upload.js';
import { cleanText, ERROR_CODES, type ErrorBody, type ErrorCode } from '@parley/contract';
import { translate } from '@parley/i18n/server';
import { hasZodFastifySchemaValidationErrors } from '@fastify/type-provider-zod';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { errorLogs } from '../db/schema/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { DomainError } from '../lib/errors.js';
import { redactUrl, safeError } from '../lib/redact.js';
import { ClientGoneError } from '../lib/route.js';

type Issue = { path: string; message: string };

function localizeIssue(
  lang: string,
  v: { keyword: string; instancePath?: string; message?: string; params?: Record<string, unknown> },
): Issue {
  const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const p = v.params ?? {};
  const t = (key: string, params: Record<string, string | number> = {}) =>
    translate(lang, 'api', `validation.${key}`, params);
  switch (v.keyword) {
    case 'invalid_type':
      return { path, message: /received undefined/.test(v.message ?? '') ? t('required') : t('invalid_type') };
    case 'too_small':
      if (p.origin === 'string' && Number(p.minimum) === 1) return { path, message: t('required') };
      return {
        path,
        message: t(p.origin === 'string' ? 'too_small_string' : 'too_small', { minimum: String(p.minimum) }),
      };
    case 'too_big':
      return { path, message: t(p.origin === 'string' ? 'too_big_string' : 'too_big', { maximum: String(p.maximum) }) };
    case 'invalid_format':
      return { path, message: t(p.format === 'email' ? 'invalid_email' : 'invalid_format') };
    case 'invalid_value':
      return { path, message: t('invalid_value') };
    case 'unrecognized_keys':
      return { path, message: t('unrecognized_keys', { keys: Array.isArray(p.keys) ? p.keys.join(', ') : '' }) };
    default:
      return { path, message: t('invalid') };
  }
}

/** Fastify's own errors that are the client's fault, by code. */
const FRAMEWORK_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_BODY',
  FST_ERR_BAD_URL: 'BAD_REQUEST',
  FST_ERR_ASYNC_CONSTRAINT: 'BAD_REQUEST',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_PARTS_LIMIT: 'BAD_REQUEST',
  FST_FIELDS_LIMIT: 'BAD_REQUEST',
  FST_PROTO_VIOLATION: 'BAD_REQUEST',
};

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  extra: Partial<ErrorBody> = {},
  params: Record<string, string | number> = {},
) {
  const status = ERROR_CODES[code];
  const body: ErrorBody = { status, code, message: translate(request.lang, 'api', `errors.${code}`, params), ...extra };
  return reply.status(status).send(body);
}

/** The one place that knows HTTP statuses: domain codes, validation, framework errors, and the unexpected. */
export function registerErrorHandler(app: FastifyInstance, db: Db) {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    // Answered before the body was all read (an unknown caller, a body too slow or malformed): the rest is not
    // worth reading, and the connection closes once the answer is out.
    if (!request.raw.complete) reply.header('connection', 'close');
    if (error instanceof DomainError) {
      reply.headers(error.headers);
      const extra: Partial<ErrorBody> =
        error.code === 'VALIDATION_FAILED' && typeof error.params.path === 'string'
          ? { issues: [{ path: error.params.path, message: translate(request.lang, 'api', 'validation.invalid') }] }
          : error.code === 'OUT_OF_CREDITS' && typeof error.params.needed === 'number'
            ? {
                credits: {
                  tier: String(error.params.tier),
                  needed: error.params.needed,
                  available: Number(error.params.available),
                },
              }
            : {};
      return sendError(request, reply, error.code, extra, error.params);
    }
    if (hasZodFastifySchemaValidationErrors(error) || Array.isArray(error.validation)) {
      const issues = error.validation!.map((v) =>
        localizeIssue(request.lang, v as Parameters<typeof localizeIssue>[1]),
      );
      return sendError(request, reply, 'VALIDATION_FAILED', { issues });
    }
    if (error instanceof MultipartError) {
      const limit = limitOf(error.code);
      return sendError(request, reply, error.code, {}, limit ? { limit: limit.value } : {});
    }
    const multipart = error.code ? limitOf(error.code) : undefined;
    if (multipart) return sendError(request, reply, multipart.code, {}, { limit: multipart.value });
    const frameworkCode = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (frameworkCode) return sendError(request, reply, frameworkCode);
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
      return sendError(request, reply, 'MALFORMED_BODY');
    }
    if (error.statusCode === 429) return sendError(request, reply, 'RATE_LIMITED', {}, { minutes: 1, count: 1 });
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(request, reply, error.statusCode === 404 ? 'NOT_FOUND' : 'BAD_REQUEST');
    }

    if (error instanceof ClientGoneError) {
      // The call stopped because its client left (and was refunded): nothing to answer, nothing for the admin.
      request.log.info('the client went away');
      return reply.status(499).send();
    }
    if (isDatabaseUnavailable(error)) {
      // Not a bug to store for the admin (the store is the database): the person is told to try again shortly.
      request.log.warn({ err: error }, 'the database is out of reach');
      return sendError(request, reply, 'SERVICE_UNAVAILABLE');
    }
    request.log.error({ err: error }, 'unexpected error');
    // What the admin portal shows: the statement's text, never its parameters (they hold people's words).
    const safe = safeError(error);
    try {
      await db.insert(errorLogs).values({
        requestId: request.id,
        method: request.method,
        url: cleanText(redactUrl(request.url)).slice(0, 2000),
        status: 500,
        userId: request.caller?.user.id ?? null,
        message: cleanText(safe.message).slice(0, 2000),
        stack: safe.stack ? cleanText(safe.stack).slice(0, 8000) : null,
      });
    } catch (logError) {
      request.log.error({ err: logError }, 'could not store the error log');
    }
    return sendError(request, reply, 'INTERNAL');
  });
}
