import { randomUUID } from 'node:crypto';
import {
  IMAGE_MODELS,
  IMAGE_UPLOAD_MAX_MB,
  IMAGE_VERSIONS_MAX,
  imageModelInfo,
  instantInRange,
  type AspectRatio,
  type Image,
  type ImageAbility,
  type ImageModel,
  type ImageModelId,
  type ImageModelInfo,
  type ImageOperation,
  type ImageVersion,
} from '@parley/contract';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { Db } from '../../db/client.js';
import { DomainError, NotFoundError } from '../../lib/errors.js';
import type { Upload } from '../../lib/upload.js';
import { describeError } from '../../providers/ai/stream.js';
import {
  ImageRefusedError,
  type ImageBytes,
  type ImageRegistry,
  type OwnImageKey,
} from '../../providers/images/types.js';
import type { BillingService, Caller } from '../billing/index.js';
import { safeFileName } from '../documents/index.js';
import type { ModelsService } from '../models/index.js';
import type { FileStore } from '../storage/index.js';
import { pngMayHaveAlpha } from './clean-copy.js';
import * as q from './images.queries.js';
import {
  composeOnColour,
  composeOnImage,
  maskPng,
  normalizeOutput,
  readUpload,
  startUpload,
  thumbnail,
  thumbnailLater,
  type KeptOutput,
  type ProcessedImage,
  type StartedUpload,
} from './processing.js';

/** Images one person keeps; far above a gallery anyone scrolls, low enough to bound what one account stores. */
export const IMAGES_MAX = 5_000;
/** How long a closing server waits for the thumbnails being made; the others are made when they are asked for. */
const SETTLE_MS = 5_000;

/** The thumbnail of an image that does not decode: a plain grey square, made once. */
let plain: Promise<Buffer> | undefined;
const plainThumbnail = () =>
  (plain ??= sharp({ create: { width: 64, height: 64, channels: 3, background: '#d4d4d8' } })
    .webp()
    .toBuffer());

/** What the editor asks of a model for each operation, in words it follows. */
const INSTRUCTIONS = {
  removeText:
    'Remove all text, letters, captions, logos with lettering and watermarks from the image, and fill where they were so that it matches the surroundings. Change nothing else.',
  scene: (scene: string) =>
    `Replace the background of the image with this scene: ${scene}. Keep the main subject exactly as it is, with the same pose, size and position.`,
};

type EditFields = {
  operation: ImageOperation;
  imageId?: string | undefined;
  versionId?: string | undefined;
  prompt?: string | undefined;
  colour?: string | undefined;
  model?: ImageModelId | undefined;
};

/**
 * Image generation and editing (spec §1, §7 imageGeneration and imageEdit). Every image is its owner's alone: each read
 * checks the owner. Provider calls go through billing's metered path (a credit per image by the model's tier,
 * reserved before, charged only for what was made); files go to the configured storage, their rows here.
 */
