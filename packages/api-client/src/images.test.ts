import { describe, expect, it } from 'vitest';
import type { ApiClient } from './client';
import { editImage, generateImages, imageFileBytes, uploadImage } from './images';
import { json, loggedOut, ok, setup } from './test-server';

const PNG = [0x89, 0x50, 0x4e, 0x47];
const png = (name = 'cat.png') => new File([new Uint8Array(PNG)], name, { type: 'image/png' });
const image = { id: 'i1', versions: [{ id: 'v1' }] };

/** The multipart body's entries in order, files as their names. */
function partsOf(init: RequestInit | undefined) {
  const parts: [string, string][] = [];
  (init?.body as FormData).forEach((value, name) =>
    parts.push([name, typeof value === 'string' ? value : `file:${value.name}`]),
  );
  return parts;
}

describe('image generation', () => {
  it('posts the fields before the reference image and resolves with the images and how many are missing', async () => {
    const { client, fetchMock, headersOf } = setup(() => ok({ images: [image], missing: 1 }));
    const controller = new AbortController();
    const answer = await generateImages(
      client,
      { prompt: 'a red fox', model: 'FLUX_1_1_PRO', aspectRatio: '16:9', count: 2 },
      png('fox.png'),
      controller.signal,
    );
    expect(answer).toEqual({ images: [image], missing: 1 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/imageGeneration');
    expect(init?.method).toBe('POST');
    expect(init?.signal).toBe(controller.signal);
    expect(partsOf(init)).toEqual([
      ['prompt', 'a red fox'],
      ['model', 'FLUX_1_1_PRO'],
      ['aspectRatio', '16:9'],
      ['count', '2'],
      ['reference', 'file:fox.png'],
    ]);
    // Multipart: the browser writes the boundary; the language and token go as on every call.
    expect(headersOf().has('content-type')).toBe(false);
    expect(headersOf().get('lang-type')).toBe('fr');
    expect(headersOf().get('authorization')).toBe('Bearer tok-1');
  });

  it('leaves out what is not given, and throws the server’s localized refusal', async () => {
    const { client, fetchMock } = setup(() => ok({ images: [], missing: 0 }));
    await generateImages(client, { prompt: 'a fox', model: 'FAL_FLUX_DEV' });
    expect(partsOf(fetchMock.mock.calls[0]![1])).toEqual([
      ['prompt', 'a fox'],
      ['model', 'FAL_FLUX_DEV'],
    ]);

    const refused = setup(() =>
      json({ status: 422, body: { status: 422, code: 'IMAGE_REFUSED', message: 'Le fournisseur a refusé' } }),
    );
    await expect(generateImages(refused.client, { prompt: 'x', model: 'DALL_E_3' })).rejects.toMatchObject({
      status: 422,
      code: 'IMAGE_REFUSED',
      message: 'Le fournisseur a refusé',
    });
  });
});

describe('image edits and uploads', () => {
  it('an edit of a version sends its ids, the operation’s fields and files', async () => {
    const { client, fetchMock } = setup(() => ok({ image, version: { id: 'v2' } }));
    const mask = new Blob([new Uint8Array(PNG)], { type: 'image/png' });
    const answer = await editImage(
      client,
      { operation: 'reEdit', imageId: 'i1', versionId: 'v1', prompt: 'add a hat', model: 'GPT_IMAGE_1' },
      { mask },
    );
    expect(answer).toEqual({ image, version: { id: 'v2' } });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/ai/imageEdit');
    expect(partsOf(init)).toEqual([
      ['operation', 'reEdit'],
      ['imageId', 'i1'],
      ['versionId', 'v1'],
      ['prompt', 'add a hat'],
      ['model', 'GPT_IMAGE_1'],
      // A blob without a name is named after its part.
      ['mask', 'file:mask.png'],
    ]);
  });

  it('a colour background on an image file sends the file and the colour', async () => {
    const { client, fetchMock } = setup(() => ok({ image, version: { id: 'v1' } }));
    await editImage(client, { operation: 'changeBackground', colour: '#ff8800' }, { image: png('me.png') });
    expect(partsOf(fetchMock.mock.calls[0]![1])).toEqual([
      ['operation', 'changeBackground'],
      ['colour', '#ff8800'],
      ['image', 'file:me.png'],
    ]);
  });

  it('an upload posts one image part; a refused format throws its code', async () => {
    const { client, fetchMock } = setup(() => ok({ image }));
    await expect(uploadImage(client, png(), 'photo.jpg')).resolves.toEqual({ image });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('http://api.test/api/images/upload');
    expect(partsOf(init)).toEqual([['image', 'file:photo.jpg']]);

    const refused = setup(() =>
      json({
        status: 415,
        body: { status: 415, code: 'IMAGE_FORMAT_UNSUPPORTED', message: 'only png and jpeg are supported' },
      }),
    );
    await expect(uploadImage(refused.client, png('a.gif'), 'a.gif')).rejects.toMatchObject({
      status: 415,
      code: 'IMAGE_FORMAT_UNSUPPORTED',
    });
  });
});

describe('a version’s bytes', () => {
  it('asks for the size and the download with the bearer header, and resolves with the bytes', async () => {
    const { client, fetchMock, headersOf } = setup(
      () => new Response(new Uint8Array(PNG), { headers: { 'content-type': 'image/png' } }),
    );
    const blob = await imageFileBytes(client, 'v/1', { size: 'thumb' });
    expect(fetchMock.mock.calls[0]![0]).toBe('http://api.test/api/images/file/v%2F1?size=thumb&download=0');
    expect(headersOf().get('authorization')).toBe('Bearer tok-1');
    expect(blob.type).toBe('image/png');
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual(PNG);

    await imageFileBytes(client, '..', { download: true });
    expect(fetchMock.mock.calls[1]![0]).toBe('http://api.test/api/images/file/%2E%2E?size=full&download=1');
  });

  it('another person’s version is a 404', async () => {
    const { client } = setup(() =>
      json({ status: 404, body: { status: 404, code: 'NOT_FOUND', message: 'Introuvable' } }),
    );
    await expect(imageFileBytes(client, 'v9')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('409 and 401 end the session for these calls too', async () => {
    for (const run of [
      (c: ApiClient) => generateImages(c, { prompt: 'x', model: 'FAL_FLUX_DEV' }),
      (c: ApiClient) => editImage(c, { operation: 'removeText', imageId: 'i', versionId: 'v' }),
      (c: ApiClient) => uploadImage(c, png(), 'a.png'),
      (c: ApiClient) => imageFileBytes(c, 'v1'),
    ]) {
      const { client, drop, onLoggedOut } = setup(() => loggedOut());
      await expect(run(client)).rejects.toMatchObject({ status: 409, code: 'SESSION_REPLACED' });
      expect(drop).toHaveBeenCalledTimes(1);
      expect(onLoggedOut).toHaveBeenCalledTimes(1);
    }
  });
});
