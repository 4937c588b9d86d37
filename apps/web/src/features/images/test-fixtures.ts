import { vi } from 'vitest';
import type { Image, ImageModel, ImageVersion } from '@parley/contract';
import { IMAGE_MODELS } from '@parley/contract/values';
import { makeProfile, mockApi, ok } from '../../test/render-app';

export const IDS = {
  fox: '5b0c8f7e-1a2b-4c3d-8e9f-000000000001',
  cat: '5b0c8f7e-1a2b-4c3d-8e9f-000000000002',
  v1: '6c1d9a8f-2b3c-4d4e-9fa0-000000000001',
  v2: '6c1d9a8f-2b3c-4d4e-9fa0-000000000002',
  v3: '6c1d9a8f-2b3c-4d4e-9fa0-000000000003',
  v4: '6c1d9a8f-2b3c-4d4e-9fa0-000000000004',
  cat1: '6c1d9a8f-2b3c-4d4e-9fa0-000000000011',
} as const;

const AT = '2026-05-01T10:00:00.000Z';

export function makeVersion(overrides: Partial<ImageVersion> = {}): ImageVersion {
  return {
    id: IDS.v1,
    imageId: IDS.fox,
    parentId: null,
    operation: 'generate',
    prompt: null,
    model: 'FLUX_1_1_PRO',
    mediaType: 'image/png',
    width: 1024,
    height: 768,
    bytes: 120_000,
    createdAt: AT,
    ...overrides,
  };
}

export function makeImage(overrides: Partial<Image> = {}): Image {
  return {
    id: IDS.fox,
    source: 'generated',
    prompt: 'A red fox asleep in the snow',
    model: 'FLUX_1_1_PRO',
    aspectRatio: '4:3',
    name: 'A red fox asleep in the snow',
    createdAt: AT,
    updatedAt: AT,
    versions: [makeVersion()],
    ...overrides,
  };
}

/**
 * The fox with four versions: 1 generated, 2 background removed (from 1), 3 re-edited (from 2), 4 text removed from 1
 * (a branch: version 1 was chosen again and edited).
 */
export function foxWithVersions(): Image {
  return makeImage({
    versions: [
      makeVersion(),
      makeVersion({ id: IDS.v2, parentId: IDS.v1, operation: 'removeBackground', model: 'FAL_BACKGROUND_REMOVAL' }),
      makeVersion({ id: IDS.v3, parentId: IDS.v2, operation: 'reEdit', prompt: 'add a scarf', model: 'GPT_IMAGE_1' }),
      makeVersion({ id: IDS.v4, parentId: IDS.v1, operation: 'removeText', model: 'FLUX_KONTEXT_PRO' }),
    ],
  });
}

/** The catalogue as the server offers it: every model available with its key, but DALL·E 3 (no key here). */
export function makeModels(overrides: Partial<Record<string, Partial<ImageModel>>> = {}): ImageModel[] {
  return IMAGE_MODELS.map((m) => ({
    id: m.id,
    label: m.label,
    provider: m.provider,
    tier: m.tier,
    creditsPerImage: m.creditsPerImage,
    abilities: [...m.abilities],
    aspectRatios: [...m.aspectRatios],
    maxImages: m.maxImages,
    available: m.id !== 'DALL_E_3',
    keySource: m.id === 'DALL_E_3' ? null : ('server' as const),
    ...overrides[m.id],
  }));
}

export type Handlers = Parameters<typeof mockApi>[0];

/** A signed-in person, the image models, and the history (one page) answered; more calls in `handlers`. */
export function signedIn(
  data: { images?: Image[]; models?: ImageModel[]; nextCursor?: string | null } = {},
  handlers: Handlers = {},
) {
  localStorage.setItem('token', 'tok');
  const images = data.images ?? [];
  return mockApi({
    'GET /api/user/profile': ok(makeProfile()),
    'GET /api/ai/image-models': ok({ models: data.models ?? makeModels() }),
    'GET /api/images': ok({ images, nextCursor: data.nextCursor ?? null }),
    ...Object.fromEntries(images.map((image) => [`GET /api/images/get/${image.id}`, ok(image)])),
    ...handlers,
  });
}

/** jsdom has no object URLs: every blob gets a readable one. */
export function stubObjectUrls() {
  let n = 0;
  const create = vi.fn(() => `blob:test/${(n += 1)}`);
  const revoke = vi.fn();
  Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
  return { create, revoke };
}

/** The multipart body of a call, as [name, value or file name] in order. */
export function partsOf(init: RequestInit | undefined): [string, string][] {
  const parts: [string, string][] = [];
  (init?.body as FormData).forEach((value, name) =>
    parts.push([name, typeof value === 'string' ? value : `file:${value.name}`]),
  );
  return parts;
}

export const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
export const JPEG_BYTES = [0xff, 0xd8, 0xff, 0xe0, 0, 16];
export const GIF_BYTES = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

export const fileOf = (bytes: number[] | string, name: string, type: string) =>
  new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name, { type });