export function createImagesService(deps: {
  db: Db;
  files: FileStore;
  registry: ImageRegistry;
  models: ModelsService;
  billing: BillingService;
  log: FastifyBaseLogger;
  timeoutMs: number;
}) {
  const { db, files, registry, models, billing, log, timeoutMs } = deps;
  files.claim((keys) => q.knownKeys(db, keys));

  const ownKeys = (userId: string) => models.imageKeys(userId);

  /** The adapter for a model; a person's own key has its base URL checked again at use, as chat keys are. */
  async function resolve(modelId: ImageModelId, keys: OwnImageKey[]) {
    const resolved = registry.resolve(modelId, keys);
    if (resolved.keySource === 'own') {
      const provider = imageModelInfo(modelId)!.provider;
      const key = keys.find((k) => k.provider === provider);
      if (key) await models.checkImageKey(key);
    }
    return resolved;
  }

  /** The model that does `ability` for this person: the one asked for (able, or IMAGE_MODEL_CANNOT), else the first available. */
  async function modelFor(userId: string, ability: ImageAbility, asked: ImageModelId | undefined) {
    const keys = await ownKeys(userId);
    if (asked) {
      const info = imageModelInfo(asked)!;
      if (!info.abilities.includes(ability)) throw new DomainError('IMAGE_MODEL_CANNOT', { model: info.label });
      return { info, ...(await resolve(asked, keys)) };
    }
    const available = registry.availability(keys);
    // A model on the person's own key first (it costs them no credit), then one on the server's.
    const able = IMAGE_MODELS.filter((m) => (m.abilities as readonly ImageAbility[]).includes(ability));
    const info = able.find((m) => available.get(m.id) === 'own') ?? able.find((m) => available.get(m.id));
    if (!info) throw new DomainError('MODEL_UNAVAILABLE');
    return { info: info as ImageModelInfo, ...(await resolve(info.id as ImageModelId, keys)) };
  }

  /**
   * True when making what Parley keeps refused the provider's output (not an image, too large…): the provider's
   * failure. A full image queue is not: the person is told to try again shortly.
   */
  const unusable = (error: unknown): error is DomainError =>
    error instanceof DomainError && error.code !== 'SERVICE_UNAVAILABLE';

  /** A provider's failure as the person sees it: a refusal says so; anything else is the provider's error. */
  function providerFailure(error: unknown, model: ImageModelInfo, what: string): never {
    if (error instanceof DomainError) throw error;
    if (error instanceof ImageRefusedError) {
      log.info({ model: model.id, reason: error.reason, what }, 'an image provider refused');
      throw new DomainError('IMAGE_REFUSED');
    }
    log.warn({ provider: describeError(error), model: model.id, what }, 'an image provider call failed');
    throw new DomainError('PROVIDER_ERROR');
  }

  /**
   * Writes a version's file, and its thumbnail when it has one (else `proveLater` makes it); returns the row values.
   * The caller writes the row, or removes the files.
   */
  async function store(
    userId: string,
    image: KeptOutput,
    meta: { operation: string; parentId: string | null; prompt: string | null; model: string | null },
  ): Promise<q.NewVersion> {
    const id = randomUUID();
    const fileKey = `images/${userId}/${id}`;
    const thumbKey = `images/${userId}/${id}-thumb`;
    const written = await Promise.allSettled([
      files.put(fileKey, image.bytes),
      ...(image.thumbnail ? [files.put(thumbKey, image.thumbnail)] : []),
    ]);
    const failed = written.find((w) => w.status === 'rejected');
    if (failed) {
      // Neither half of the pair is kept; the store being unwritable is the server's trouble, said as such.
      await files.removeAll([fileKey, thumbKey]);
      log.error({ err: failed.reason }, 'could not write an image to the storage');
      throw new DomainError('SERVICE_UNAVAILABLE');
    }
    return {
      id,
      ...meta,
      mediaType: image.mediaType,
      width: image.width,
      height: image.height,
      bytes: image.bytes.length,
      fileKey,
      thumbKey,
    };
  }

  /** Runs `write` with the versions' rows; if it fails, their files go (the sweep would take them later otherwise). */
  async function keeping<T>(versions: q.NewVersion[], write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      await files.removeAll(versions.flatMap((v) => [v.fileKey, v.thumbKey]));
      throw error;
    }
  }

  /** A stored file; one that is gone (removed by hand, a lost bucket) is the image not found, not a failure. */
  async function stored(key: string) {
    try {
      return await files.get(key);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      log.warn('an image file is missing from the storage');
      throw new NotFoundError('image');
    }
  }

  // Thumbnails made after the answer — a provider's clean copy is proved by the decode that makes it — behind every
  // request's image work, or at the first request for one that is missing (the server stopped before making it; a
  // storage emptied by hand). One job per thumbnail at a time: a request that comes while it runs waits for it.
  const making = new Map<string, Promise<Buffer>>();
  let closing = false;

  function makeThumbnail(version: Pick<q.NewVersion, 'fileKey' | 'thumbKey'>, when: 'now' | 'later'): Promise<Buffer> {
    const { fileKey, thumbKey } = version;
    const running = making.get(thumbKey);
    if (running) return running;
    const job = (async () => {
      let made: Buffer;
      try {
        if (when === 'now') made = await thumbnail(await stored(fileKey));
        else
          made = await thumbnailLater(async () => {
            // Its turn came while the server closes: left to be made when it is asked for.
            if (closing) throw new DomainError('SERVICE_UNAVAILABLE');
            return stored(fileKey);
          });
      } catch (error) {
        if (error instanceof NotFoundError) throw error; // the image is gone
        if (!(error instanceof DomainError)) {
          log.error({ err: error }, 'could not make a thumbnail');
          throw error;
        }
        if (error.code === 'SERVICE_UNAVAILABLE') {
          if (!closing) log.warn('a thumbnail waits to be made: the server is busy');
          throw error;
        }
        // Its structure was whole, its pixels are not (only a broken or hostile provider makes one): kept as it
        // came, served only as an image, shown with a plain thumbnail — stored, so that it is never decoded again.
        log.warn({ code: error.code }, 'a kept image does not decode: it is shown with a plain thumbnail');
        made = await plainThumbnail();
      }
      try {
        await files.put(thumbKey, made);
        // Deleted while this was made: its thumbnail goes too (the delete could not see it yet).
        if (!(await q.knownKeys(db, [thumbKey])).size) await files.removeAll([thumbKey]);
      } catch (error) {
        log.warn({ err: error }, 'could not keep a thumbnail: it will be made again when asked for');
      }
      return made;
    })().finally(() => making.delete(thumbKey));
    making.set(thumbKey, job);
    return job;
  }

  /** For a version stored without a thumbnail, once its row is written: its decode and thumbnail, after the answer. */
  function proveLater(version: q.NewVersion, image: KeptOutput) {
    if (!image.thumbnail) makeThumbnail(version, 'later').catch(() => undefined);
  }

  async function thumbnailOf(version: q.ImageVersionRow): Promise<Uint8Array> {
    const running = making.get(version.thumbKey);
    if (running) return running;
    try {
      return await files.get(version.thumbKey);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return makeThumbnail(version, 'now');
  }

  /** What an insert made, or TOO_MANY_ITEMS when the person keeps as many images as they may. */
  const full = <T>(made: T | 'full'): T => {
    if (made === 'full') throw new DomainError('TOO_MANY_ITEMS', { max: IMAGES_MAX });
    return made;
  };

  async function underCeiling(userId: string, adding: number) {
    if ((await q.countImages(db, userId)) + adding > IMAGES_MAX)
      throw new DomainError('TOO_MANY_ITEMS', { max: IMAGES_MAX });
  }

  function checkSize(file: Upload) {
    if (file.bytes.length === 0) throw new DomainError('INVALID_FILE');
    if (file.bytes.length > IMAGE_UPLOAD_MAX_MB * 1024 * 1024)
      throw new DomainError('FILE_TOO_LARGE', { limit: IMAGE_UPLOAD_MAX_MB });
  }

  /** An uploaded file, checked on its bytes: PNG or JPEG, within the size and pixel caps, without its metadata. */
  async function readImageFile(file: Upload) {
    checkSize(file);
    return readUpload(file.bytes);
  }

  /** `readImageFile` in two steps (see `startUpload`): the clean copy now, its proof to await before keeping it. */
  async function startImageFile(file: Upload) {
    checkSize(file);
    return startUpload(file.bytes);
  }

  async function imageView(row: q.ImageRow, versions?: q.ImageVersionRow[]): Promise<Image> {
    return toImage(row, versions ?? (await q.versionsOf(db, [row.id])));
  }

  /** An upload's files, once it has proved to decode: the values of its version, for `keepUpload`. */
  async function storeUpload(userId: string, started: StartedUpload) {
    const image: ProcessedImage = { ...started.image, thumbnail: await started.proof };
    return store(userId, image, { operation: 'upload', parentId: null, prompt: null, model: null });
  }

  /**
   * Keeps an uploaded file (its files stored) as a new image, with the edits made from it (`edits`, each from the
   * one before) in the same statement. Not metered: keeping calls no provider.
   */
  async function keepUpload(userId: string, file: Upload, upload: q.NewVersion, edits: q.NewVersion[] = []) {
    const name = safeFileName(file.name.replace(/\.(png|jpe?g)$/i, ''), 'image').slice(0, 100);
    const versions = [upload, ...edits];
    const [made] = await keeping(versions, async () =>
      full(
        await q.insertImages(
          db,
          userId,
          [{ image: { source: 'uploaded', prompt: null, model: null, aspectRatio: null, name }, versions }],
          IMAGES_MAX,
        ),
      ),
    );
    return made!;
  }

  return {
    /**
     * At shutdown: the thumbnails being made are finished and written before the storage closes, for at most
     * SETTLE_MS; those not started are left to be made when they are asked for.
     */
    async settle() {
      closing = true;
      const deadline = new Promise((resolve) => setTimeout(resolve, SETTLE_MS).unref());
      await Promise.race([this.whenIdle(), deadline]);
    },

    /** When no thumbnail is being made or waits to be. */
    async whenIdle() {
      while (making.size) await Promise.allSettled([...making.values()]);
    },

    /** The catalogue as this person can use it: the price of each model, and whether a key (theirs or the server's) runs it. */
    async models(caller: Caller): Promise<ImageModel[]> {
      const available = registry.availability(await ownKeys(caller.user.id));
      return IMAGE_MODELS.map((m) => ({
        id: m.id,
        label: m.label,
        provider: m.provider,
        tier: m.tier,
        creditsPerImage: m.creditsPerImage,
        abilities: [...m.abilities],
        aspectRatios: [...m.aspectRatios],
        maxImages: m.maxImages,
        available: available.get(m.id) != null,
        keySource: available.get(m.id) ?? null,
      }));
    },

    async generate(
      caller: Caller,
      fields: { prompt: string; model: ImageModelId; aspectRatio: AspectRatio; count: number },
      reference: Upload | undefined,
    ) {
      const userId = caller.user.id;
      const info = imageModelInfo(fields.model)!;
      if (!info.abilities.includes('generate') || (reference && !info.abilities.includes('reference')))
        throw new DomainError('IMAGE_MODEL_CANNOT', { model: info.label });
      if (!info.aspectRatios.includes(fields.aspectRatio) || fields.count > info.maxImages)
        throw new DomainError('IMAGE_MODEL_CANNOT', { model: info.label });
      await underCeiling(userId, fields.count);
      const ref = reference ? await readImageFile(reference) : undefined;
      const { adapter, keySource } = await resolve(fields.model, await ownKeys(userId));
      const use = {
        capability: 'imageGeneration',
        feature: 'image-generation',
        tier: info.tier,
        keySource,
        credits: info.creditsPerImage,
        units: fields.count,
      } as const;
      return billing.metered(
        caller,
        use,
        async () => {
          let made: ImageBytes[];
          try {
            made = (
              await adapter.generate({
                prompt: fields.prompt,
                aspectRatio: fields.aspectRatio,
                count: fields.count,
                ...(ref ? { reference: ref } : {}),
                abortSignal: AbortSignal.timeout(timeoutMs),
              })
            ).images.slice(0, fields.count);
          } catch (error) {
            providerFailure(error, info, 'generate');
          }
          if (!made.length) providerFailure(new Error('no image'), info, 'generate');
          const versions: q.NewVersion[] = [];
          const kept: KeptOutput[] = [];
          try {
            for (const output of made) {
              let image: KeptOutput;
              try {
                // The provider's bytes are not read again: the clean copy may be made in their memory.
                image = await normalizeOutput(output.bytes, { reuse: true });
              } catch (error) {
                // What the provider sent is not an image we keep: the provider's failure, not the person's.
                if (unusable(error)) providerFailure(new Error(`unusable output: ${error.code}`), info, 'generate');
                throw error;
              }
              versions.push(
                await store(userId, image, {
                  operation: 'generate',
                  parentId: null,
                  prompt: fields.prompt,
                  model: info.id,
                }),
              );
              kept.push(image);
            }
          } catch (error) {
            await files.removeAll(versions.flatMap((v) => [v.fileKey, v.thumbKey]));
            throw error;
          }
          const name = safeFileName(fields.prompt.slice(0, 60), 'image');
          const rows = await keeping(versions, async () =>
            full(
              await q.insertImages(
                db,
                userId,
                versions.map((version) => ({
                  image: {
                    source: 'generated',
                    prompt: fields.prompt,
                    model: info.id,
                    aspectRatio: fields.aspectRatio,
                    name,
                  },
                  versions: [version],
                })),
                IMAGES_MAX,
              ),
            ),
          );
          versions.forEach((version, i) => proveLater(version, kept[i]!));
          return {
            images: rows.map((r) => toImage(r.image, r.versions)),
            missing: fields.count - rows.length,
          };
        },
        { unitsMade: (result) => result.images.length },
      );
    },

    /** An upload kept for the editor. */
    async upload(caller: Caller, file: Upload) {
      await underCeiling(caller.user.id, 1);
      const upload = await storeUpload(caller.user.id, await startImageFile(file));
      const made = await keepUpload(caller.user.id, file, upload);
      return { image: toImage(made.image, made.versions) };
    },

    async edit(caller: Caller, fields: EditFields, uploads: Upload[]) {
      const userId = caller.user.id;
      const one = (field: string) => {
        const found = uploads.filter((u) => u.field === field);
        if (found.length > 1) throw new DomainError('TOO_MANY_FILES', { limit: 1 });
        return found[0];
      };
      const imageFile = one('image');
      const backgroundFile = one('background');
      const maskFile = one('mask');

      // What the operation needs, checked before anything is kept or paid for.
      const { operation } = fields;
      let ability: ImageAbility;
      let instruction: string | null = null;
      if (operation === 'removeBackground') ability = 'removeBackground';
      else if (operation === 'changeBackground') {
        const given = [fields.colour, backgroundFile, fields.prompt].filter((x) => x !== undefined).length;
        if (given !== 1) throw new DomainError('VALIDATION_FAILED');
        if (fields.prompt !== undefined) {
          ability = 'instruct';
          instruction = INSTRUCTIONS.scene(fields.prompt);
        } else ability = 'removeBackground';
      } else if (operation === 'removeText') {
        ability = 'instruct';
        instruction = INSTRUCTIONS.removeText;
      } else {
        ability = maskFile ? 'mask' : 'instruct';
        instruction = fields.prompt!;
      }
      if (maskFile && operation !== 'reEdit') throw new DomainError('VALIDATION_FAILED');
      if (imageFile && fields.imageId) throw new DomainError('VALIDATION_FAILED');
      const model = await modelFor(userId, ability, fields.model);
      const background = backgroundFile ? await readImageFile(backgroundFile) : undefined;
      const maskUpload = maskFile ? await readImageFile(maskFile) : undefined;

      // The version edited: one of the caller's, or the file sent with the edit. That file is kept as a new image (so
      // that it is never lost, whatever the provider does) once its decode has proved it and the provider has
      // answered, with the edit as its second version; the provider works on its clean copy meanwhile.
      let target: { image: q.ImageRow; parent: q.ImageVersionRow } | undefined;
      let sent: StartedUpload | undefined;
      let source: ImageBytes & { width: number; height: number };
      if (fields.imageId && fields.versionId) {
        const found = await q.findImage(db, userId, fields.imageId);
        const version = await q.findVersion(db, userId, fields.versionId);
        if (!found || !version || version.imageId !== found.id) throw new NotFoundError('image');
        if ((await q.versionsOf(db, [found.id])).length >= IMAGE_VERSIONS_MAX)
          throw new DomainError('TOO_MANY_ITEMS', { max: IMAGE_VERSIONS_MAX });
        target = { image: found, parent: version };
        source = { ...version, bytes: await stored(version.fileKey) };
      } else if (imageFile) {
        await underCeiling(userId, 1);
        sent = await startImageFile(imageFile);
        source = sent.image;
      } else throw new DomainError('INVALID_FILE');

      let given: ImageBytes = { bytes: source.bytes, mediaType: source.mediaType };
      // A described scene behind a cut-out: the model is given the subject on white, a background to replace (on
      // transparency, models keep the transparency and the picture looks unchanged).
      if (
        operation === 'changeBackground' &&
        instruction !== null &&
        source.mediaType === 'image/png' &&
        pngMayHaveAlpha(source.bytes)
      )
        given = { bytes: (await composeOnColour(source.bytes, '#ffffff')).bytes, mediaType: 'image/jpeg' };
      const asked = instruction;
      const { width, height } = source;
      async function callProvider(signal: AbortSignal): Promise<ImageBytes> {
        if (asked === null) return model.adapter.removeBackground({ image: given, abortSignal: signal });
        const mask = maskUpload
          ? { bytes: await maskPng(maskUpload.bytes, width, height), mediaType: 'image/png' }
          : undefined;
        return model.adapter.edit({ instruction: asked, image: given, ...(mask ? { mask } : {}), abortSignal: signal });
      }

      const use = {
        capability: 'imageEdit',
        feature: `image-${operation}`,
        tier: model.info.tier,
        keySource: model.keySource,
        credits: model.info.creditsPerImage,
      } as const;
      // Refused before the provider is called (the day's free uses, credits), nothing is kept: a file sent with the
      // edit is kept only inside, so retries do not fill the history with copies.
      const edited = await billing.metered(caller, use, async () => {
        // Stopped at the timeout (a timer of its own: a signal combined with AbortSignal.any can be collected, and its
        // timeout lost, while the call runs), or when the upload does not decode (`unwanted`).
        const stop = new AbortController();
        const timer = setTimeout(() => stop.abort(), timeoutMs);
        let unwanted = false;
        // The provider's answer made what Parley keeps, its file written (its parent named once known), while the
        // upload is proved and its files written.
        const made = callProvider(stop.signal)
          .finally(() => clearTimeout(timer))
          .then(
            async (output) => {
              let result: KeptOutput;
              try {
                result = await normalizeOutput(output.bytes, { reuse: true });
                if (fields.colour) result = await composeOnColour(result.bytes, fields.colour);
                else if (background) result = await composeOnImage(result.bytes, background.bytes);
              } catch (error) {
                if (unusable(error))
                  providerFailure(new Error(`unusable output: ${error.code}`), model.info, operation);
                throw error;
              }
              const meta = { operation, parentId: null, prompt: fields.prompt ?? null, model: model.info.id };
              return { result, values: await store(userId, result, meta) };
            },
            (error: unknown) => {
              if (unwanted) throw error; // stopped here: not the provider's failure
              providerFailure(error, model.info, operation);
            },
          );
        // Awaited below; a failure while the upload is proved must not go unhandled meanwhile.
        made.catch(() => undefined);
        if (sent) {
          let upload: q.NewVersion;
          try {
            upload = await storeUpload(userId, sent);
          } catch (error) {
            // The file does not decode, or cannot be stored: the provider's work on it is not wanted.
            unwanted = true;
            stop.abort();
            const done = await made.catch(() => null);
            if (done) await files.removeAll([done.values.fileKey, done.values.thumbKey]);
            throw error;
          }
          let done: Awaited<typeof made>;
          try {
            done = await made;
          } catch (error) {
            // The provider failed: the upload is kept all the same, never lost whatever the provider does.
            await keepUpload(userId, imageFile!, upload);
            throw error;
          }
          // The upload and the edit made from it, one image with two versions, in one statement.
          const values = { ...done.values, parentId: upload.id };
          const kept = await keepUpload(userId, imageFile!, upload, [values]);
          proveLater(values, done.result);
          return { image: kept.image, version: kept.versions[1]!, versions: kept.versions };
        }
        const { image, parent } = target!;
        const { result, values: unparented } = await made;
        const values = { ...unparented, parentId: parent.id };
        const inserted = await keeping([values], async () => {
          const done = await q.insertVersion(db, userId, image.id, values, IMAGE_VERSIONS_MAX);
          if (done === null) throw new NotFoundError('image');
          if (done === 'full') throw new DomainError('TOO_MANY_ITEMS', { max: IMAGE_VERSIONS_MAX });
          return done;
        });
        proveLater(values, result);
        return inserted;
      });
      return { image: toImage(edited.image, edited.versions), version: toVersion(edited.version) };
    },

    async list(caller: Caller, query: { cursor?: string | undefined; limit: number }) {
      const after = query.cursor ? readCursor(query.cursor) : undefined;
      const rows = await q.listImages(db, caller.user.id, query.limit + 1, after);
      const page = rows.slice(0, query.limit);
      const versions = await q.versionsOf(
        db,
        page.map((r) => r.id),
      );
      const last = page.at(-1);
      return {
        images: page.map((r) =>
          toImage(
            r,
            versions.filter((v) => v.imageId === r.id),
          ),
        ),
        nextCursor: rows.length > query.limit && last ? writeCursor(last) : null,
      };
    },

    async get(caller: Caller, id: string) {
      const row = await q.findImage(db, caller.user.id, id);
      if (!row) throw new NotFoundError('image');
      return imageView(row);
    },

    async remove(caller: Caller, id: string) {
      const keys = await q.deleteImage(db, caller.user.id, id);
      if (!keys) throw new NotFoundError('image');
      await files.removeAll(keys);
      return { deleted: 1 };
    },

    /** A version's bytes (or its thumbnail), for its owner only, with a name for downloads. */
    async file(caller: Caller, versionId: string, size: 'full' | 'thumb') {
      const version = await q.findVersion(db, caller.user.id, versionId);
      if (!version) throw new NotFoundError('image');
      const image = await q.findImage(db, caller.user.id, version.imageId);
      if (!image) throw new NotFoundError('image');
      const thumb = size === 'thumb';
      const bytes = thumb ? await thumbnailOf(version) : await stored(version.fileKey);
      const mediaType = thumb ? 'image/webp' : version.mediaType;
      const extension = thumb ? 'webp' : version.mediaType === 'image/png' ? 'png' : 'jpg';
      return { bytes, mediaType, name: `${image.name}.${extension}` };
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;

function toVersion(row: q.ImageVersionRow): ImageVersion {
  return {
    id: row.id,
    imageId: row.imageId,
    parentId: row.parentId,
    operation: row.operation as ImageVersion['operation'],
    prompt: row.prompt,
    model: row.model,
    mediaType: row.mediaType,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    createdAt: row.createdAt.toISOString(),
  };
}

function toImage(row: q.ImageRow, versions: q.ImageVersionRow[]): Image {
  return {
    id: row.id,
    source: row.source,
    prompt: row.prompt,
    model: row.model,
    aspectRatio: row.aspectRatio,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    versions: versions.map(toVersion),
  };
}

const writeCursor = (row: q.ImageRow) => Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');

function readCursor(cursor: string) {
  const [at = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at);
  if (
    rest.length ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(at) ||
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id) ||
    !instantInRange(createdAt.getTime())
  )
    throw new DomainError('BAD_REQUEST');
  return { createdAt, id };
}
