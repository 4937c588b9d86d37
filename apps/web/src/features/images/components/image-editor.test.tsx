import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Image } from '@parley/contract';
import { ok, renderApp } from '../../../test/render-app';
import {
  fileOf,
  foxWithVersions,
  GIF_BYTES,
  IDS,
  JPEG_BYTES,
  makeImage,
  makeModels,
  makeVersion,
  partsOf,
  PNG_BYTES,
  signedIn,
  stubObjectUrls,
} from '../test-fixtures';

const slow = { timeout: 10_000 };
const NEW_VERSION = '6c1d9a8f-2b3c-4d4e-9fa0-000000000005';

beforeEach(() => {
  stubObjectUrls();
});

const dropOn = (target: Element, files: File[], types = files.length ? ['Files'] : ['text/uri-list']) => {
  const dataTransfer = { files, types, items: [], dropEffect: 'copy' };
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
};

/** The version list's current entry. */
const currentEntry = () =>
  within(screen.getByRole('region', { name: /^Versions:/ }))
    .getAllByRole('button')
    .find((b) => b.getAttribute('aria-current') === 'true');

/** The server's answer to an edit: the new version, made from `parentId`, last. */
function editAnswer(image: Image, parentId: string, operation: 'reEdit' | 'removeBackground' | 'changeBackground') {
  const version = makeVersion({ id: NEW_VERSION, parentId, operation });
  return ok({ image: { ...image, versions: [...image.versions, version] }, version });
}

