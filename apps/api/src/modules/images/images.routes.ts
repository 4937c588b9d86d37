import {
  IMAGE_UPLOAD_MAX_MB,
  imageEditFieldsSchema,
  imageFileQuerySchema,
  imageGenerationFieldsSchema,
  STREAM_PATHS,
} from '@parley/contract';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import type { AiLimits } from '../../lib/ai-limits.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import { callerOf as caller, defineRoute } from '../../lib/route.js';
import { multipartRoutes, readMultipart } from '../../lib/upload.js';
import { contentDisposition } from '../documents/index.js';
import type { ImagesService } from './images.service.js';

/** The files an edit may carry, one each: the image, a new background, a mask. */
const EDIT_FILE_FIELDS = ['image', 'background', 'mask'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Multipart fields checked by the contract's schema; what is wrong is answered like any other body (400 with issues). */
function fieldsOf<S extends z.ZodType>(schema: S, fields: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw Object.assign(new Error('invalid fields'), {
    statusCode: 400,
    validation: parsed.error.issues.map((i) => ({
      keyword: i.code,
      instancePath: `/${i.path.join('/')}`,
      message: i.message,
      params: { ...i },
    })),
    validationContext: 'body',
  });
}

/** §7 imageGeneration and imageEdit (multipart), the history, and the bytes: every call is about the caller's own. */
export function registerImageRoutes(
  app: FastifyInstance,
  {
    images,
    requireAuth,
    aiLimits,
    bodyTimeoutMs,
  }: { images: ImagesService; requireAuth: onRequestAsyncHookHandler; aiLimits: AiLimits; bodyTimeoutMs: number },
) {
  /** Calls that reach a provider are counted per person and per address, like every AI call. */
  const limited = async (request: FastifyRequest) => {
    await aiLimits.address(request.ip);
    await aiLimits.person(caller(request).user.id);
  };

  /** A multipart body of images, read no further than the route's own limits: `files` of IMAGE_UPLOAD_MAX_MB. */
  const readImages = (request: FastifyRequest, fields: string | string[], files: number) =>
    readMultipart(request, fields, bodyTimeoutMs, { files, fileSize: IMAGE_UPLOAD_MAX_MB * 1024 * 1024 });

  defineRoute(app, 'imageModels', requireAuth, async ({ request }) => ({
    data: { models: await images.models(caller(request)) },
  }));
  defineRoute(app, 'images', requireAuth, async ({ request, query }) => ({
    data: await images.list(caller(request), query),
  }));
  defineRoute(app, 'image', requireAuth, async ({ request, params }) => ({
    data: await images.get(caller(request), params.id),
  }));
  defineRoute(app, 'deleteImage', requireAuth, async ({ request, params }) => ({
    data: await images.remove(caller(request), params.id),
  }));

  const multipart = { onRequest: requireAuth, schema: { hide: true } };

  multipartRoutes(app, (scope) => {
    scope.post(STREAM_PATHS.imageGeneration, multipart, async (request) => {
      await limited(request);
      const { fields, files } = await readImages(request, 'reference', 1);
      const input = fieldsOf(imageGenerationFieldsSchema, fields);
      return { status: 200, message: 'OK', data: await images.generate(caller(request), input, files[0]) };
    });

    scope.post(STREAM_PATHS.imageEdit, multipart, async (request) => {
      await limited(request);
      const { fields, files } = await readImages(request, EDIT_FILE_FIELDS, EDIT_FILE_FIELDS.length);
      const input = fieldsOf(imageEditFieldsSchema, fields);
      return { status: 200, message: 'OK', data: await images.edit(caller(request), input, files) };
    });

    // Uploads call no provider, but each is decoded here: counted like an AI call.
    scope.post(STREAM_PATHS.imageUpload, multipart, async (request) => {
      await limited(request);
      const { files } = await readImages(request, 'image', 1);
      if (files.length !== 1) throw new DomainError('INVALID_FILE');
      return { status: 200, message: 'OK', data: await images.upload(caller(request), files[0]!) };
    });
  });

  app.get<{ Params: { versionId: string }; Querystring: Record<string, string> }>(
    STREAM_PATHS.imageFile,
    multipart,
    async (request, reply) => {
      if (!UUID.test(request.params.versionId)) throw new NotFoundError('image');
      const query = fieldsOf(imageFileQuerySchema, request.query);
      const file = await images.file(caller(request), request.params.versionId, query.size);
      reply.header('content-type', file.mediaType);
      reply.header(
        'content-disposition',
        contentDisposition(query.download === '1' ? 'attachment' : 'inline', file.name),
      );
      reply.header('cache-control', 'private, max-age=3600');
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      return reply.send(file.bytes);
    },
  );
}