describe('/image-editor: opening an image', { timeout: 30_000 }, () => {
  it('says what a drop without an image file and a drop of another kind of image get (spec §5)', async () => {
    const fetchMock = signedIn();
    renderApp('/image-editor');
    expect(await screen.findByRole('heading', { level: 1, name: 'Image editor' }, slow)).toBeInTheDocument();
    expect(document.title).toBe('Image editor | Parley');
    const zone = screen.getByTestId('image-drop-area');

    // An image dragged from another page arrives as a link; a text file is no image.
    dropOn(zone, []);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please drop a valid image file.');
    dropOn(zone, [fileOf('just words', 'notes.txt', 'text/plain')]);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Please drop a valid image file.'));

    dropOn(zone, [fileOf(GIF_BYTES, 'cat.gif', 'image/gif')]);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Only PNG and JPEG are supported in the image editor.'),
    );
    // An HTML page named .png is refused on its bytes.
    dropOn(zone, [fileOf('<html><script>1</script></html>', 'x.png', 'image/png')]);
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Only PNG and JPEG are supported in the image editor.'),
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/images/upload'))).toBe(false);
  });

  it('uploads a dropped JPEG and opens it; the server’s refusal is shown as it says', async () => {
    const cat = makeImage({
      id: IDS.cat,
      source: 'uploaded',
      prompt: null,
      model: null,
      aspectRatio: null,
      name: 'cat.jpg',
      versions: [makeVersion({ id: IDS.cat1, imageId: IDS.cat, operation: 'upload', mediaType: 'image/jpeg' })],
    });
    let refuse = true;
    const fetchMock = signedIn(
      {},
      {
        'POST /api/images/upload': () =>
          refuse
            ? {
                status: 400,
                body: {
                  status: 400,
                  code: 'IMAGE_TOO_LARGE',
                  message: 'This image is too large (9000 × 9000 pixels).',
                },
              }
            : ok({ image: cat }),
        [`GET /api/images/get/${IDS.cat}`]: ok(cat),
      },
    );
    const { router } = renderApp('/image-editor');
    await screen.findByRole('heading', { level: 1, name: 'Image editor' }, slow);
    dropOn(screen.getByTestId('image-drop-area'), [fileOf(JPEG_BYTES, 'cat.jpg', 'image/jpeg')]);
    expect(await screen.findByRole('alert')).toHaveTextContent('This image is too large (9000 × 9000 pixels).');

    refuse = false;
    dropOn(screen.getByTestId('image-drop-area'), [fileOf(JPEG_BYTES, 'cat.jpg', 'image/jpeg')]);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/image-editor/${IDS.cat}`));
    const upload = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/images/upload')).at(-1)!;
    expect(partsOf(upload[1])).toEqual([['image', 'file:cat.jpg']]);
    expect(await screen.findByRole('button', { name: 'Version 1: Uploaded' })).toHaveAttribute('aria-current', 'true');
  });

  it('opens an image named in the address (?image=), and says when it is not there', async () => {
    signedIn({ images: [makeImage()] });
    const first = renderApp(`/image-editor?image=${IDS.fox}`);
    expect(await screen.findByRole('button', { name: 'Remove the background' }, slow)).toBeInTheDocument();
    first.unmount();

    signedIn(
      {},
      {
        [`GET /api/images/get/${IDS.cat}`]: {
          status: 404,
          body: { status: 404, code: 'NOT_FOUND', message: 'Not found' },
        },
      },
    );
    renderApp(`/image-editor/${IDS.cat}`);
    expect(
      await screen.findByText('This image is not there: it was deleted, or it is not yours.', {}, slow),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose an image' })).toBeInTheDocument();
  });
});

describe('/image-editor: opened by the extension', { timeout: 30_000 }, () => {
  it('says why "Edit with Parley" brought no image, for the known reasons only', async () => {
    signedIn();
    const first = renderApp('/image-editor?problem=formatUnsupported');
    const alert = await screen.findByRole('alert', {}, slow);
    expect(alert).toHaveTextContent('Edit with Parley');
    expect(alert).toHaveTextContent('Only PNG and JPEG are supported in the image editor.');
    expect(screen.getByRole('button', { name: 'Choose an image' })).toBeInTheDocument();
    first.unmount();

    signedIn();
    renderApp('/image-editor?problem=%3Cb%3EYou%20won%3C%2Fb%3E');
    await screen.findByRole('button', { name: 'Choose an image' }, slow);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(document.body).not.toHaveTextContent('You won');
  });
});

describe('/image-editor: versions', { timeout: 30_000 }, () => {
  it('undo goes to the version an edit was made from, redo comes back, by button and by Ctrl+Z', async () => {
    const user = userEvent.setup();
    signedIn({ images: [foxWithVersions()] });
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 4' }, slow);
    expect(currentEntry()).toHaveAccessibleName('Version 4: Text removed');
    const undoButton = screen.getByRole('button', { name: 'Undo' });
    const redoButton = screen.getByRole('button', { name: 'Redo' });
    expect(redoButton).toBeDisabled();

    await user.click(undoButton);
    // Version 4 was made from version 1.
    expect(currentEntry()).toHaveAccessibleName('Version 1: Generated');
    expect(undoButton).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Compare before and after' })).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Showing Version 1: Generated (of 4).');
    await user.click(redoButton);
    expect(currentEntry()).toHaveAccessibleName('Version 4: Text removed');

    // Any version can be chosen; the keyboard moves along its branch.
    await user.click(screen.getByRole('button', { name: 'Version 3: Re-edited' }));
    expect(currentEntry()).toHaveAccessibleName('Version 3: Re-edited');
    await user.keyboard('{Control>}z{/Control}');
    expect(currentEntry()).toHaveAccessibleName('Version 2: Background removed');
    await user.keyboard('{Control>}z{/Control}');
    expect(currentEntry()).toHaveAccessibleName('Version 1: Generated');
    await user.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(currentEntry()).toHaveAccessibleName('Version 2: Background removed');
    await user.keyboard('{Control>}y{/Control}');
    expect(currentEntry()).toHaveAccessibleName('Version 3: Re-edited');

    // Typing in a field is typing, not undoing.
    await user.click(screen.getByRole('radio', { name: 'Re-edit' }));
    await user.type(screen.getByLabelText('What should change?'), 'x{Control>}z{/Control}');
    expect(currentEntry()).toHaveAccessibleName('Version 3: Re-edited');
  });

  it('compares the current version with its parent by a slider', async () => {
    const user = userEvent.setup();
    signedIn({ images: [foxWithVersions()] });
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 4' }, slow);
    const compare = screen.getByRole('button', { name: 'Compare before and after' });
    await user.click(compare);
    expect(compare).toHaveAttribute('aria-pressed', 'true');
    const slider = screen.getByRole('slider', { name: 'Before and after' });
    expect(slider).toHaveAttribute('aria-valuetext', 'Before 50%, after 50%');
    fireEvent.change(slider, { target: { value: '30' } });
    expect(slider).toHaveAttribute('aria-valuetext', 'Before 30%, after 70%');
  });

  it('re-edits an older version: the new version is made from it and becomes the current one', async () => {
    const user = userEvent.setup();
    const fox = foxWithVersions();
    const fetchMock = signedIn({ images: [fox] }, { 'POST /api/ai/imageEdit': editAnswer(fox, IDS.v2, 'reEdit') });
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 4' }, slow);
    await user.click(screen.getByRole('button', { name: 'Version 2: Background removed' }));
    await user.click(screen.getByRole('radio', { name: 'Re-edit' }));
    expect(screen.getByText('Applies to Version 2: Background removed.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Re-edit' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Say what should change.');
    await user.type(screen.getByLabelText('What should change?'), 'Give the fox a green scarf');
    // Only models that follow instructions, the usable ones first; FLUX Kontext cannot keep to a painted area.
    const model = screen.getByRole('combobox', { name: 'Model' });
    const options = within(model).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      'FLUX.1 Kontext [pro]',
      'GPT Image 1',
      'Stable Diffusion (OpenAI-compatible)',
    ]);
    // The chosen model's tier and price, tied to the list.
    const details = document.getElementById(model.getAttribute('aria-describedby')!);
    expect(details).toHaveTextContent(/^Advanced\s*Credits per image: 2$/);
    expect(screen.getByText('This model changes the whole picture (it cannot keep to a painted area).')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Re-edit' }));

    await waitFor(() => expect(screen.getByRole('region', { name: 'Versions: 5' })).toBeInTheDocument());
    expect(currentEntry()).toHaveAccessibleName('Version 5: Re-edited');
    expect(screen.getByRole('status')).toHaveTextContent('Done: Version 5: Re-edited.');
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/ai/imageEdit'))!;
    expect(partsOf(call[1])).toEqual([
      ['operation', 'reEdit'],
      ['imageId', IDS.fox],
      ['versionId', IDS.v2],
      ['prompt', 'Give the fox a green scarf'],
      ['model', 'FLUX_KONTEXT_PRO'],
    ]);
    // Undo from the new version goes to the one it was made from.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(currentEntry()).toHaveAccessibleName('Version 2: Background removed');
  });

  it('paints a mask where the model can, and sends it at the image’s size with the re-edit', async () => {
    const user = userEvent.setup();
    const fox = makeImage();
    const drawn: unknown[][] = [];
    const ctx = new Proxy(
      {},
      {
        get:
          (_t, name: string) =>
          (...args: unknown[]) =>
            drawn.push([name, ...args]),
        set: () => true,
      },
    );
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => ctx as never);
    const sizes: [number, number][] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (
      this: HTMLCanvasElement,
      done: BlobCallback,
      type?: string,
    ) {
      sizes.push([this.width, this.height]);
      done(new Blob([new Uint8Array(PNG_BYTES)], { type: type ?? 'image/png' }));
    });
    vi.spyOn(HTMLCanvasElement.prototype, 'getBoundingClientRect').mockReturnValue({
      left: 0,
      top: 0,
      width: 512,
      height: 384,
      right: 512,
      bottom: 384,
      x: 0,
      y: 0,
      toJSON: () => ({}),
    });
    const fetchMock = signedIn({ images: [fox] }, { 'POST /api/ai/imageEdit': editAnswer(fox, IDS.v1, 'reEdit') });
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 1' }, slow);
    await user.click(screen.getByRole('radio', { name: 'Re-edit' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Model' }), 'GPT_IMAGE_1');
    await user.type(screen.getByLabelText('What should change?'), 'A hat on the fox');

    const brush = screen.getByRole('button', { name: 'Paint the area' });
    await user.click(brush);
    expect(brush).toHaveAttribute('aria-pressed', 'true');
    const canvas = screen.getByRole('img', { name: 'The image, to paint the area to change on' });
    // The canvas works in the image's own pixels.
    expect(canvas).toHaveAttribute('width', '1024');
    expect(canvas).toHaveAttribute('height', '768');
    fireEvent.pointerDown(canvas, { clientX: 100, clientY: 50, button: 0, pointerId: 1 });
    fireEvent.pointerMove(canvas, { clientX: 200, clientY: 100, pointerId: 1 });
    fireEvent.pointerUp(canvas, { pointerId: 1 });
    expect(screen.getByText('Only the painted area will change.')).toBeInTheDocument();
    // Shown at half size: the pointer's 100 px are 200 image pixels.
    expect(drawn).toContainEqual(['moveTo', 200, 100]);
    expect(drawn).toContainEqual(['lineTo', 400, 200]);

    await user.click(screen.getByRole('button', { name: 'Re-edit' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Versions: 2' })).toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/ai/imageEdit'))!;
    expect(partsOf(call[1])).toEqual([
      ['operation', 'reEdit'],
      ['imageId', IDS.fox],
      ['versionId', IDS.v1],
      ['prompt', 'A hat on the fox'],
      ['model', 'GPT_IMAGE_1'],
      ['mask', 'file:mask.png'],
    ]);
    expect(sizes).toEqual([[1024, 768]]);
    // The painting belonged to the version it was made on.
    expect(screen.queryByText('Only the painted area will change.')).toBeNull();
  });
});

describe('/image-editor: operations', { timeout: 30_000 }, () => {
  it('a colour background takes background-removal models and sends the colour; a scene takes instruction models', async () => {
    const user = userEvent.setup();
    const fox = makeImage();
    const fetchMock = signedIn(
      { images: [fox] },
      { 'POST /api/ai/imageEdit': editAnswer(fox, IDS.v1, 'changeBackground') },
    );
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 1' }, slow);
    await user.click(screen.getByRole('radio', { name: 'Change background' }));
    expect(screen.getByRole('radio', { name: 'A colour' })).toBeChecked();
    const options = () => within(screen.getByRole('combobox', { name: 'Model' })).getAllByRole('option');
    expect(options().map((o) => o.getAttribute('value'))).toEqual(['FAL_BACKGROUND_REMOVAL']);
    fireEvent.input(screen.getByLabelText(/^Colour/), { target: { value: '#ff8800' } });

    await user.click(screen.getByRole('radio', { name: 'A described scene' }));
    expect(options().map((o) => o.getAttribute('value'))).toEqual([
      'FLUX_KONTEXT_PRO',
      'GPT_IMAGE_1',
      'LOCAL_STABLE_DIFFUSION',
    ]);
    await user.click(screen.getByRole('radio', { name: 'A colour' }));
    await user.click(screen.getByRole('button', { name: 'Change the background' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'Versions: 2' })).toBeInTheDocument());
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/ai/imageEdit'))!;
    expect(partsOf(call[1])).toEqual([
      ['operation', 'changeBackground'],
      ['imageId', IDS.fox],
      ['versionId', IDS.v1],
      ['colour', '#ff8800'],
      ['model', 'FAL_BACKGROUND_REMOVAL'],
    ]);
  });

  it('without a usable model for the operation, says why and where to add a key, and cannot apply', async () => {
    signedIn({
      images: [makeImage()],
      models: makeModels({ FAL_BACKGROUND_REMOVAL: { available: false, keySource: null } }),
    });
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 1' }, slow);
    expect(screen.getByText('No model that can do this has a key on this server.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an API key' })).toHaveAttribute('href', '/setting/api-keys');
    expect(screen.queryByRole('combobox', { name: 'Model' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove the background' })).toBeDisabled();
  });

  it('shows the server’s refusal of an edit where it happened, and keeps the version', async () => {
    const user = userEvent.setup();
    signedIn(
      { images: [makeImage()] },
      {
        'POST /api/ai/imageEdit': {
          status: 400,
          body: {
            status: 400,
            code: 'IMAGE_MODEL_CANNOT',
            message: 'BiRefNet (fal) cannot do this.',
          },
        },
      },
    );
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 1' }, slow);
    await user.click(screen.getByRole('button', { name: 'Remove the background' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('BiRefNet (fal) cannot do this.');
    expect(currentEntry()).toHaveAccessibleName('Version 1: Generated');
    // Another operation (another model) is not what was refused: the refusal goes.
    await user.click(screen.getByRole('radio', { name: 'Re-edit' }));
    expect(screen.queryByText('BiRefNet (fal) cannot do this.')).toBeNull();
  });

  it('downloads the current version as PNG with the image’s name and the version’s number', async () => {
    const user = userEvent.setup();
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    const fox = foxWithVersions();
    // The bytes answered as a PNG (a JSON body would be re-encoded).
    signedIn({ images: [fox] });
    const fetchMock = vi.mocked(fetch);
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).includes(`/api/images/file/${IDS.v3}`)
        ? new Response(new Uint8Array(PNG_BYTES), { headers: { 'content-type': 'image/png' } })
        : original(input, init),
    );
    renderApp(`/image-editor/${IDS.fox}`);
    await screen.findByRole('region', { name: 'Versions: 4' }, slow);
    await user.click(screen.getByRole('button', { name: 'Version 3: Re-edited' }));
    await user.click(screen.getByRole('button', { name: 'Download PNG' }));
    await waitFor(() => expect(clicks).toEqual(['A-red-fox-asleep-in-the-snow-3.png']));
  });
});
